/* What the juez's screen knows, in one place, and what it keeps on the device.
 *
 * Terms
 * -----
 * server    The server's last word: `state` (the engine's mesa state, with
 *           its `preview`) and `last_seq`, the seq of the last entry it holds.
 * entries   seq -> entry, an entry being a logged claim {seq, claim, decision}.
 * queue     Claims tapped on this device and not yet confirmed by the server,
 *           each {client_id, claim, expected_seq}: kept in localStorage so
 *           that they survive a reload, sent one at a time and in order.
 * snapshot  The server's state and entries, kept in localStorage: a reload
 *           without network draws the last board seen.
 * appeals   The mesa's appeals the pairs have not acknowledged at the table.
 * foreign   How many claims of another device this one has taken in, and
 *           the last of them: a dialog opened before one arrived was opened
 *           on a mesa that is no more (dialogs.js).
 *
 * Every change ends with `changed()`, which redraws the screen.
 */

export const cfg = JSON.parse(document.getElementById("screen-config").textContent);

const KEY = "mesa." + cfg.mesa + ".";

export const st = {
  server: { state: null, last_seq: 0 },
  entries: {},
  queue: readStore("queue") || [],
  inflight: null,        // the client id being posted
  online: true,
  conflict: false,       // a 409 waits for the juez's choice
  held: null,            // the client id of a waiting claim the engine would refuse, until the juez decides
  forbidden: false,
  appeals: [],
  labels: {},            // the rule set's kind labels (the engine's table)
  foreign: 0,
  lastForeign: null,
  mine: new Set(),       // the client ids of the claims tapped here
};
st.queue.forEach((item) => st.mine.add(item.client_id));

export function readStore(name) {
  try { return JSON.parse(localStorage.getItem(KEY + name)); } catch (e) { return null; }
}

export function writeStore(name, value) {
  // Full or private storage: the screen goes on in memory.
  try { localStorage.setItem(KEY + name, JSON.stringify(value)); } catch (e) { /* nothing kept */ }
}

export function saveQueue() { writeStore("queue", st.queue); }

export function saveSnapshot() {
  writeStore("snapshot", {
    state: st.server.state, last_seq: st.server.last_seq, entries: sortedEntries(),
    appeals: st.appeals, labels: st.labels,
  });
}

export function restoreSnapshot() {
  const snapshot = readStore("snapshot");
  if (!snapshot || !snapshot.state) return;
  st.server.state = snapshot.state;
  st.server.last_seq = snapshot.last_seq;
  (snapshot.entries || []).forEach((e) => { st.entries[e.seq] = e; });
  st.appeals = snapshot.appeals || [];
  st.labels = snapshot.labels || {};
}

export function sortedEntries() {
  return Object.keys(st.entries).map(Number).sort((a, b) => a - b).map((seq) => st.entries[seq]);
}

/* seq -> the seq of the void that undid it. */
export function voidedSeqs() {
  const voided = {};
  sortedEntries().forEach((e) => {
    if (e.claim.kind === "void" && e.decision.accepted) voided[e.claim.target] = e.seq;
    if (e.decision.voided_by) voided[e.seq] = e.decision.voided_by;
  });
  return voided;
}

export function dropQueued(clientId) {
  const before = st.queue.length;
  st.queue = st.queue.filter((item) => item.client_id !== clientId);
  if (st.queue.length !== before) saveQueue();
}

/* Number the waiting claims after the server's last seq. */
export function rebase() {
  st.queue.forEach((item, i) => { item.expected_seq = st.server.last_seq + i + 1; });
  saveQueue();
}

const listeners = [];
export function onChange(listener) { listeners.push(listener); }
export function changed() { listeners.forEach((listener) => listener()); }
