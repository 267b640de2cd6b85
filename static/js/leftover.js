/* The page of a table code that no longer works (renewed, signed, drawn again): the writes this
   phone could not send with it, which table.js keeps in the browser's storage under the code,
   are listed here, so that nothing typed vanishes unseen after a reload. */
(function () {
  "use strict";
  var code = document.body.dataset.code;
  var box = document.getElementById("leftover");
  if (!code || !box) return;
  var keys = ["tisch:" + code + ":queue", "tisch:" + code + ":refused"];
  function load(name) { try { return JSON.parse(localStorage.getItem(name)) || []; } catch (e) { return []; } }
  var items = load(keys[0]).concat(load(keys[1]));
  if (!items.length) return;
  var T = JSON.parse(document.getElementById("leftover-texts").textContent);
  var title = document.createElement("strong");
  title.textContent = T.title;
  box.appendChild(title);
  var list = document.createElement("ul");
  items.forEach(function (item) {
    var li = document.createElement("li");
    li.textContent = item.label;
    list.appendChild(li);
  });
  box.appendChild(list);
  var clear = document.createElement("button");
  clear.type = "button";
  clear.className = "plain";
  clear.textContent = T.dismiss;
  clear.addEventListener("click", function () {
    keys.forEach(function (key) { try { localStorage.removeItem(key); } catch (e) { /* forbidden */ } });
    box.hidden = true;
  });
  box.appendChild(clear);
  box.hidden = false;
})();
