// Scorekeeper: saving at a table with weak Wi-Fi. Without this file every form
// posts and follows its redirect as before.
//
// A form that changes a match is sent with fetch and its answer is shown in
// place: a saved hand answers with the next hand's form, so a save costs one
// request. A hand that gets no answer (offline, a timeout, a proxy's 502/503/504,
// the server restarting) stays on the screen and is kept in this phone's storage,
// then sent again, the same submission with its one-time key (the server stores
// it once): when the phone is back online, when the page is shown again, every
// few seconds with backoff, and whenever any page of the match opens.
"use strict";

(function () {
  if (!window.fetch || !window.FormData || !window.URLSearchParams || !window.DOMParser || !window.Scorekeeper) return;
  const { word, counted } = window.Scorekeeper; // the page's words (static/app.js)
  const HEADERS = { "X-Requested-With": "fetch" }; // views.sent_by_script
  const NO_ANSWER = [502, 503, 504]; // a proxy's, or the store busy for a moment
  const TIMEOUT_MS = 20000;
  const RETRY_MS = [2000, 4000, 8000, 15000, 30000];
  const PREFIX = "scorekeeper:waiting:";
  const matchOf = (path) => (path.match(/^\/m\/([A-Za-z0-9_-]{16})(\/|$)/) || [])[1] || null;
  // The match this page belongs to; an answer shown in place may be another's
  // (a match started from a group's page answers with its first hand form).
  let matchId = matchOf(location.pathname);
  const groupChange = (path) => /^\/g\/[A-Za-z0-9_-]{16}\//.test(path); // a group's forms: the answer in place

  // --- what waits on this phone, per match ---------------------------------------
  // In the phone's storage; in this page only when that cannot be written (full,
  // or switched off): the entries are still on the screen and sent from here.
  let memo = [];
  let stored = true;
  function waiting() {
    if (!matchId) return [];
    if (!stored) return memo;
    try {
      const list = JSON.parse(localStorage.getItem(PREFIX + matchId) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return memo;
    }
  }
  function store(list) {
    memo = list;
    try {
      if (list.length) localStorage.setItem(PREFIX + matchId, JSON.stringify(list));
      else localStorage.removeItem(PREFIX + matchId);
      stored = true;
    } catch (error) {
      stored = false;
    }
  }
  function keep(sub) { store([...waiting().filter((s) => s.key !== sub.key), sub]); }
  function forget(key) { store(waiting().filter((s) => s.key !== key)); }
  const onScreen = (sub) => [...document.querySelectorAll("form input[name=key]")].some((i) => i.value === sub.key);

  // --- sending ---------------------------------------------------------------------
  // The answer, or null when none came that is the app's word.
  async function post(action, fields) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      const response = await fetch(action, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: HEADERS,
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      });
      if (NO_ANSWER.includes(response.status)) return null;
      const text = await response.text(); // a connection cut mid-answer throws here
      return { response, text };
    } catch (error) {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  // A form kept from an earlier page load: its CSRF token is sent as this page's
  // (the same session's, or a new one if the phone lost its session cookie).
  function withThisPagesToken(fields) {
    const token = document.querySelector("input[name=csrf_token]");
    return token ? fields.map(([n, v]) => [n, n === "csrf_token" ? token.value : v]) : fields;
  }

  // --- showing an answer in place --------------------------------------------------
  function loaded(element) {
    return new Promise((resolve) => {
      element.addEventListener("load", resolve, { once: true });
      element.addEventListener("error", resolve, { once: true });
    });
  }

  async function show(answer) {
    const { response, text } = answer;
    news = null;
    if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) {
      location.assign(response.url);
      return;
    }
    const fresh = new DOMParser().parseFromString(text, "text/html");
    // Stylesheets and scripts the answer needs that this page has not loaded yet.
    const waits = [];
    const have = (sel, attr, value) => [...document.head.querySelectorAll(sel)].some((el) => el.getAttribute(attr) === value);
    fresh.head.querySelectorAll("link[rel=stylesheet]").forEach((link) => {
      if (have("link[rel=stylesheet]", "href", link.getAttribute("href"))) return;
      const added = document.createElement("link");
      added.rel = "stylesheet";
      added.href = link.getAttribute("href");
      waits.push(loaded(added));
      document.head.appendChild(added);
    });
    fresh.head.querySelectorAll("script[src]").forEach((script) => {
      if (have("script[src]", "src", script.getAttribute("src"))) return;
      const added = document.createElement("script");
      added.src = script.getAttribute("src");
      waits.push(loaded(added));
      document.head.appendChild(added);
    });
    await Promise.all(waits);
    document.title = fresh.title;
    const body = document.body;
    [...body.attributes].forEach((a) => body.removeAttribute(a.name));
    [...fresh.body.attributes].forEach((a) => body.setAttribute(a.name, a.value));
    body.replaceChildren(...fresh.body.childNodes);
    const url = new URL(response.url || location.href);
    window.scrollTo(0, 0);
    // Focus where a newly loaded page has it: nowhere in particular, its heading
    // for a screen reader (the scripts below may take it, e.g. the error summary).
    const heading = document.querySelector("main h1, h1.hand-title");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    history.replaceState(null, "", url.pathname + url.search + url.hash);
    if (matchOf(url.pathname) !== matchId) {
      matchId = matchOf(url.pathname);
      memo = []; // what waited in this page only was the other match's
    }
    if (url.hash) {
      const target = document.getElementById(decodeURIComponent(url.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
    // The page's scripts set themselves up again on the new content, on this
    // event (never a second DOMContentLoaded: a script would run on a page it does
    // not belong to). A game's script sets up only its own hand form (app.js).
    document.dispatchEvent(new CustomEvent("scorekeeper:swapped"));
    render();
  }

  // Did the answer store the change? (Its flash says so and offers an Undo.)
  const saved = (answer, fresh) => answer.response.status === 200 && fresh.querySelector(".flash-undo") && !fresh.getElementById("error-summary") && !fresh.getElementById("changed");

  // --- the hands waiting on this phone ----------------------------------------------
  let busy = false;
  let attempt = 0;
  let timer = null;
  let news = null; // "Hand 5 saved" after a waiting hand went from another page

  async function flush() {
    if (busy || !matchId) return;
    busy = true;
    clearTimeout(timer);
    try {
      for (let sub = waiting()[0]; sub; sub = waiting()[0]) {
        render(sub.key);
        const answer = await post(sub.action, withThisPagesToken(sub.fields));
        if (!answer) {
          timer = setTimeout(flush, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
          return;
        }
        attempt = 0;
        forget(sub.key); // the app answered: its page now holds what to show
        const fresh = new DOMParser().parseFromString(answer.text, "text/html");
        const here = location.pathname === new URL(sub.action, location.href).pathname;
        if (onScreen(sub) || here || !saved(answer, fresh)) {
          // The form it came from, or a refusal that shows the entries again.
          await show(answer);
        } else {
          const flash = fresh.querySelector(".flash-undo");
          news = word("was_waiting", { saved: flash.firstChild ? flash.firstChild.textContent.trim() : word("saved") });
        }
      }
    } finally {
      busy = false;
      render();
    }
  }

  function element(tag, attrs, text) {
    const el = document.createElement(tag);
    Object.entries(attrs).forEach(([k, v]) => el.setAttribute(k, v));
    if (text) el.textContent = text;
    return el;
  }

  // A hand on the screen kept unsent: what the page said of the save before it is
  // old news, and only "Not sent yet" holds. That is every part of the earlier
  // answer (data-answer): "Hand 4 saved." with its Undo (an Undo now would take back
  // a hand the waiting one follows), or a refusal: "Not saved" with what to fix, a
  // field's own message and its mark, "the match changed" or the two versions of a
  // deal (the player chose to save theirs again). The entries are left as typed:
  // the server answers them when they arrive. The running score the saved notice
  // carried is still the score: it goes where a form that no save answered shows
  // it, at the top of the rules box.
  function retireAnswer() {
    document.querySelectorAll("main [data-answer]").forEach((said) => {
      const score = said.querySelector("#score-line");
      const box = document.querySelector("main section.derived");
      if (score && box) {
        const line = element("p", { class: "score-line", id: "score-line" });
        line.append(...score.childNodes);
        score.remove();
        box.prepend(line);
      }
      const marked = said.parentElement && said.parentElement.closest(".has-error");
      if (marked) marked.classList.remove("has-error");
      said.remove();
    });
  }

  // Say what waits: on the form it came from, beside its Save button; on any
  // other page of the match, a line at the top with Send now and Discard.
  function render(sending) {
    document.querySelectorAll(".not-sent, #waiting").forEach((el) => el.remove());
    const list = waiting();
    list.forEach((sub) => {
      if (!onScreen(sub) || (sending === sub.key && attempt === 0)) return;
      retireAnswer();
      const form = [...document.querySelectorAll("form")].find((f) => f.querySelector(`input[name=key][value="${sub.key}"]`));
      const note = element("p", { class: "flash flash-error not-sent", role: "alert" }, word("not_sent"));
      const bar = form.querySelector(".save-bar");
      if (bar) bar.prepend(note);
      else form.after(note);
    });
    const away = list.filter((sub) => !onScreen(sub));
    const main = document.querySelector("main");
    if (!main || (!away.length && !news)) return;
    const box = element("div", { class: "flash flash-info waiting", id: "waiting", role: "status" });
    if (away.length) {
      const n = away.length;
      const line = element("p", {}, counted("hands_waiting", n, { hands: away.map((s) => s.label).join(", ") }));
      const send = element("button", { type: "button", class: "button small", id: "waiting-send" }, word("send_now"));
      const discard = element("button", { type: "button", class: "button small danger", id: "waiting-discard" }, word("discard"));
      send.addEventListener("click", () => { attempt = 0; flush(); });
      discard.addEventListener("click", () => {
        const question = n === 1 ? word("one_thrown_away", { hand: away[0].label }) : counted("thrown_away", n);
        if (window.confirm(question)) {
          away.forEach((s) => forget(s.key));
          render();
        }
      });
      const buttons = element("div", { class: "waiting-buttons" });
      buttons.append(send, discard);
      box.append(line, buttons);
    } else {
      box.append(element("p", {}, news));
    }
    main.prepend(box);
  }

  // --- the forms ---------------------------------------------------------------------
  function fieldsOf(form, submitter) {
    let data;
    try {
      data = new FormData(form, submitter);
    } catch (error) {
      data = new FormData(form);
      if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    }
    return [...data];
  }

  function say(form, text) {
    document.querySelectorAll(".no-answer").forEach((el) => el.remove());
    form.after(element("p", { class: "flash flash-error no-answer", role: "alert" }, text));
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (event.defaultPrevented || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    const action = new URL(form.getAttribute("action") || location.href, location.href);
    if (action.origin !== location.origin || !(matchOf(action.pathname) || groupChange(action.pathname)) || form.enctype === "multipart/form-data") return;
    event.preventDefault();
    if (form.dataset.sending) return; // a double tap: the first one is on its way
    const fields = fieldsOf(form, event.submitter);
    if (form.id === "hand-form" || form.id === "quick-form") {
      const heading = document.querySelector("main h1, h1.hand-title");
      keep({
        key: new Map(fields).get("key") || "",
        action: action.pathname + action.search,
        fields,
        label: heading ? heading.textContent.trim() : word("a_hand"),
        kept: Date.now(),
      });
      attempt = 0;
      form.dataset.sending = "1";
      try {
        await flush();
      } finally {
        delete form.dataset.sending;
      }
      return;
    }
    // "Same deal — keep theirs": the refused entries are thrown away here too, so
    // they are never sent again from this phone's storage.
    if (form.dataset.discard) forget(form.dataset.discard);
    // Delete, undo, stop here, restore, settings: the answer in place, or a plain word.
    form.dataset.sending = "1";
    const answer = await post(action.pathname + action.search, fields);
    delete form.dataset.sending;
    if (answer) await show(answer);
    else if (navigator.onLine === false) say(form, word("no_connection"));
    else say(form, word("no_answer"));
  });

  window.addEventListener("online", () => { attempt = 0; flush(); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) flush(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) flush(); });
  window.addEventListener("storage", (event) => { if (event.key === PREFIX + matchId) render(); });
  render();
  flush();
})();
