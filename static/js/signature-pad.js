/* A signature pad: draw with finger, stylus or mouse; the drawing goes with the form as a PNG. */
(function () {
  function init(root) {
    root.querySelectorAll("canvas.signature-pad").forEach(function (canvas) {
      if (canvas.dataset.ready) return;
      canvas.dataset.ready = "1";
      var ctx = canvas.getContext("2d");
      ctx.lineWidth = 2.5; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.strokeStyle = "#111";
      var drawing = false, drawn = false;
      function at(e) {
        var r = canvas.getBoundingClientRect();
        return [(e.clientX - r.left) * canvas.width / r.width, (e.clientY - r.top) * canvas.height / r.height];
      }
      canvas.addEventListener("pointerdown", function (e) {
        drawing = true; canvas.setPointerCapture(e.pointerId);
        var p = at(e); ctx.beginPath(); ctx.moveTo(p[0], p[1]);
      });
      canvas.addEventListener("pointermove", function (e) {
        if (!drawing) return;
        var p = at(e); ctx.lineTo(p[0], p[1]); ctx.stroke(); drawn = true;
      });
      ["pointerup", "pointercancel"].forEach(function (name) {
        canvas.addEventListener(name, function () { drawing = false; });
      });
      var form = canvas.closest("form");
      form.addEventListener("submit", function () {
        form.querySelector("input[name=image]").value = drawn ? canvas.toDataURL("image/png") : "";
      });
      var clear = form.querySelector("button.clear");
      if (clear) clear.addEventListener("click", function () {
        ctx.clearRect(0, 0, canvas.width, canvas.height); drawn = false;
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSettle", function (e) { init(e.target); });
})();
