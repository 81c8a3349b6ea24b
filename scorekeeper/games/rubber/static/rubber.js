// Rubber / Honeymoon / Chicago hand form: what the contract needs; honours worth the one left.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const SYMBOL = window.Scorekeeper.SYMBOL;
  const DOUBLING = { X: "doubled", XX: "redoubled" }; // the page's words (#form-words)

  // Mark each tricks button with the result it gives: "=", "+1", "−2".
  const markTricks = (needed) => {
    document.querySelectorAll("#group-tricks input").forEach((input) => {
      const label = document.querySelector(`label[for="${input.id}"]`);
      if (!label) return;
      if (needed === null) { delete label.dataset.result; return; }
      const diff = Number(input.value) - needed;
      label.dataset.result = diff === 0 ? "=" : diff > 0 ? `+${diff}` : `−${-diff}`;
      label.classList.toggle("down", diff < 0);
    });
  };

  const update = () => {
    const level = S.value("level"), strain = S.value("strain");
    const line = document.getElementById("contract-line");
    // Honours the rules refuse in this strain are disabled by app.js from the
    // server's table; when a holder is named and one worth is left, it is the one.
    const open = [...document.querySelectorAll("#group-honours_points input:not(:disabled)")];
    if (S.value("honours_holder") && open.length === 1) open[0].checked = true;
    if (level === null || strain === null) {
      markTricks(null);
      line.textContent = level ? S.word("strain_next", { level }) : "";
      return;
    }
    const needed = Number(level) + 6;
    const doubling = DOUBLING[S.value("doubling") || ""];
    const declarer = S.value("declarer");
    let contract = `${level}${SYMBOL[strain]}`;
    if (doubling) contract = S.word(doubling, { contract });
    line.textContent = S.word(declarer ? "needs_by" : "needs", { contract, declarer, tricks: needed });
    markTricks(needed);
  };
  S.handForm("rubber", () => S.onChange(update));
})();
