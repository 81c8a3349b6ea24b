// Scorekeeper: the live table. A page that shows a match asks every two seconds
// whether it changed (a 304 when not: one indexed query on the server). A sheet
// then redraws itself; an open hand form says what another phone saved before
// anyone taps Save. Without this file everything still works by reloading.
// When the server does not answer (Wi-Fi gone, server stopped) the page asks less
// and less often (4 s, 8 s … 30 s, a little jitter so the phones of a table do
// not knock in step), says "Connection lost since 21:14" after ten seconds, and
// tries at once when the phone is back online or the page is shown again.
"use strict";

(function () {
  const body = document.body;
  if (!window.fetch || !window.Scorekeeper) return;
  const { word } = window.Scorekeeper; // the page's words (static/app.js)
  // The live address, kind and revision are read from the page on the screen:
  // save.js swaps a new page in (the next hand's form, the sheet) without a load.
  let revision = Number(body.dataset.revision);
  // A group page also follows its matches: a hand saved in one moves the ledger.
  let mark = body.dataset.liveMark || "";
  const every = 2000;
  const longest = 30000; // the slowest pace while the server is away
  const patience = 8000; // a poll (and the redraw it asks for) not answered by then has failed
  const lostAfter = 10000; // say so once the server has been away this long
  let wait = every;
  let busy = false;
  let timer = null;
  let failingSince = null; // when the first poll that got no answer was sent
  let lostTimer = null;

  function note(lines) {
    const box = document.getElementById("live-note");
    if (!box) return;
    box.replaceChildren();
    const head = document.createElement("strong");
    head.textContent = word("changed_head");
    const list = document.createElement("ul");
    lines.forEach((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    const tail = document.createElement("p");
    tail.textContent = word("changed_tail");
    box.append(head, list, tail);
    box.hidden = false;
  }

  async function redraw(signal) {
    // Fetch this page again and swap the live part, keeping open explanations.
    const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin", signal });
    if (!response.ok) return false;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const next = fresh.getElementById("live-region");
    const here = document.getElementById("live-region");
    if (!next || !here) return false;
    const open = [...here.querySelectorAll("details[open]")].map((d) => d.id).filter(Boolean);
    here.replaceWith(next);
    open.forEach((id) => { const d = document.getElementById(id); if (d) d.open = true; });
    body.dataset.revision = fresh.body.dataset.revision;
    body.dataset.liveMark = fresh.body.dataset.liveMark || "";
    document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
    return true;
  }

  function lostLine(since) {
    let line = document.getElementById("connection-lost");
    if (since === null) {
      if (line) line.hidden = true;
      return;
    }
    if (!line) {
      line = document.createElement("p");
      line.id = "connection-lost";
      line.className = "flash flash-error connection-lost";
      line.setAttribute("role", "status");
      document.querySelector("main").prepend(line);
    }
    // The page's language, on a 24-hour clock as every page writes the time.
    const lang = document.documentElement.lang || "en";
    const time = new Date(since).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    line.textContent = word("connection_lost", { time });
    line.hidden = false;
  }

  function failed(sent) {
    if (failingSince === null) {
      failingSince = sent;
      lostTimer = setTimeout(() => lostLine(failingSince), Math.max(0, sent + lostAfter - Date.now()));
    }
    wait = Math.min(wait * 2, longest);
  }

  function answered() {
    wait = every;
    if (failingSince === null) return;
    failingSince = null;
    clearTimeout(lostTimer);
    lostLine(null);
  }

  function schedule() {
    clearTimeout(timer);
    // Jitter only while failing: many phones then do not all retry at once.
    const delay = wait === every ? every : wait * (0.85 + Math.random() * 0.3);
    timer = setTimeout(poll, delay);
  }

  async function poll() {
    if (busy) return;
    clearTimeout(timer);
    if (document.hidden) return; // visibilitychange starts again
    const url = body.dataset.liveUrl;
    const kind = body.dataset.liveKind;
    if (!url) return; // a page without a match; a swap starts again
    busy = true;
    const sent = Date.now();
    const giveUp = new AbortController();
    const watchdog = setTimeout(() => giveUp.abort(), patience);
    try {
      const response = await fetch(url, { cache: "no-cache", credentials: "same-origin", signal: giveUp.signal });
      // A proxy's 502/503/504 or a server starting up: not an answer from the match.
      if (response.status >= 500) return failed(sent);
      answered();
      if (!response.ok) return;
      const state = await response.json();
      if (state.revision === revision && (state.mark || "") === mark) return;
      if (kind === "sheet") {
        if (await redraw(giveUp.signal)) {
          revision = state.revision;
          mark = body.dataset.liveMark;
        }
      } else {
        // A form keeps its revision (the server refuses a stale save); it only warns.
        if (state.changes.length) note(state.changes);
        body.dataset.liveSeen = String(state.revision);
      }
    } catch (error) {
      failed(sent); // off the Wi-Fi, the server stopped, or no answer in time
    } finally {
      clearTimeout(watchdog);
      busy = false;
      if (!document.hidden) schedule();
    }
  }

  if (body.dataset.liveUrl) schedule();
  document.addEventListener("scorekeeper:swapped", () => {
    revision = Number(body.dataset.revision);
    mark = body.dataset.liveMark || "";
    if (body.dataset.liveUrl && !busy) schedule();
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  window.addEventListener("online", () => poll());
  window.addEventListener("pageshow", (event) => { if (event.persisted) poll(); });
})();
