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
    let text = `pn = ${bid} + ${tops} = ${pn} → `;
    if (facts.passed_out) {
      text += "passed out: no contract, no tricks.";
    } else if (strain) {
      const level = strain === "NT" ? facts.nt_level : facts.suit_level;
      text += `${level}${strain} needs ${level + 6} tricks`;
      if (!facts.doublable) text += " (cannot be doubled)";
    } else {
      text += `${facts.nt_level}NT or ${facts.suit_level} of a suit`;
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
