/* The table's page without a connection (issue 16): the page and its files are kept as last
   loaded and shown when the network fails; games typed meanwhile wait in the page's storage.
   Writes (POST) and the sheet's polling are never answered from here. */
var CACHE = "tisch-v1";
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  var page = request.mode === "navigate" && /^\/tisch\/[a-z0-9]+\/$/.test(url.pathname);
  var file = url.origin === self.location.origin && url.pathname.indexOf("{{ static_prefix }}") === 0;
  if (!page && !file) return;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    }).catch(function () {
      return caches.open(CACHE).then(function (cache) {
        return cache.match(request, { ignoreSearch: file }).then(function (hit) {
          return hit || Response.error();
        });
      });
    })
  );
});
