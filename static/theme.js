// Night mode: Light or Dark as chosen on this browser, else Auto (the phone's own
// setting, read by app.css's media query). Loaded in <head> without `defer`, so the
// choice is on <html> before anything is painted: no white flash at night.
"use strict";
(() => {
  const KEY = "scorekeeper-theme";
  const root = document.documentElement;
  // Private browsing or storage switched off: Auto, and nothing remembered.
  const chosen = () => {
    try {
      return localStorage.getItem(KEY) || "auto";
    } catch {
      return "auto";
    }
  };
  const remember = (theme) => {
    try {
      if (theme === "auto") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, theme);
    } catch {
      // Only this page follows the choice.
    }
  };
  // The browser's bar follows the chosen colours too, not only the phone's setting:
  // both theme-color tags (one per scheme, in <head> above this script) get its colour.
  const bars = [...document.querySelectorAll('meta[name="theme-color"]')].map((meta) => ({
    meta,
    own: meta.getAttribute("content"),
    scheme: (meta.getAttribute("media") || "").includes("dark") ? "dark" : "light",
  }));
  const apply = (theme) => {
    const forced = theme === "light" || theme === "dark";
    if (forced) root.dataset.theme = theme;
    else delete root.dataset.theme;
    const bar = forced && bars.find((b) => b.scheme === theme);
    bars.forEach((b) => b.meta.setAttribute("content", bar ? bar.own : b.own));
    const select = document.getElementById("theme-choice");
    if (select) select.value = forced ? theme : "auto";
  };
  apply(chosen());

  // The picker in the page's header; again when save.js has shown an answer in place.
  const setUpPicker = () => {
    const select = document.getElementById("theme-choice");
    if (!select) return;
    select.value = root.dataset.theme || "auto";
    select.closest(".theme-pick").hidden = false;
    select.addEventListener("change", () => {
      remember(select.value);
      apply(select.value);
    });
  };
  document.addEventListener("DOMContentLoaded", setUpPicker);
  document.addEventListener("scorekeeper:swapped", setUpPicker);
  // Chosen in another tab, or this page came back from the back-forward cache.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) apply(chosen());
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) apply(chosen());
  });
})();
