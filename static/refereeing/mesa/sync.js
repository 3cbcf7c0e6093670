/* Keeping up with the server: the mesa on opening, then the mesa's stream
 * (live/follow.js): each claim logged by another device pushes its seq, and
 * the tablet fetches what it lacks (`claims/?after=<seq>`) at once. Where no
 * stream can be opened the tablet polls every second instead, and with a
 * stream it still polls every 30 s, in case. The mesa's appeals come on opening, and
 * with each poll while the tablet knows of one the pairs have not
 * acknowledged, or while the mesa is suspended (perhaps for one): the
 * Director's ruling appears on the tablet. */

import { follow } from "../../live/follow.js";
import { api } from "./net.js";
import { showRefusal } from "./refusal.js";
import { cfg, changed, dropQueued, saveSnapshot, st } from "./state.js";
import { t } from "./words.js";

const POLL_MS = 1000;
const STREAMING_POLL_MS = 30000;
let timer = null;
let streaming = false;
let forbiddenHandler = null;
let flusher = null;

export function configure({ onForbidden, flush }) { forbiddenHandler = onForbidden; flusher = flush; }

/* Take in entries and the state that follows them; forget the queued
 * claims the server turns out to hold already (a lost answer). */
export function absorb(newEntries, state, lastSeq, appeals) {
  (newEntries || []).forEach((entry) => {
    if (entry.seq > st.server.last_seq && !st.entries[entry.seq] && !st.mine.has(entry.client_id)) {
      st.foreign += 1;
      st.lastForeign = entry;
    }
    st.entries[entry.seq] = entry;
    if (entry.client_id) dropQueued(entry.client_id);
  });
  // A mesa that has logged nothing yet has an empty state on the server;
  // the full one comes with the mesa itself.
  if (state && state.scores && lastSeq >= st.server.last_seq) {
    st.server.state = state;
    st.server.last_seq = lastSeq;
  }
  if (appeals) st.appeals = appeals;
  dropStartNotice(st.server.last_seq > 0);
  saveSnapshot();
  changed();
}

export function loadMesa() {
  return api("GET", cfg.api.mesa).then((r) => {
    if (r.status === 403) return forbiddenHandler();
    if (r.status !== 200) return showRefusal(t("net.error", { status: r.status }));
    // The server's log replaces the snapshot this tablet kept.
    st.entries = {};
    st.server.last_seq = 0;
    st.labels = (r.data.ruleset && r.data.ruleset.labels) || {};
    absorb(r.data.decisions, r.data.state, r.data.last_seq);
    return pollAppeals();
  }).catch(() => { /* offline: the snapshot stays on screen */ });
}

function pollAppeals() {
  return api("GET", cfg.api.appeals).then((r) => {
    if (r.status === 200) absorb([], null, 0, r.data.appeals);
  });
}

function wantsAppeals() {
  return st.appeals.length > 0 || !!(st.server.state && st.server.state.suspended);
}

/* The notice of a mesa that has not started (what starts it) goes once the
 * server says it has: the desk started it, or a first claim did. */
function dropStartNotice(started) {
  const notice = document.getElementById("start-notice");
  if (notice && started) notice.remove();
}

export function poll(after) {
  const since = after === undefined ? st.server.last_seq : after;
  return api("GET", cfg.api.claims + "?after=" + since).then((r) => {
    if (r.status === 403) return forbiddenHandler();
    if (r.status === 200) dropStartNotice(r.data.status !== "waiting");
    if (r.status === 200) absorb(r.data.entries, r.data.state, r.data.last_seq);
    if (r.status === 200 && wantsAppeals()) return pollAppeals();
  }).catch(() => {});
}

export function tick() {
  clearTimeout(timer);
  // While a 409 waits for the juez, keep showing the other tablets' claims.
  const work = st.queue.length && !st.conflict ? flusher() : poll();
  work.then(() => { timer = setTimeout(tick, streaming ? STREAMING_POLL_MS : POLL_MS); });
}

/* Follow the mesa's stream; the first seq it sends, and the first after a
 * drop, say whether this tablet missed claims. A seq of null is a change
 * outside the log (an appeal moved). */
export function followMesa() {
  follow(cfg.api.stream, {
    seq: ({ seq }) => { if (seq === null || seq > st.server.last_seq) tick(); },
  }, {
    onState: (state) => {
      const was = streaming;
      streaming = state === "stream";
      document.getElementById("screen").dataset.live = state;
      if (was && !streaming) tick(); // back to polling every second until it reopens
    },
  });
}
