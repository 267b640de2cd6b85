/* The tournament form: the short name follows the name until it is typed itself; the rule
   numbers' placeholders show the values of the profile chosen. */
(function () {
  function slugify(text) {
    var folded = text.toLowerCase().replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
    return folded.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 70);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var name = document.getElementById("id_name"), slug = document.getElementById("id_slug");
    if (name && slug && !slug.value) {
      var typed = false;
      slug.addEventListener("input", function () { typed = slug.value !== ""; });
      name.addEventListener("input", function () { if (!typed) slug.value = slugify(name.value); });
    }
    var profile = document.getElementById("id_profile");
    if (!profile || !profile.dataset.profiles) return;
    var profiles = JSON.parse(profile.dataset.profiles);
    profile.addEventListener("change", function () {
      var values = profiles[profile.value] || {};
      Object.keys(values).forEach(function (key) {
        var field = document.getElementById("id_" + key);
        if (field) field.placeholder = values[key];
      });
    });
  });
})();
