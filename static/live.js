// Scorekeeper: the live table. A page that shows a match asks every two seconds
// whether it changed (a 304 when not: one indexed query on the server). A sheet
// then redraws itself; an open hand form says what another phone saved before
// anyone taps Save. Without this file everything still works by reloading.
"use strict";

(function () {
  const body = document.body;
  const url = body.dataset.liveUrl;
  if (!url || !window.fetch) return;
  let revision = Number(body.dataset.revision);
  const kind = body.dataset.liveKind;
  const every = 2000;
  let busy = false;

  function note(lines) {
    const box = document.getElementById("live-note");
    if (!box) return;
    box.replaceChildren();
    const head = document.createElement("strong");
    head.textContent = "The match changed while this form was open:";
    const list = document.createElement("ul");
    lines.forEach((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    const tail = document.createElement("p");
    tail.textContent = "Saving this form now will store nothing; it will show your entries again on the match as it is now.";
    box.append(head, list, tail);
    box.hidden = false;
  }

  async function redraw() {
    // Fetch this page again and swap the live part, keeping open explanations.
    const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return false;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const next = fresh.getElementById("live-region");
    const here = document.getElementById("live-region");
    if (!next || !here) return false;
    const open = [...here.querySelectorAll("details[open]")].map((d) => d.id).filter(Boolean);
    here.replaceWith(next);
    open.forEach((id) => { const d = document.getElementById(id); if (d) d.open = true; });
    body.dataset.revision = fresh.body.dataset.revision;
    document.dispatchEvent(new CustomEvent("scorekeeper:redrawn"));
    return true;
  }

  async function poll() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) return;
      const state = await response.json();
      if (state.revision === revision) return;
      if (kind === "sheet") {
        if (await redraw()) revision = state.revision;
      } else {
        // A form keeps its revision (the server refuses a stale save); it only warns.
        if (state.changes.length) note(state.changes);
        body.dataset.liveSeen = String(state.revision);
      }
    } catch (error) {
      // Off the Wi-Fi for a moment: try again at the next tick.
    } finally {
      busy = false;
    }
  }

  setInterval(poll, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) poll(); });
})();
