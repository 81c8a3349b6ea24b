// Mini Bridge hand form: as the HCP are typed, the server says who declares and
// dummy (or the 20–20 redeal, or a deal the declarer may scrap), then what the
// tricks score. The rules are applied on the server only: this script sends the
// form to the hand's preview address and shows the answer. A pad of the usual
// holdings takes one tap per announcement, in announcement order; typing in a box
// also moves on by itself. With four players the last one is 40 minus the others
// until someone enters it.
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
        ? `${config.order[config.order.length - 1]}: ${R.deck} minus the others (tap the box to change it).`
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

    // The pad fills the box it points at, then the next empty one; it folds away
    // when every announcement is in, so GAME, strain and tricks come up the screen.
    const pad = document.getElementById("hcp-pad");
    const padFor = document.getElementById("pad-for");
    let target = null;
    const empty = (input) => input.value.trim() === "";
    function aim(input) {
      target = input;
      inputs.forEach((box) => box.closest(".hcp-cell").classList.toggle("pad-target", box === input));
      pad.hidden = !input;
      if (input) padFor.textContent = `${input.dataset.player}’s points`;
    }

    function entered(input) {
      if (input === last) {
        if (empty(input)) delete input.dataset.typed;
        else input.dataset.typed = "1";
        input.classList.remove("auto");
      }
      update();
    }

    pad.addEventListener("click", (event) => {
      const key = event.target.closest("[data-points]");
      if (!key || !target) return;
      const input = target;
      input.value = key.dataset.points;
      entered(input);
      aim(inputs.slice(inputs.indexOf(input) + 1).find(empty) || null);
    });

    inputs.forEach((input, i) => {
      input.addEventListener("focus", () => {
        input.select();
        aim(input);
      });
      input.addEventListener("input", () => {
        entered(input);
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
        aim(inputs.find(empty) || null);
      }
    }

    // What the page was drawn with is already the server's answer: ask only after a change.
    fillLast();
    // On a touch screen the pad replaces the keyboard: no box holds the focus at first.
    const focused = inputs.includes(document.activeElement) ? document.activeElement : null;
    if (focused && window.matchMedia("(pointer: coarse)").matches) focused.blur();
    aim(focused && document.activeElement === focused ? focused : inputs.find(empty) || null);
    form.addEventListener("change", update);
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
