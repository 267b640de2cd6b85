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
  document.addEventListener("click", function () {  // browsers allow sound after a tap
    if (!audio && (window.AudioContext || window.webkitAudioContext)) {
      try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { /* none */ }
    }
  }, { once: true });
})();
