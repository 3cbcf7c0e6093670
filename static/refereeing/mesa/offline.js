/* Surviving a reload without network.
 *
 * In a secure context (HTTPS, or localhost) a service worker (`/mesa/sw.js`)
 * keeps the screen's page and files: a reload offline draws the last
 * board and the waiting claims from the tablet's storage. Over plain HTTP
 * browsers allow no service worker: while the network is down, or a claim
 * still waits to be sent, the screen asks before a reload, which would lose
 * the page without network (the claims stay kept and are sent once the page
 * is back). HTTPS on the venue's LAN (README, "HTTPS at the venue") gives
 * the tablets the service worker. */

import { cfg, st } from "./state.js";

export function reloadSafe() {
  return !!(navigator.serviceWorker && navigator.serviceWorker.controller);
}

if (window.isSecureContext && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(cfg.service_worker, { scope: cfg.service_worker_scope }).catch(() => {});
}

window.addEventListener("beforeunload", (event) => {
  if ((st.online && !st.queue.length) || reloadSafe()) return;
  event.preventDefault();
  event.returnValue = "";
});

/* Once the worker is ready, it keeps this page and the files it loaded. */
if (window.isSecureContext && "serviceWorker" in navigator) {
  navigator.serviceWorker.ready.then((registration) => {
    const files = performance.getEntriesByType("resource").map((r) => r.name)
      .filter((url) => url.startsWith(location.origin + cfg.static_url));
    registration.active.postMessage({ keep: [location.href].concat(files) });
  });
}
