// Top Game hand form: show the playnumber and the contract it gives while tapping.
// What each playnumber means and allows comes from the server (#rules-facts), not from here.
"use strict";
(function () {
  const S = window.Scorekeeper;
  let playnumbers = {};
  let refusedDoubles = {};
  const update = () => {
    const bid = S.value("bid"), tops = S.value("dummy_tops"), strain = S.value("strain");
    const line = document.getElementById("pn-line");
    const pn = bid === null || tops === null ? null : Number(bid) + Number(tops);
    // The doubles the rules refuse at this playnumber, with the server's reason.
    S.refuse("doubling", (pn !== null && refusedDoubles[pn]) || {});
    S.showGroup("doubler", !!S.value("doubling"));
    if (pn === null) return;
    const facts = playnumbers[pn];
    if (!facts) return;
    document.querySelectorAll(".contract-part").forEach((g) => {
      g.hidden = facts.passed_out || (g.id === "group-doubler" && !S.value("doubling"));
    });
    // The sentences are the page's (#form-words); the sum is notation.
    const sum = `pn = ${bid} + ${tops} = ${pn}`;
    let text;
    if (facts.passed_out) {
      text = S.word("passed_out", { pn: sum });
    } else if (strain) {
      const level = strain === "NT" ? facts.nt_level : facts.suit_level;
      text = S.word(facts.doublable ? "needs" : "needs_undoublable", { pn: sum, contract: `${level}${strain}`, tricks: level + 6 });
    } else {
      text = S.word("levels", { pn: sum, nt: facts.nt_level, suit: facts.suit_level });
    }
    line.textContent = text;
  };
  S.handForm("top_game", () => {
    const facts = S.facts();
    playnumbers = facts.playnumbers || {};
    refusedDoubles = facts.doubling_refused || {};
    S.onChange(update);
  });
})();
