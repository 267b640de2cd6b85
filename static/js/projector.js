/* The projector pages through the standings by itself: as many rows as the screen holds, measured
   in the browser (the hall's projector may be 1024×768 or 1920×1080), every row on exactly one
   page. After the last page the standings are fetched afresh; if the hall's network fails, the
   last standings stay up with their time. Arrow keys, Page Up/Down and Space page by hand. */
(function () {
  "use strict";
  var body = document.body;
  var seconds = Number(body.dataset.seconds) || 15;
  var label = body.dataset.pageLabel || "{page} / {pages}";
  var pages = [];
  var current = 0;
  var timer = null;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("tbody tr"));
  }

  /* Split the rows into pages that fit between the table head and the bottom of the window. */
  function layout() {
    var all = rows();
    all.forEach(function (row) { row.hidden = false; });
    var tbody = document.querySelector("tbody");
    var padding = parseFloat(window.getComputedStyle(body).paddingBottom) || 0;
    var room = window.innerHeight - padding - tbody.getBoundingClientRect().top;
    pages = [];
    var page = [];
    var top = null;
    all.forEach(function (row) {
      var box = row.getBoundingClientRect();
      if (top === null) top = box.top;
      if (page.length && box.bottom - top > room) {
        pages.push(page);
        page = [];
        top = box.top;
      }
      page.push(row);
    });
    if (page.length || !pages.length) pages.push(page);
    show(Math.min(current, pages.length - 1));
  }

  function show(index) {
    current = index;
    pages.forEach(function (page, number) {
      page.forEach(function (row) { row.hidden = number !== index; });
    });
    var where = document.getElementById("page-label");
    if (where) where.textContent = label.replace("{page}", index + 1).replace("{pages}", pages.length);
    document.documentElement.dataset.page = String(index + 1);
    document.documentElement.dataset.pages = String(pages.length);
  }

  /* The standings afresh, without a reload (no flicker on the wall). */
  function refresh() {
    return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (text) {
        var fresh = new DOMParser().parseFromString(text, "text/html");
        var tbody = fresh.querySelector("tbody");
        var stand = fresh.querySelector("[data-stand]");
        if (tbody) document.querySelector("tbody").replaceWith(tbody);
        if (stand) document.querySelector("[data-stand]").replaceWith(stand);
        body.classList.remove("stale");
      })
      .catch(function () { body.classList.add("stale"); })
      .then(function () { layout(); });
  }

  function next() {
    if (current + 1 < pages.length) {
      show(current + 1);
      return Promise.resolve();
    }
    current = 0;
    return refresh();
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { next().then(schedule); }, seconds * 1000);
  }

  document.addEventListener("keydown", function (event) {
    if (["ArrowRight", "ArrowDown", "PageDown", " "].indexOf(event.key) >= 0) {
      event.preventDefault();
      show((current + 1) % pages.length);
      schedule();
    } else if (["ArrowLeft", "ArrowUp", "PageUp"].indexOf(event.key) >= 0) {
      event.preventDefault();
      show((current - 1 + pages.length) % pages.length);
      schedule();
    }
  });
  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(layout, 150);
  });
  layout();
  document.documentElement.dataset.ready = "1";
  schedule();
})();
