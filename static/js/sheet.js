/* The referee's sheet from the keyboard: the tabs switch without a reload and put the cursor in
   their field; after every answer the cursor is back in the entry field, with a refused entry
   selected so that typing replaces it; Esc leaves the change of a game. */
(function () {
  function entryField(section) {
    var form = section.querySelector("form.entry-form:not([hidden])");
    if (!form) return null;
    return form.querySelector("input.notation") || form.querySelector("select") || form.querySelector("input[type=number]");
  }
  function show(section, mode) {
    section.querySelectorAll("form.entry-form[data-form]").forEach(function (form) {
      form.hidden = form.dataset.form !== mode;
    });
    section.querySelectorAll("nav.tabs a[data-tab]").forEach(function (tab) {
      var current = tab.dataset.tab === mode;
      tab.setAttribute("aria-selected", current ? "true" : "false");
      if (current) tab.setAttribute("aria-current", "true"); else tab.removeAttribute("aria-current");
    });
    var field = entryField(section);
    if (field) field.focus();
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
    field.focus();
    if (section.querySelector("#answer li.error") && field.select) field.select();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var cancel = document.querySelector("#entry.changing a.cancel");
    if (cancel) { event.preventDefault(); cancel.click(); }
  });
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });
})();
