// Calypso game form: count the cards and the points while the tallies are typed.
// The server checks everything again; this only helps find a miscount at the table.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const COUNTS = ["calypsos", "incomplete", "discards"];

  const read = (seat) => {
    const tally = {};
    tally.calypsos = S.value(`p${seat}_calypsos`);
    for (const count of ["incomplete", "discards"]) {
      const input = document.getElementById(`p${seat}_${count}`);
      tally[count] = input ? input.value.trim() : "";
    }
    const numbers = {};
    let missing = 0;
    for (const count of COUNTS) {
      const text = tally[count];
      if (text === null || text === "" || !/^\d+$/.test(text)) { missing += 1; numbers[count] = 0; }
      else numbers[count] = Number(text);
    }
    return { numbers, missing };
  };

  const points = (n, scoring) => scoring.calypsoPoints.slice(0, n.calypsos).reduce((a, b) => a + b, 0)
    + n.incomplete * scoring.incomplete + n.discards * scoring.discard;

  S.handForm("calypso", (form) => {
    const box = document.getElementById("card-count");
    if (!box) return;
    const scoring = window.Scorekeeper.facts();
    const players = JSON.parse(box.dataset.players);
    const sides = JSON.parse(box.dataset.sides);
    const countLine = document.getElementById("count-line");
    const sideLine = document.getElementById("side-line");

    const update = () => {
      let cards = 0, unentered = 0;
      const scored = {};
      players.forEach((player, i) => {
        const seat = i + 1;
        const { numbers, missing } = read(seat);
        const own = scoring.perCalypso * numbers.calypsos + numbers.incomplete + numbers.discards;
        cards += own;
        unentered += missing;
        scored[player] = points(numbers, scoring);
        const line = document.querySelector(`#tally-${seat} .tally-line`);
        line.textContent = missing === COUNTS.length ? ""
          : S.word(missing ? "tally_missing" : "tally", { cards: own, points: scored[player], missing });
      });
      const short = scoring.deck - cards;
      // The sentences are the page's (#form-words).
      let text;
      if (short > 0) text = S.word("missing", { cards, deck: scoring.deck, short });
      else if (short < 0) text = S.word("too_many", { cards, deck: scoring.deck, over: -short });
      else text = S.word("all_counted", { deck: scoring.deck });
      if (unentered) text = S.counted("still_empty", unentered, { count_line: text });
      countLine.textContent = text;
      box.classList.toggle("ok", short === 0 && !unentered);
      box.classList.toggle("off", short < 0 || (short > 0 && !unentered));
      const totals = sides.map((side) => side.reduce((sum, p) => sum + scored[p], 0));
      let sideText = sides.map((side, i) => `${side.join(" & ")} ${totals[i]}`).join(" · ");
      if (!unentered && totals[0] !== totals[1]) {
        const w = totals[0] > totals[1] ? 0 : 1;
        sideText = S.word("ahead", { sides: sideText, side: sides[w].join(" & "), points: Math.abs(totals[0] - totals[1]) });
      }
      sideLine.textContent = sideText;
    };
    // A count the rules refuse is flagged under its box as it is typed: the server
    // says which and why (the game's preview), this only shows it.
    let asking = null;
    const showFlags = (flags) => {
      form.querySelectorAll(".counts input").forEach((input) => {
        window.Scorekeeper.flag(input, flags[input.name]);
      });
    };
    const askFlags = () => {
      if (!form.dataset.preview) return;
      const url = new URL(form.dataset.preview, location.href);
      new FormData(form).forEach((value, name) => {
        if (name !== "csrf_token" && name !== "key") url.searchParams.append(name, value);
      });
      if (asking) asking.abort(); // only the newest answer is shown
      asking = new AbortController();
      fetch(url, { signal: asking.signal, headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? response.json() : null))
        .then((answer) => { if (answer) showFlags(answer.derived.flags || {}); })
        .catch(() => {}); // offline or superseded: the server checks again on Save
    };
    form.addEventListener("input", update);
    form.addEventListener("input", askFlags);
    form.addEventListener("change", askFlags);
    S.onChange(update);
  });
})();
