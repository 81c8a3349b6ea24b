// Bridge for Three hand form: only the declarer's opponents may double, and the
// peg move is shown while tapping. The server checks everything again.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const SYMBOL = window.Scorekeeper.SYMBOL;
  const minus = (n) => (n < 0 ? `−${-n}` : `${n}`);
  const signed = (n) => (n > 0 ? `+${n}` : minus(n));

  const check = (name, value) => {
    const input = document.querySelector(`#hand-form input[name="${name}"][value="${value}"]`);
    if (input) input.checked = true;
  };
  const clear = (name) => {
    document.querySelectorAll(`#hand-form input[name="${name}"]`).forEach((i) => { i.checked = false; });
  };

  // What the rules will do: forward by the level, back per trick short, doubled × 2,
  // the floor pushes the overflow onto everyone else, pegs stop at the top hole.
  const preview = (board) => {
    const declarer = S.value("declarer"), level = S.value("level");
    const strain = S.value("strain"), tricks = S.value("tricks");
    if (!declarer || !level || !strain || tricks === null) return null;
    const doubled = S.value("doubled") === "X";
    const needed = Number(level) + 6;
    const down = Math.max(0, needed - Number(tricks));
    let move = down ? -down : Number(level);
    if (doubled) move *= 2;
    const start = board.pegs[declarer];
    const target = start + move;
    const overflow = Math.max(0, board.floor - target);
    const end = Math.min(board.top, Math.max(board.floor, target));
    // The sentences are the page's (#form-words); the contract is notation.
    const contract = `${level}${SYMBOL[strain]}${doubled ? "X" : ""}`;
    let text = S.word(down ? "down" : "made", {
      contract, declarer, tricks, down, move: signed(move), start: minus(start), end: minus(end),
    });
    if (overflow) text = S.word("floor", { preview: text, floor: minus(board.floor), overflow });
    const reached = Object.entries(board.pegs)
      .filter(([p, peg]) => (p === declarer ? end : peg + overflow) >= board.top)
      .map(([p]) => p);
    if (reached.length) {
      const players = reached.reduce((first, second) => S.word("and", { first, second }));
      text = S.counted("reach", reached.length, { preview: text, players, top: board.top });
    }
    return S.word("end", { preview: text });
  };

  S.handForm("bridge_for_three", (form) => {
    const line = document.getElementById("move-line");
    const board = JSON.parse(line.dataset.board);
    const hint = line.textContent;
    form.addEventListener("change", (event) => {
      // Naming a doubler means the contract is doubled; "Not doubled" clears the doubler.
      if (event.target.name === "doubler") check("doubled", "X");
      if (event.target.name === "doubled" && event.target.value === "") clear("doubler");
    });
    // The declarer is left out of the doublers by app.js, from the server's table.
    S.onChange(() => {
      line.textContent = preview(board) || hint;
    });
  });
})();
