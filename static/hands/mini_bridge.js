// Mini Bridge hand form: as the HCP are typed, the server says who declares and
// dummy (or the 20–20 redeal, or a deal the declarer may scrap), then what the
// tricks score. The rules are applied on the server only: this script sends the
// form to the hand's preview address and shows the answer. Typing moves from one
// announcement to the next by itself, and with four players the last one is 40
// minus the others until someone types it.
"use strict";
(function () {
  function setUp() {
    const S = window.Scorekeeper;
    const config = S.facts();
    const R = config.rules;
    const form = document.getElementById("hand-form");
    // In announcement order (hcp1 is the dealer), whatever their place on screen.
    const inputs = Array.from(form.querySelectorAll(".hcp-input")).sort((a, b) =>
      a.name.localeCompare(b.name, "en", { numeric: true }),
    );
    const live = document.getElementById("mb-live");
    const play = document.getElementById("play");
    const result = document.getElementById("mb-result");
    const save = document.getElementById("save");
    const saveLabel = save.textContent;
    const scrap = document.getElementById("scrap");
    const dummyOut = document.getElementById("dummy-hcp");
    const hint = document.getElementById("hcp-hint");
    const hintText = hint.textContent;
    const tricksHint = document.querySelector("#group-tricks legend .hint");
    const last = config.four ? inputs[inputs.length - 1] : null;
    if (last && last.value.trim() !== "") last.dataset.typed = "1";

    const read = (input) => {
      const text = input.value.trim();
      return /^\d+$/.test(text) ? Number(text) : null;
    };
    const valid = (n) => n !== null && n >= 0 && n <= R.max_hcp;

    function fillLast() {
      if (!last || last.dataset.typed) return;
      const others = inputs.slice(0, -1).map(read);
      const rest = others.every(valid) ? R.deck - others.reduce((a, b) => a + b, 0) : null;
      last.value = valid(rest) ? String(rest) : "";
      last.classList.toggle("auto", valid(rest));
      hint.textContent = valid(rest)
        ? `${config.order[config.order.length - 1]}: ${R.deck} minus the others (type over it if wrong).`
        : hintText;
    }

    function show(answer) {
      const d = answer.derived;
      live.innerHTML = answer.live; // our own template, escaped by the server
      const redeal = !!d.redeal;
      play.hidden = redeal;
      play.querySelectorAll("input").forEach((input) => { input.disabled = redeal; });
      save.textContent = redeal ? `Save: ${config.dealer} deals again` : saveLabel;
      if (dummyOut) dummyOut.textContent = d.dummy_hcp !== undefined ? d.dummy_hcp : "–";
      if (scrap) scrap.hidden = !d.may_scrap;
      result.textContent = d.result || "";
      tricksHint.textContent = d.needed ? `by declarer and dummy, ${d.needed} needed` : "by declarer and dummy";
      document.querySelectorAll("#group-tricks label").forEach((label) => {
        const input = document.getElementById(label.htmlFor);
        label.classList.toggle("needed", !!d.needed && input && Number(input.value) === d.needed);
      });
    }

    let asking = null;
    function update() {
      fillLast();
      const query = new URLSearchParams();
      new FormData(form).forEach((value, name) => {
        if (name !== "csrf_token" && name !== "key") query.append(name, value);
      });
      const url = new URL(form.dataset.preview, location.href);
      query.forEach((value, name) => url.searchParams.append(name, value));
      if (asking) asking.abort(); // only the newest answer is shown
      asking = new AbortController();
      fetch(url, { signal: asking.signal, headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer) => { if (answer) show(answer); })
        .catch(() => {}); // offline or superseded: the server checks again on Save
    }

    inputs.forEach((input, i) => {
      input.addEventListener("focus", () => input.select());
      input.addEventListener("input", () => {
        if (input === last) {
          if (input.value.trim() === "") delete input.dataset.typed;
          else input.dataset.typed = "1";
          input.classList.remove("auto");
        }
        update();
        // 0, 4–9 or two digits cannot grow into another valid HCP: go on to the next.
        const text = input.value.trim();
        if (/^\d+$/.test(text) && (text.length >= 2 || text === "0" || Number(text) >= 4)) next(i);
      });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter") {
          event.preventDefault(); // never let Enter press the Scrap button
          next(i);
        }
      });
    });

    function next(i) {
      const following = inputs[i + 1];
      if (following && !(following === last && !last.dataset.typed && last.value !== "")) {
        following.focus();
      } else {
        inputs[i].blur(); // all in: put the keyboard away so GAME and strain show
      }
    }

    // What the page was drawn with is already the server's answer: ask only after a change.
    fillLast();
    form.addEventListener("change", update);
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
