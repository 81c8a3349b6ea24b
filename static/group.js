// Scorekeeper: a match started from a group's page takes the group's stake for
// the game chosen (its own, else the one for every game), until a stake is typed.
// Without this file the form still works: the stake is then typed by hand.
"use strict";

(function () {
  const form = document.getElementById("new-match");
  if (!form || !form.dataset.groupStakes) return;
  const stakes = JSON.parse(form.dataset.groupStakes);
  const inputs = ["amount", "per", "currency"].map((name) => form.querySelector(`input[name=stake_${name}]`));
  let typed = false;
  inputs.forEach((input) => input && input.addEventListener("input", () => { typed = true; }));
  form.querySelectorAll("input[name=variant]").forEach((radio) => {
    radio.addEventListener("change", () => {
      if (typed || !radio.checked) return;
      // No stake for this game: none filled in ("per" as app.js sets it).
      const stake = stakes[radio.value] || stakes["*"] || { amount: "", per: radio.dataset.stakePer, currency: "" };
      inputs[0].value = stake.amount;
      inputs[1].value = String(stake.per || 1);
      inputs[2].value = stake.currency || "";
    });
  });
})();
