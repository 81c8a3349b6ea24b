// Need a Fourth? hand form: the Declarer as soon as Chooser and Partner are known,
// the auction one call at a time (liar rule), and the structured bids to check.
// The rules stay on the server: the bid buttons come with their rank, the facts
// say when an auction ends, and the structured bids are asked of the hand's
// preview address. The server works without this file: the auction can be typed
// and it lists the bids.
"use strict";
(function () {
  const S = window.Scorekeeper;
  let data = null;
  let bids = {}; // call -> its level, strain and rank, read off the server's buttons
  let calls = [];
  let buttonMode = false;
  let listKey = null;
  let asking = null; // the preview request on its way, if any
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

  const parseBid = (call) => bids[call] || null;
  const bidText = (call) => {
    const bid = parseBid(call);
    return bid ? bid.label : call;
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
    const ended = last ? passes >= data.passesToEnd : passes >= data.passesWithoutBid;
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

  // --- the auction buttons -------------------------------------------------
  function readButtons() {
    document.querySelectorAll("#bid-grid button").forEach((b) => {
      bids[b.dataset.call] = {
        level: b.dataset.level, strain: b.dataset.strain, rank: Number(b.dataset.rank),
        label: b.textContent,
      };
    });
  }

  function listenToButtons() {
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
    if (state.passedOut) status = S.word("passed_out");
    else if (state.ended) status = S.word("last_bid", { bidder: state.bidder, bid: bidText(state.call) });
    else status = S.word("to_call", { player: who(calls.length) });
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
  // The structured bids come from the hand's preview: the server lists them for
  // the auction so far and the Partner (ticks sent along are kept).
  function drawStructured(partner) {
    const box = $("structured-list");
    const key = `${calls.join(" ")}|${partner}`;
    if (key === listKey) return;
    listKey = key;
    $("group-liars").hidden = calls.length > 0;
    $("bids_shown").value = "";
    const form = $("hand-form");
    const url = new URL(form.dataset.preview, location.href);
    new FormData(form).forEach((value, name) => {
      if (name !== "csrf_token" && name !== "key") url.searchParams.append(name, value);
    });
    // A list for another auction must not be sent: its ticks would name other bids.
    if (box.querySelector("input")) box.innerHTML = "";
    if (asking) asking.abort(); // only the newest answer is shown
    asking = null;
    if (!calls.length) { box.innerHTML = ""; return; }
    asking = new AbortController();
    fetch(url, { signal: asking.signal, headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => {
        if (!answer) return;
        box.innerHTML = answer.live; // our own template, escaped by the server
        if (answer.derived.shown !== null) $("bids_shown").value = answer.derived.shown;
      })
      .catch(() => {}); // offline or superseded: on Save the server lists them once
  }

  function update() {
    // The Chooser is left out of the Partners by app.js, from the server's table.
    const chooser = S.value("chooser"), partner = S.value("partner");
    const declarer = chooser && partner && chooser !== partner
      ? data.bidders.find((p) => p !== chooser && p !== partner) : null;
    const line = $("declarer-line");
    if (declarer) {
      // The page's sentence with the name in bold, wherever the language puts it.
      const [before, after] = S.word("declarer").split("%(declarer)s");
      const strong = document.createElement("strong");
      strong.textContent = declarer;
      line.replaceChildren(before, strong, after ?? "");
    } else if (chooser) {
      line.textContent = S.word("chooser", { chooser });
    } else {
      line.textContent = defaultLine;
    }
    const doubling = S.value("doubling");
    S.showGroup("redoubled_by", doubling === "XX");
    // The Declarer is left out of the redoublers by app.js, from the server's table.

    const level = S.value("level"), strain = S.value("strain"), tricks = S.value("tricks");
    const contractLine = $("contract-line");
    contractLine.hidden = !(level && strain);
    if (level && strain) {
      const needed = data.needed[level];
      const words = { contract: `${level}${data.symbols[strain]}${doubling || ""}`, tricks: needed };
      let key = "needs";
      if (tricks !== null) {
        const diff = Number(tricks) - needed;
        key = diff > 0 ? "made_over" : diff === 0 ? "made" : "down";
        Object.assign(words, { over: diff, down: -diff });
      }
      contractLine.textContent = S.word(key, words);
    }
    if (data.liarRule && buttonMode) drawStructured(partner);
  }

  S.handForm("need_a_fourth", (form) => {
    // Set up again when save.js swaps in the next form: an answer still on its
    // way was for the form that went, and the auction is the new form's.
    if (asking) asking.abort();
    asking = null;
    listKey = null;
    buttonMode = false;
    calls = [];
    data = window.Scorekeeper.facts();
    defaultLine = S.word("who_declares");
    typedInput = form.querySelector('input[name="auction"]');
    if (data.liarRule && typedInput) {
      const initial = fromText(typedInput.value);
      readButtons();
      if (legal(initial)) {
        buttonMode = true;
        calls = initial;
        // What the page was drawn with is already the server's list: ask only after a change.
        listKey = `${calls.join(" ")}|${S.value("partner")}`;
        $("auction-typed").hidden = true;
        $("auction-ui").hidden = false;
        listenToButtons();
        S.onChange(update);
        afterAuction();
        return;
      }
    }
    S.onChange(update);
  });
})();
