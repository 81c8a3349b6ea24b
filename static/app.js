// Scorekeeper: small progressive enhancements. Every page works without this file.
"use strict";

// Run `fn` when the page is ready, and again when save.js has shown an answer in
// place of the page (the content is new, so is everything `fn` set up on it).
function onReady(fn) {
  if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn, { once: true });
  document.addEventListener("scorekeeper:swapped", fn);
}

// Start a match: show only the chosen game's options and as many player fields as it takes.
function setUpNewMatch() {
  const form = document.getElementById("new-match");
  if (!form) return;
  const update = () => {
    const chosen = form.querySelector("input[name=variant]:checked");
    const id = chosen ? chosen.value : null;
    let any = false;
    form.querySelectorAll(".option").forEach((el) => {
      const on = el.dataset.variant === id;
      el.hidden = !on;
      el.querySelectorAll("input").forEach((i) => { i.disabled = !on; });
      any = any || on;
    });
    form.querySelector(".no-options").hidden = any;
    const counts = chosen ? chosen.dataset.players.split(",").map(Number) : [5];
    const most = Math.max(...counts);
    form.querySelectorAll(".player-field").forEach((el, i) => { el.hidden = i >= most; });
  };
  form.addEventListener("change", update);
  update();
  // A stake is usually per 100 points in the games scored in hundreds: choosing a
  // game sets "per" to its usual value until the player types one.
  const per = form.querySelector("input[name=stake_per]");
  if (per) {
    per.addEventListener("input", () => { per.dataset.typed = "1"; });
    form.querySelectorAll("input[name=variant]").forEach((radio) => {
      radio.addEventListener("change", () => {
        if (!per.dataset.typed && radio.checked) per.value = radio.dataset.stakePer;
      });
    });
  }
}

// Tapping a hand number on the sheet opens its explanation.
function setUpSheet() {
  const open = () => {
    const target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.tagName === "DETAILS") target.open = true;
  };
  open();
}
window.addEventListener("hashchange", setUpSheet);

// Hand forms: a helper for variant scripts.
window.Scorekeeper = {
  // How a strain is written on the sheet (variants/common.py STRAIN_SYMBOL).
  SYMBOL: { C: "♣", D: "♦", H: "♥", S: "♠", NT: "NT" },
  // What the rules say that a hand form's script needs, computed by the server
  // (every variant passes them the same way: the #rules-facts JSON block).
  facts() {
    const block = document.getElementById("rules-facts");
    return block ? JSON.parse(block.textContent) : {};
  },
  value(name) {
    const el = document.querySelector(`#hand-form input[name="${name}"]:checked`);
    return el ? el.value : null;
  },
  showGroup(name, on) {
    const group = document.getElementById(`group-${name}`);
    if (group) group.hidden = !on;
  },
  onChange(fn) {
    const form = document.getElementById("hand-form");
    if (!form) return;
    form.addEventListener("change", fn);
    fn();
  },
  // Hide the buttons of a group whose value is in `hidden` (e.g. the declarer as doubler).
  hideChoices(name, hidden) {
    document.querySelectorAll(`#group-${name} input`).forEach((input) => {
      const off = hidden.includes(input.value);
      input.disabled = off;
      input.hidden = off; // with its label: no unlabelled radio left for a screen reader
      const label = document.querySelector(`label[for="${input.id}"]`);
      if (label) label.hidden = off;
      if (off && input.checked) input.checked = false;
    });
  },
};

// A refused form: start with the list of what to fix (it links to each field).
function setUpErrorSummary() {
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
}

onReady(() => { setUpNewMatch(); setUpSheet(); setUpErrorSummary(); });
