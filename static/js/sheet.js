/* The referee's sheet from the keyboard: the tabs switch without a reload and put the cursor in
   their field; after every answer the cursor is back in the entry field, with a refused entry
   (or, in change mode, the game being changed) selected so that typing replaces it, and the field
   with the answer under it in view however long the sheet and its history; Esc leaves the
   change of a game. */
(function () {
  function entryField(section) {
    var form = section.querySelector("form.entry-form:not([hidden])");
    if (!form) return null;
    return form.querySelector("input.notation") || form.querySelector("select") || form.querySelector("input[type=number]");
  }
  function show(section, mode) {
    section.querySelectorAll("[data-form]").forEach(function (part) {
      part.hidden = part.dataset.form !== mode;
    });
    section.querySelectorAll("nav.tabs a[data-tab]").forEach(function (tab) {
      var current = tab.dataset.tab === mode;
      tab.setAttribute("aria-selected", current ? "true" : "false");
      if (current) tab.setAttribute("aria-current", "true"); else tab.removeAttribute("aria-current");
    });
    var field = entryField(section);
    if (field) field.focus();
  }
  /* The entry field and the answer under it on screen: the rows above stay in sight as far as
     there is room. */
  function keepInView(section, field) {
    var answer = section.querySelector("#answer");
    var margin = 16;
    var top = field.closest("form").getBoundingClientRect().top;
    var bottom = Math.max(field.getBoundingClientRect().bottom, answer ? answer.getBoundingClientRect().bottom : 0);
    if (bottom > window.innerHeight - margin) window.scrollBy(0, bottom - (window.innerHeight - margin));
    top = field.closest("form").getBoundingClientRect().top;
    if (top < margin) window.scrollBy(0, top - margin);
  }
  function init(root) {
    var section = document.getElementById("entry");
    if (!section) return;
    section.querySelectorAll("nav.tabs a[data-tab]").forEach(function (tab) {
      tab.addEventListener("click", function (event) {
        event.preventDefault();
        show(section, tab.dataset.tab);
        var url = new URL(window.location.href);
        url.searchParams.set("mode", tab.dataset.tab);
        window.history.replaceState(null, "", url.pathname + url.search + "#entry");
      });
    });
    var field = entryField(section);
    if (!field) return;
    field.focus({ preventScroll: true });
    keepInView(section, field);
    var refused = section.querySelector("#answer li.error");
    if ((refused || section.classList.contains("changing")) && field.select) field.select();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var cancel = document.querySelector("#entry.changing a.cancel");
    if (cancel) { event.preventDefault(); cancel.click(); }
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });
})();
