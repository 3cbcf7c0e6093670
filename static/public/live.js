/* The public pages follow their championship's stream: each pushed row
 * replaces the row of the same mesa, the projector's calls replace its
 * band, and when the page cannot follow a row (a mesa it does not show, or
 * the bracket itself changed) it fetches its live part again. Without a
 * stream it fetches that part every 5 s, as before.
 *
 * The live part is the element with data-stream (the stream's address) and
 * data-refresh (the address of its HTML). On a pair's page (data-follow-status)
 * a row whose status or table changed fetches the part too: where the pair
 * plays now and next moves with it. The part's data-live says how it keeps
 * up: "stream", "polling" or "offline". */

import { clockTime } from "../js/clock.js";
import { follow } from "../live/follow.js";

const part = document.querySelector("[data-stream]");
const stamp = document.getElementById("board-updated");
const POLL_MS = 5000;
let stop = null;

function stamped(ok) {
  if (stamp) stamp.textContent = (ok ? "" : "⚠ ") + clockTime();
}

function updated() {
  document.dispatchEvent(new CustomEvent("live:updated"));
}

async function refresh() {
  try {
    const response = await fetch(part.dataset.refresh, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.status);
    const before = part.dataset.stream;
    part.innerHTML = await response.text();
    const inner = part.querySelector("[data-stream-next]");
    if (inner && inner.dataset.streamNext !== before) {
      part.dataset.stream = inner.dataset.streamNext;
      start();
    }
    stamped(true);
    updated();
  } catch (error) {
    stamped(false);
  }
}

function parse(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content.firstElementChild;
}

function rows(changed) {
  let stale = false;
  Object.entries(changed).forEach(([mesa, html]) => {
    const old = part.querySelector(`[data-mesa="${mesa}"]`);
    const row = parse(html);
    if (!old) { stale = true; return; }
    if ("followStatus" in part.dataset && (old.dataset.status !== row.dataset.status || old.dataset.table !== row.dataset.table)) stale = true;
    old.replaceWith(row);
  });
  stamped(true);
  updated();
  if (stale) refresh();
}

function calls(html) {
  const band = document.getElementById("calls");
  if (band) band.replaceWith(parse(html));
  updated();
}

function start() {
  if (stop) stop();
  stop = follow(part.dataset.stream, {
    rows,
    calls,
    // The bracket itself changed: everyone fetches at once, so each waits a moment of its own.
    reload: () => setTimeout(refresh, Math.random() * 3000),
  }, {
    poll: refresh,
    pollMs: POLL_MS,
    onState: (state) => {
      part.dataset.live = state;
      if (state === "offline") stamped(false);
    },
  });
}

// The page's bytes are the same for everyone (a cache revalidates them by digest): the time it shows is when this
// screen received them.
if (part) {
  stamped(true);
  start();
}
