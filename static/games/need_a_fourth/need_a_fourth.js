// Need a Fourth? hand form: the Declarer as soon as Chooser and Partner are known,
// the auction one call at a time (liar rule), and the structured bids to check.
// The server works without this file: the auction can be typed and it lists the bids.
"use strict";
(function () {
  const S = window.Scorekeeper;
  const STRAINS = ["C", "D", "H", "S", "NT"];
  const RED = ["D", "H"];
  let data = null;
  let calls = [];
  let buttonMode = false;
  let listKey = null;
  let typedInput = null;
  let defaultLine = "";

  const $ = (id) => document.getElementById(id);
  const radio = (name, value) =>
    document.querySelector(`#hand-form input[name="${name}"][value="${value}"]`);
  const setRadio = (name, value) => {
    document.querySelectorAll(`#hand-form input[name="${name}"]`).forEach((input) => {
      input.checked = value !== null && input.value === String(value);
    });
  };

  const parseBid = (call) => {
    const m = /^([1-7])(C|D|H|S|NT)$/.exec(call);
    if (!m) return null;
    const level = Number(m[1]);
    return { level, strain: m[2], rank: (level - 1) * STRAINS.length + STRAINS.indexOf(m[2]) };
  };
  const bidText = (call) => {
    const bid = parseBid(call);
    return bid ? `${bid.level}${data.symbols[bid.strain]}` : call;
  };
  const who = (i) => data.bidders[i % data.bidders.length];
  const fromText = (text) =>
    (text || "").trim().toUpperCase().split(/[\s,]+/).filter(Boolean)
      .map((t) => (t === "PASS" || t === "-" ? "P" : t));

  // Where an auction stands: the last bid, its bidder, and whether it is over.
  function standing(list) {
    let last = null, bidder = null, call = null, passes = 0;
    list.forEach((c, i) => {
      if (c === "P") { passes += 1; return; }
      last = parseBid(c); bidder = who(i); call = c; passes = 0;
    });
    const ended = last ? passes >= 2 : passes >= 3;
    return { last, bidder, call, ended, passedOut: ended && !last };
  }

  // Every call a pass or a bid above the last one, and nothing after the end.
  function legal(list) {
    for (let i = 0; i < list.length; i += 1) {
      const before = standing(list.slice(0, i));
      if (before.ended) return false;
      if (list[i] === "P") continue;
      const bid = parseBid(list[i]);
      if (!bid || (before.last && bid.rank <= before.last.rank)) return false;
    }
    return true;
  }

  // The same reading as structured_bids() in the rules: first calls, and raises
  // at the raiser's first call after another player's structured 1-bid.
  function structuredBids(list) {
    const found = [], called = new Set(), oneBids = {};
    list.forEach((c, index) => {
      const bidder = who(index);
      const bid = c === "P" ? null : parseBid(c);
      let entry = null;
      if (bid) {
        const req = data.requirements[c];
        const one = oneBids[bid.strain];
        const first = req && req.kind === "first call" && !called.has(bidder);
        const raise = req && req.kind !== "first call" && one && one.structured &&
          one.bidder !== bidder && !one.since.has(bidder);
        if (first || raise) entry = { index, bidder, bid: bidText(c), ...req };
      }
      if (entry) found.push(entry);
      Object.values(oneBids).forEach((one) => one.since.add(bidder));
      if (bid && bid.level === 1 && bid.strain !== "NT") {
        oneBids[bid.strain] = { bidder, structured: entry !== null, since: new Set() };
      }
      called.add(bidder);
    });
    return found;
  }

  // --- the auction buttons -------------------------------------------------
  function buildButtons() {
    const grid = $("bid-grid");
    for (let level = 1; level <= 7; level += 1) {
      STRAINS.forEach((strain) => {
        const call = `${level}${strain}`;
        const b = document.createElement("button");
        b.type = "button";
        b.className = "button" + (RED.includes(strain) ? " red" : "");
        b.dataset.call = call;
        b.id = `call-${call}`;
        b.textContent = `${level}${data.symbols[strain]}`;
        grid.appendChild(b);
      });
    }
    $("auction-ui").addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.dataset.call) calls.push(button.dataset.call);
      else if (button.id === "call-all-pass") {
        while (!standing(calls).ended) calls.push("P");
      } else if (button.id === "call-undo") calls.pop();
      afterAuction();
    });
  }

  function drawAuction() {
    const state = standing(calls);
    const body = $("auction-table").tBodies[0];
    body.innerHTML = "";
    const cells = calls.map((c) => (c === "P" ? "P" : bidText(c)));
    if (!state.ended) cells.push("?");
    for (let i = 0; i < Math.max(cells.length, 1); i += data.bidders.length) {
      const tr = body.insertRow();
      for (let j = i; j < i + data.bidders.length; j += 1) {
        const td = tr.insertCell();
        td.textContent = cells[j] || "";
        if (j === calls.length && !state.ended) td.className = "next";
        if (cells[j] && /[♥♦]/.test(cells[j])) td.classList.add("red");
      }
    }
    let status;
    if (state.passedOut) status = "All three passed: the hand is passed out. Save it.";
    else if (state.ended) status = `${state.bidder} made the last bid, ${bidText(state.call)}: ${state.bidder} is the Chooser.`;
    else status = `${who(calls.length)} to call.`;
    $("auction-status").textContent = status;
    document.querySelectorAll("#bid-grid button").forEach((b) => {
      const bid = parseBid(b.dataset.call);
      b.hidden = state.ended || (state.last !== null && bid.rank <= state.last.rank);
    });
    $("call-P").hidden = $("call-all-pass").hidden = state.ended;
    $("call-undo").disabled = calls.length === 0;
  }

  function afterAuction() {
    typedInput.value = calls.join(" ");
    const state = standing(calls);
    const derived = calls.length > 0;
    ["chooser", "level", "strain"].forEach((name) => S.showGroup(name, !derived));
    if (derived) {
      setRadio("chooser", state.ended && state.last ? state.bidder : null);
      setRadio("level", state.ended && state.last ? state.last.level : null);
      setRadio("strain", state.ended && state.last ? state.last.strain : null);
    }
    const passedOut = state.passedOut;
    ["partner", "tricks"].forEach((name) => S.showGroup(name, !passedOut));
    $("doubled-panel").hidden = passedOut;
    if ($("liar-box")) $("liar-box").hidden = passedOut;
    if (passedOut) {
      ["partner", "tricks", "doubling", "redoubled_by"].forEach((name) => setRadio(name, null));
      document.querySelectorAll("#liar-box input").forEach((i) => { i.checked = false; });
    }
    drawAuction();
    update();
  }

  // --- the rest of the form ------------------------------------------------
  function drawStructured(chooser, partner) {
    const box = $("structured-list");
    const state = standing(calls);
    const key = `${calls.join(" ")}|${chooser}|${partner}`;
    if (key === listKey) return;
    listKey = key;
    $("group-liars").hidden = calls.length > 0;
    const ticked = new Set(
      [...box.querySelectorAll("input:checked")].map((i) => i.value));
    box.innerHTML = "";
    if (!calls.length) return;
    if (!state.ended || !state.last) {
      box.innerHTML = '<p class="muted">Finish the auction to see the structured bids.</p>';
      return;
    }
    const sides = partner ? [state.bidder, partner] : data.bidders;
    const found = structuredBids(calls).filter((s) => sides.includes(s.bidder));
    document.getElementById("bids_shown").value = calls.join(" ");
    if (!found.length) {
      box.innerHTML = '<p class="muted">No structured bid by the Chooser or the Partner in this auction: nobody can have lied.</p>';
      return;
    }
    found.forEach((s) => {
      const label = document.createElement("label");
      label.className = "check naf-bid";
      const input = document.createElement("input");
      input.type = "checkbox"; input.name = "not_met"; input.value = String(s.index);
      input.checked = ticked.has(input.value);
      const text = document.createElement("span");
      const name = document.createElement("strong");
      name.textContent = s.bidder;
      const kind = document.createElement("span");
      kind.className = "muted";
      kind.textContent = ` (${s.kind})`;
      const not = document.createElement("em");
      not.textContent = "not met";
      text.append(name, ` ${s.bid}`, kind, `: ${s.requirement} — `, not);
      label.append(input, text);
      box.appendChild(label);
    });
  }

  function update() {
    const chooser = S.value("chooser"), partner = S.value("partner");
    S.hideChoices("partner", chooser ? [chooser] : []);
    const declarer = chooser && partner && chooser !== partner
      ? data.bidders.find((p) => p !== chooser && p !== partner) : null;
    const line = $("declarer-line");
    if (declarer) {
      line.innerHTML = "";
      const strong = document.createElement("strong");
      strong.textContent = declarer;
      line.append(strong, " is the Declarer: plays alone with the dummy and scores 0.");
    } else if (chooser) {
      line.textContent = `${chooser} is the Chooser: tap the Partner.`;
    } else {
      line.textContent = defaultLine;
    }
    const doubling = S.value("doubling");
    S.showGroup("redoubled_by", doubling === "XX");
    S.hideChoices("redoubled_by", declarer ? [declarer] : []);

    const level = S.value("level"), strain = S.value("strain"), tricks = S.value("tricks");
    const contractLine = $("contract-line");
    contractLine.hidden = !(level && strain);
    if (level && strain) {
      const needed = Number(level) + 6;
      let text = `${level}${data.symbols[strain]}${doubling || ""} needs ${needed} tricks`;
      if (tricks !== null) {
        const diff = Number(tricks) - needed;
        text += diff >= 0 ? `: made${diff ? ` with ${diff} over` : ""}` : `: down ${-diff}`;
      }
      contractLine.textContent = text + ".";
    }
    if (data.liarRule && buttonMode) drawStructured(chooser, partner);
  }

  document.addEventListener("DOMContentLoaded", () => {
    data = window.Scorekeeper.facts();
    defaultLine = "The last bidder is the Chooser and picks a Partner; the third player is the Declarer.";
    typedInput = document.querySelector('#hand-form input[name="auction"]');
    if (data.liarRule && typedInput) {
      const initial = fromText(typedInput.value);
      if (legal(initial)) {
        buttonMode = true;
        calls = initial;
        $("auction-typed").hidden = true;
        $("auction-ui").hidden = false;
        buildButtons();
        S.onChange(update);
        afterAuction();
        return;
      }
    }
    S.onChange(update);
  });
})();
