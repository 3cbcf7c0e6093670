/* Talking to the server: JSON over fetch with the session and the CSRF
 * token; every answer, or its absence, says whether the tablet is online. */

import { changed, st } from "./state.js";

function csrfToken() {
  const meta = document.querySelector("meta[name=csrf-token]");
  const cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return cookie ? decodeURIComponent(cookie[1]) : meta ? meta.content : "";
}

export function setOnline(value) {
  if (st.online !== value) { st.online = value; changed(); }
}

/* {status, data} for a request; rejects when the network fails. */
export function api(method, url, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body);
  }
  return fetch(url, options).then((response) => {
    setOnline(true);
    return response.json().catch(() => ({})).then((data) => ({ status: response.status, data }));
  }, (error) => {
    setOnline(false);
    throw error;
  });
}

/* A random version-4 UUID. crypto.randomUUID exists only in secure
 * contexts (https, localhost); a tablet on the venue's LAN over plain
 * http has only crypto.getRandomValues. */
export function uuid() {
  const c = window.crypto;
  if (c && c.randomUUID) return c.randomUUID();
  const b = new Uint8Array(16);
  if (c && c.getRandomValues) c.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.prototype.map.call(b, (x) => (x + 0x100).toString(16).slice(1)).join("");
  return h.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
}
