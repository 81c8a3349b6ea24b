// Scorekeeper: the screen stays on while a match page or a hand form is open,
// so the phone lying on the table between two hands does not lock itself.
// Where the browser offers the Screen Wake Lock API (https, or this machine's
// own address) the page asks it for a screen lock, and again each time the page
// is shown (the browser lets go when the tab is hidden). Over plain http on the
// local network browsers do not offer it; there the page plays a tiny black,
// silent video in a loop, which phones take as "something is being watched":
// muted and inline, started by the first tap (browsers only play after one),
// started again when the page is shown. The footer's switch turns both off,
// remembered on this phone. Without this file the phone sleeps as usual.
// When save.js shows an answer in place (a saved hand answers with the next
// hand's form), the lock or the video held goes on: the new footer's switch is
// set up, nothing is asked again, and the video moves into the new page.
"use strict";

(() => {
  const KEY = "scorekeeper-keep-awake";
  let toggle = null; // the switch of the page shown now (none: a page that lets the screen sleep)
  let state = null;
  // Safari keeps the screen on only for a video it could hear (not muted, with
  // sound: ours is silence) that is not set to loop; Chrome and Firefox take a
  // muted looping one. "GestureEvent" exists in Safari only.
  const safari = "GestureEvent" in window;
  let api = "wakeLock" in navigator;
  let sentinel = null; // the wake lock while it is held
  let video = null;
  let asking = false; // a request or a play() on its way: one at a time

  const say = (key) => { if (state) state.textContent = window.Scorekeeper.word(key); }; // the page's words
  const wanted = () => toggle !== null && toggle.checked && !document.hidden;
  const holding = () => sentinel !== null || (video !== null && !video.paused);

  function remembered() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true; // storage switched off: on, and nothing remembered
    }
  }

  function remember(on) {
    try {
      if (on) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, "off");
    } catch {
      // Only this page follows the choice.
    }
  }

  async function request(tapped) {
    try {
      const lock = await navigator.wakeLock.request("screen");
      if (!wanted()) {
        lock.release();
        return true;
      }
      sentinel = lock;
      lock.addEventListener("release", () => {
        if (sentinel === lock) sentinel = null;
      });
      say("screen_active");
      return true;
    } catch {
      // Refused (battery saver, a policy, or Safari asked outside a tap): after a
      // refusal during a tap, the video is the other way.
      if (tapped) api = false;
      return false;
    }
  }

  function makeVideo() {
    video = document.createElement("video");
    video.className = "keep-awake-video";
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("playsinline", "");
    video.setAttribute("disablepictureinpicture", "");
    video.setAttribute("disableremoteplayback", "");
    video.playsInline = true;
    if (safari) {
      video.addEventListener("ended", () => {
        video.currentTime = 0;
        video.play().catch(() => {});
      });
    } else {
      video.muted = true;
      video.setAttribute("muted", "");
      video.loop = true;
    }
    for (const [name, type] of [["mp4", "video/mp4"], ["webm", "video/webm"]]) {
      const source = document.createElement("source");
      source.src = toggle.dataset[name];
      source.type = type;
      video.append(source);
    }
    document.body.append(video);
  }

  async function playVideo() {
    if (!video) makeVideo();
    try {
      await video.play();
      if (!wanted()) video.pause();
      else say("screen_active");
    } catch {
      say("screen_next_tap");
    }
  }

  async function take(tapped) {
    if (!wanted() || holding() || asking) return;
    asking = true;
    try {
      if (api) {
        if (await request(tapped)) return;
        if (api) return say("screen_next_tap");
      }
      // A video plays only after a tap on this page; once one played, it may again.
      if (tapped || video) await playVideo();
      else say("screen_first_tap");
    } finally {
      asking = false;
    }
  }

  function letGo() {
    if (sentinel) sentinel.release();
    sentinel = null;
    if (video) video.pause();
  }

  function switched() {
    remember(toggle.checked);
    if (toggle.checked) take(true);
    else {
      letGo();
      say("screen_off");
    }
  }

  // The footer's switch of the page shown: on load, and again when save.js has
  // shown an answer in place (a new footer, the lock and the video still held).
  function setUp() {
    const found = document.getElementById("keep-awake");
    if (found === toggle) return;
    toggle = found;
    state = document.getElementById("keep-awake-state");
    if (video && video.parentNode !== document.body) {
      // Put back before the browser pauses a video taken out of the page (it
      // waits for the end of this task): no gap, no second video.
      document.body.append(video);
    }
    if (!toggle) return letGo(); // a page that does not keep the screen on
    toggle.checked = remembered();
    toggle.closest(".keep-awake").hidden = false;
    toggle.addEventListener("change", switched);
    if (!toggle.checked) {
      letGo();
      say("screen_off");
    } else if (holding()) say("screen_active");
    else take(false);
  }

  // Any tap or key on the page is the gesture a video (or Safari's lock) waits for.
  const tapped = () => { if (!holding()) take(true); };
  document.addEventListener("click", tapped, true);
  document.addEventListener("keydown", tapped, true);
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      if (video) video.pause(); // the browser lets go of the wake lock by itself
    } else {
      take(false);
    }
  });
  window.addEventListener("pagehide", letGo);
  window.addEventListener("pageshow", (event) => { if (event.persisted) take(false); });
  document.addEventListener("scorekeeper:swapped", setUp);
  setUp();
})();
