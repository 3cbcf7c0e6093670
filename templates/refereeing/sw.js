/* The juez's screen's service worker (scope /mesa/): a reload without
 * network still draws the screen.
 *
 * The page tells it which of its own files to keep (its address and the
 * same-origin scripts and styles it loaded); every GET of the page or of
 * a static file then goes to the network first, and to the copy kept only
 * when the network fails. The API is never answered from the copy: the
 * screen keeps its last state and its queue in the tablet's storage and
 * knows it is offline when a request fails. */

const CACHE = "mesa-screen-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls.map((url) => (
    fetch(url, { credentials: "same-origin" }).then((r) => (r.ok ? cache.put(url, r) : null)).catch(() => null)
  )))));
});

function kept(request) {
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return false;
  return url.pathname.startsWith("{{ static_url }}") || /^\/mesa\/\d+\/$/.test(url.pathname);
}

self.addEventListener("fetch", (event) => {
  if (!kept(event.request)) return;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(event.request.url, copy));
    }
    return response;
  }).catch(() => caches.match(event.request.url, { ignoreVary: true, ignoreSearch: true }).then((found) => (
    found || Response.error()
  ))));
});
