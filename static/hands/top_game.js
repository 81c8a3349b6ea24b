// Top Game hand form: show the playnumber and the contract it gives while tapping.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const PASSED_OUT_PN = 4;
  const update = () => {
    const bid = S.value("bid"), tops = S.value("dummy_tops"), strain = S.value("strain");
    const line = document.getElementById("pn-line");
    const declarer = S.value("declarer");
    S.hideChoices("doubler", declarer ? [declarer] : []);
    S.hideChoices("informer", declarer ? [declarer] : []);
    S.showGroup("doubler", !!S.value("doubling"));
    if (bid === null || tops === null) return;
    const pn = Number(bid) + Number(tops);
    const passed = pn <= PASSED_OUT_PN;
    document.querySelectorAll(".contract-part").forEach((g) => {
      g.hidden = passed || (g.id === "group-doubler" && !S.value("doubling"));
    });
    let text = `pn = ${bid} + ${tops} = ${pn} → `;
    if (passed) {
      text += "passed out: no contract, no tricks.";
    } else if (strain) {
      const level = strain === "NT" ? pn - 4 : pn - 3;
      text += `${level}${strain === "NT" ? "NT" : strain} needs ${level + 6} tricks`;
      if (pn > 10) text += " (cannot be doubled)";
    } else {
      text += `${pn - 4}NT or ${pn - 3} of a suit`;
    }
    line.textContent = text;
  };
  document.addEventListener("DOMContentLoaded", () => S.onChange(update));
})();
