// Mini Bridge hand form: as the HCP are typed, the server says who declares and
// dummy (or the 20–20 redeal, or a deal the declarer may scrap), then what the
// tricks score. The rules are applied on the server only: this script sends the
// form to the hand's preview address and shows the answer. A pad of the usual
// holdings takes one tap per announcement, in announcement order; typing in a box
// also moves on by itself. With four players the last one is suggested as 40
// minus the others until the player touches that box; from then on it is theirs.
"use strict";
(function () {
  const S = window.Scorekeeper;
  function setUp(form) {
    const config = S.facts();
    const R = config.rules;
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
    const group = document.getElementById("group-hcp");
    const totalFlag = document.getElementById("hcp-total-flag");
    const padOrder = document.querySelectorAll("#pad-order [data-player]");
    const hint = document.getElementById("hcp-hint");
    const hintText = hint.textContent;
    const tricksHint = document.querySelector("#group-tricks legend .hint");
    const last = config.four ? inputs[inputs.length - 1] : null;

    const read = (input) => {
      const text = input.value.trim();
      return /^\d+$/.test(text) ? Number(text) : null;
    };
    const valid = (n) => n !== null && n >= 0 && n <= R.max_hcp;
    // The last of four when it is 40 minus the others (null while one is missing).
    const rest = () => {
      const others = inputs.slice(0, -1).map(read);
      return others.every(valid) ? R.deck - others.reduce((a, b) => a + b, 0) : null;
    };
    // A refused or edited form keeps working the last one out, unless it was
    // given as something else.
    if (last && last.value.trim() !== "" && read(last) !== rest()) last.dataset.typed = "1";

    function fillLast() {
      if (!last || last.dataset.typed) return;
      const derived = rest();
      last.value = valid(derived) ? String(derived) : "";
      last.classList.toggle("auto", valid(derived));
      hint.textContent = valid(derived)
        ? S.word("suggested", { player: config.order[config.order.length - 1], points: derived, deck: R.deck })
        : hintText;
    }

    function show(answer) {
      const d = answer.derived;
      live.innerHTML = answer.live; // our own template, escaped by the server
      const redeal = !!d.redeal;
      play.hidden = redeal;
      play.querySelectorAll("input").forEach((input) => { input.disabled = redeal; });
      save.textContent = redeal ? S.word("deals_again", { dealer: config.dealer }) : saveLabel;
      // What the rules refuse in a box already typed, under that box (the server's words).
      inputs.forEach((input) => {
        const flag = (d.flags || {})[input.name];
        window.Scorekeeper.flag(input, flag);
        input.closest(".hcp-cell").classList.toggle("has-error", !!flag);
        // A total that does not fit marks every box typed, described by its reason.
        if (!flag && d.total_flag && input.value.trim() !== "") {
          input.setAttribute("aria-invalid", "true");
          input.setAttribute("aria-describedby", "hcp-total-flag");
        }
      });
      totalFlag.textContent = d.total_flag || "";
      totalFlag.hidden = !d.total_flag;
      group.classList.toggle("has-error", !!d.total_flag);
      if (dummyOut) dummyOut.textContent = d.dummy_hcp !== undefined ? d.dummy_hcp : "–";
      if (scrap) scrap.hidden = !d.may_scrap;
      result.textContent = d.result || "";
      tricksHint.textContent = d.needed ? S.word("tricks_needed", { needed: d.needed }) : S.word("tricks");
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
    const FOLD_MS = 400; // after a tap the pad's space is kept a moment: a quick extra tap hits nothing
    let target = null;
    let folding = null;
    const empty = (input) => input.value.trim() === "";
    const firstEmpty = (after = -1) =>
      inputs.slice(after + 1).find(empty) || inputs.find(empty) || null;

    function aim(input, pause = 0) {
      target = input;
      inputs.forEach((box) => box.closest(".hcp-cell").classList.toggle("pad-target", box === input));
      clearTimeout(folding);
      padOrder.forEach((name) => name.classList.toggle("now", !!input && name.dataset.player === input.dataset.player));
      if (input) {
        padFor.textContent = S.word("points_of", { player: input.dataset.player });
        pad.classList.remove("folding");
        pad.hidden = false;
        return;
      }
      if (pad.hidden) return;
      const focusWasHere = pad.contains(document.activeElement);
      pad.classList.add("folding");
      folding = setTimeout(() => {
        pad.hidden = true;
        pad.classList.remove("folding");
      }, pause);
      if (focusWasHere) {
        // Typed from a keyboard: go on to the GAME choice (or Save on a redeal).
        const game = play.querySelector("input:not(:disabled)");
        (play.hidden || !game ? save : game).focus();
      }
    }

    function entered(input) {
      if (input === last) {
        // Touched by the player (even cleared with Backspace): theirs from now on,
        // never filled in again under their fingers.
        input.dataset.typed = "1";
        input.classList.remove("auto");
        hint.textContent = hintText;
      }
      update();
    }

    pad.addEventListener("click", (event) => {
      const key = event.target.closest("[data-points]");
      if (!key || !target) return;
      const input = target;
      input.value = key.dataset.points;
      entered(input);
      aim(firstEmpty(inputs.indexOf(input)), FOLD_MS);
    });
    // Tabbed into from the boxes (each of which took the aim on its way): aim at
    // the first box still empty. A tap keeps the box the player chose.
    pad.addEventListener("focusin", (event) => {
      if (event.target.matches(":focus-visible")) aim(firstEmpty() || target);
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
    // Scrapping needs every announcement; the preview shows the button when allowed.
    if (scrap && inputs.some(empty)) scrap.hidden = true;
    // With a mouse and keyboard the first box takes the focus, ready for typing; on a
    // touch screen the pad replaces the phone's keyboard, so no box does.
    const first = form.querySelector(".hcp-input[data-first]");
    if (first && window.matchMedia("(pointer: fine)").matches) first.focus();
    aim(inputs.includes(document.activeElement) ? document.activeElement : firstEmpty());
    form.addEventListener("change", update);
  }

  S.handForm("mini_bridge", setUp);
})();
