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
    // A hidden input keeps what it holds (the server reads only what the chosen
    // game shows), so going back to a game finds it as it was left.
    const games = (el) => el.dataset.variants.split(" ");
    form.querySelectorAll(".option").forEach((el) => {
      const on = games(el).includes(id);
      el.hidden = !on;
      el.querySelectorAll(".option-label").forEach((label) => { label.hidden = !games(label).includes(id); });
      any = any || on;
    });
    form.querySelectorAll(".option-games").forEach((el) => { el.hidden = true; });
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

// The page's words for its scripts: a hand form's own first, then the page's.
function wordsOf(key) {
  for (const id of ["form-words", "script-words"]) {
    const block = document.getElementById(id);
    if (!block) continue;
    const words = JSON.parse(block.textContent);
    if (key in words) return words[key];
  }
  return undefined;
}

// "%(name)s" (and "%(num)d") filled in from `values`; a name not given is left as is.
function fill(text, values) {
  return String(text).replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

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
  // The words a script shows come from the page, in the page's language (no
  // second catalog here): #script-words (templates/_script_words.html) and a hand
  // form's own #form-words. Each %(name)s is filled in from `values`.
  word(key, values = {}) {
    return fill(wordsOf(key) ?? key, values);
  },
  // A counted sentence: the page gives one for each plural category of its
  // language, the browser's Intl.PluralRules (the same CLDR rules) picks `count`'s.
  counted(key, count, values = {}) {
    const forms = wordsOf(key) || {};
    let kind = "other";
    try {
      kind = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    } catch (error) { /* no Intl: "other" */ }
    return fill(forms[kind] ?? forms.other ?? Object.values(forms)[0] ?? key, { num: count, ...values });
  },
  value(name) {
    const el = document.querySelector(`#hand-form input[name="${name}"]:checked`);
    return el ? el.value : null;
  },
  showGroup(name, on) {
    const group = document.getElementById(`group-${name}`);
    if (group) group.hidden = !on;
  },
  // A game's hand-form script (static/games/<family>/) sets itself up through
  // this: `setUp(form)` runs once for each hand form of that game a page shows,
  // when the page is ready and again when save.js has shown an answer in place.
  // A page without the game's form is left alone: the match page after the last
  // hand, another game's form, a page whose script came along in an earlier answer.
  handForm(family, setUp) {
    const done = new WeakSet();
    onReady(() => {
      const form = document.getElementById("hand-form");
      if (!form || form.dataset.game !== family || done.has(form)) return;
      done.add(form);
      setUp(form);
    });
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
  // Choices the rules refuse for what the form shows now, as the server said them
  // (value -> reason): disabled, the reason in words under the group, and unticked.
  refuse(name, refused) {
    const byReason = new Map();
    document.querySelectorAll(`#group-${name} input`).forEach((input) => {
      const reason = refused[input.value];
      input.disabled = !!reason;
      if (!reason) {
        input.removeAttribute("aria-disabled");
        input.removeAttribute("aria-describedby");
        return;
      }
      input.setAttribute("aria-disabled", "true");
      input.setAttribute("aria-describedby", `group-${name}-refused`);
      if (input.checked) input.checked = false;
      const label = document.querySelector(`label[for="${input.id}"]`);
      byReason.set(reason, [...(byReason.get(reason) || []), label ? label.textContent.trim() : input.value]);
    });
    const note = document.getElementById(`group-${name}-refused`);
    if (!note) return;
    note.textContent = [...byReason].map(([reason, labels]) => `${labels.join(", ")}: ${reason}`).join(" ");
    note.hidden = byReason.size === 0;
  },
  // A typed value the rules refuse, flagged under its box in the server's words
  // (an empty `flag` clears it): the note #<id>-flag, aria-invalid, described by it.
  flag(input, flag) {
    const note = document.getElementById(`${input.id}-flag`);
    if (note) {
      note.textContent = flag || "";
      note.hidden = !flag;
    }
    if (flag) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", `${input.id}-flag`);
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    }
  },
};

// Button groups whose refused choices depend on another group of the form: the
// page carries the server's table (data-refused-by), this only looks it up.
function setUpRefusals() {
  const form = document.getElementById("hand-form");
  if (!form) return;
  const S = window.Scorekeeper;
  const groups = [...form.querySelectorAll("fieldset[data-refused-by]")];
  if (!groups.length) return;
  const update = () => groups.forEach((group) => {
    const by = JSON.parse(group.dataset.refusedBy);
    const refused = {};
    const key = by.fields.map((name) => S.value(name) ?? "None").join("\t");
    (by.table[key] || []).forEach(([reason, values]) => {
      values.forEach((value) => { refused[value] = reason; });
    });
    if (by.hide) S.hideChoices(group.dataset.field, Object.keys(refused));
    else S.refuse(group.dataset.field, refused);
  });
  // Capture: the table is applied before any game script reads the groups.
  form.addEventListener("change", update, true);
  update();
}

// A refused form: start with the list of what to fix (it links to each field).
function setUpErrorSummary() {
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
}

onReady(() => { setUpNewMatch(); setUpSheet(); setUpErrorSummary(); setUpRefusals(); });
