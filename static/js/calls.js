/* The supervisor hears a new call for approval: a badge in the tab's title and a short tone. */
(function () {
  "use strict";
  var seen = null, title = document.title, audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 880; gain.gain.value = 0.15;
      tone.connect(gain); gain.connect(audio.destination);
      tone.start(); tone.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound allowed before the first tap: the badge still shows */ }
  }
  function check() {
    var box = document.querySelector(".calls[data-waiting]");
    if (!box) return;
    var waiting = parseInt(box.dataset.waiting, 10) || 0;
    document.title = (waiting ? "(" + waiting + ") " : "") + title;
    if (seen !== null && waiting > seen) { beep(); if (navigator.vibrate) navigator.vibrate(300); }
    seen = waiting;
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
  function hint(show) {
    var el = document.getElementById("sound-hint");
    if (el) el.hidden = !show;
  }
  document.addEventListener("click", function () {  // browsers allow sound after a tap
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { /* none */ }
    }
    if (audio && audio.resume) audio.resume();
    hint(false);
  }, { once: true });
  document.addEventListener("DOMContentLoaded", function () {
    // Where the browser allows sound at once (the page opened by a tap), no hint is needed.
    try {
      var probe = new (window.AudioContext || window.webkitAudioContext)();
      if (probe.state === "running") { audio = probe; hint(false); } else { probe.close(); }
    } catch (e) { hint(false); /* no sound at all here: nothing to tap for */ }
  });
})();
