// Top Game hand form: show the playnumber and the contract it gives while tapping.
// What each playnumber means comes from the server (#rules-facts), not from here.
"use strict";
(function () {
  const S = window.Scorekeeper;
  let playnumbers = {};
  const update = () => {
    const bid = S.value("bid"), tops = S.value("dummy_tops"), strain = S.value("strain");
    const line = document.getElementById("pn-line");
    const declarer = S.value("declarer");
    S.hideChoices("doubler", declarer ? [declarer] : []);
    S.hideChoices("informer", declarer ? [declarer] : []);
    S.showGroup("doubler", !!S.value("doubling"));
    if (bid === null || tops === null) return;
    const pn = Number(bid) + Number(tops);
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
  document.addEventListener("DOMContentLoaded", () => {
    playnumbers = S.facts().playnumbers || {};
    S.onChange(update);
  });
})();
