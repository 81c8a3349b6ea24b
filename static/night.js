// Scorekeeper: the night's report's "Copy for the group chat" (templates/night/
// report.html). The text is in a visible, read-only <textarea>, so without this
// file it can still be selected and copied by hand.
// - navigator.clipboard where the page is a secure context (https, localhost);
// - on plain http across the LAN there is none: select the textarea and
//   document.execCommand("copy"), which browsers still honour on a tap;
// - if that fails too, the text stays selected and the page says to press and
//   hold it (the phone's own Copy).
// The system share sheet (navigator.share) is offered where the browser has one.
// The words said are the page's own (data attributes, in the reader's language).
"use strict";

(function () {
  const text = document.getElementById("night-text");
  const actions = document.getElementById("night-actions");
  const copy = document.getElementById("night-copy");
  const share = document.getElementById("night-share");
  const status = document.getElementById("night-copy-status");
  if (!text || !actions || !copy || !status) return;
  const words = actions.dataset;

  function say(message) {
    status.textContent = message;
  }

  function selectAll() {
    text.focus();
    text.select();
    text.setSelectionRange(0, text.value.length); // iOS selects nothing otherwise
  }

  function copyBySelection() {
    selectAll();
    let copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    if (copied) {
      say(words.copied);
    } else {
      selectAll(); // left selected: the phone's own Copy takes it
      say(words.hold);
    }
  }

  copy.addEventListener("click", () => {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text.value).then(() => say(words.copied), copyBySelection);
    } else {
      copyBySelection();
    }
  });

  if (share && typeof navigator.share === "function") {
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share({ title: words.title, text: text.value }).then(
        () => say(words.shared),
        () => {} // closed without sharing: nothing to say
      );
    });
  }
})();
