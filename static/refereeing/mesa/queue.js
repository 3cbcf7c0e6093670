/* The queue of claims tapped on this tablet, sent one at a time, in order.
 *
 * expected seq  Each claim carries the seq it should get: one after the last
 *           seq the tablet had seen when it was tapped (and after the claims
 *           queued before it). If another tablet logged claims in between,
 *           the server answers 409 and logs nothing.
 * retry     A retry carries the same client id: the server never logs a
 *           claim twice.
 * double tap  A tap on a button whose claim is still being sent, or that
 *           was tapped less than DOUBLE_TAP_MS before, logs nothing more:
 *           the button shows its claim pending from the first tap. The
 *           time of the last tap is kept per button, not in the queue: on
 *           a quick network the first claim is answered, and gone from the
 *           queue, before the second tap.
 * refused   A tap never logs a claim the engine would refuse (`offer`):
 *           the preview answers at once, and the refusal is shown with its
 *           second, deliberate confirmation (refusal.js). A claim tapped
 *           behind others, or offline, is asked about when its turn to be
 *           sent comes, from the state then (or the engine itself, for a
 *           conteo the preview does not hold): a refused one is held and the
 *           juez asked whether to log it all the same. A claim so confirmed
 *           is `deliberate`.
 * 409       The screen does not guess: it brings in the other tablet's
 *           claims, stops sending, and asks the juez claim by claim which
 *           of the waiting ones still stand. A waiting mano is not ticked
 *           when the other tablet logged a mano meanwhile: it is sent only
 *           if the juez ticks it.
 */

import { ask } from "./dialogs.js";
import { DOUBLE_TAP_MS } from "./guard.js";
import { api, uuid } from "./net.js";
import { askEngine, claimPreview, previewIsNext } from "./preview.js";
import { showRefusal } from "./refusal.js";
import { cfg, changed, dropQueued, rebase, saveQueue, sortedEntries, st } from "./state.js";
import { absorb, poll } from "./sync.js";
import { describe, messageNodes, t } from "./words.js";

export function claimKey(claim) { return claim.kind + ":" + (claim.pair || ""); }

const lastTap = new Map();

/* A tap that asks for `claim`: logged when the engine would take it (or cannot say yet), else its refusal is shown
 * and only "Anotarla igual" logs it. True when taken. */
export function offer(claim) {
  const known = previewIsNext() ? claimPreview(claim) : null;
  if (known && known.refused) {
    showRefusal(describe(claim) + ":", known, { anyway: () => take(claim, { deliberate: true }) });
    return false;
  }
  take(claim);
  return true;
}

export function take(claim, options) {
  if (st.forbidden) return;
  const key = claimKey(claim), now = Date.now();
  const sending = st.queue.some((item) => claimKey(item.claim) === key && item.client_id === st.inflight);
  if (sending || now - (lastTap.get(key) || 0) < DOUBLE_TAP_MS) return;
  lastTap.set(key, now);
  const item = { client_id: uuid(), claim, expected_seq: st.server.last_seq + st.queue.length + 1 };
  if (options && options.deliberate) item.deliberate = true;
  st.mine.add(item.client_id);
  st.queue.push(item);
  saveQueue();
  changed();
  flush();
}

function handleForbidden() {
  st.forbidden = true;
  showRefusal(t("net.forbidden"));
  changed();
}
export { handleForbidden };

/* Post the queued claims, oldest first, until the queue is empty, the
 * network fails, or the server answers 409. */
export function flush() {
  if (st.inflight || st.conflict || st.forbidden || st.held || !st.queue.length) return Promise.resolve();
  const item = st.queue[0];
  // Its turn has come: the server's state is the one it will be decided on.
  if (!item.deliberate && st.server.last_seq === item.expected_seq - 1) {
    const known = claimPreview(item.claim);
    if (known && known.refused) return hold(item, known);
    if (!known && item.claim.kind === "conteo") {
      st.inflight = item.client_id;
      return askEngine(item.claim).then((entry) => {
        st.inflight = null;
        if (entry && entry.refused) return hold(item, entry);
        // Taken, or no answer for this seq (the server is ahead: the post's 409 says so).
        return post(item);
      }, () => { st.inflight = null; changed(); });
    }
  }
  return post(item);
}

/* A waiting claim the engine would refuse: nothing is sent until the juez says whether to log it all the same. */
function hold(item, entry) {
  st.held = item.client_id;
  changed();
  const box = document.createElement("p");
  box.className = "mb-0";
  messageNodes(entry).forEach((node) => box.appendChild(node));
  return ask(t("held.title", { what: describe(item.claim) }), {
    extra: box, yes: t("held.log"), no: t("held.drop"), danger: true, unbidden: true,
  }).then((logIt) => {
    st.held = null;
    if (logIt) item.deliberate = true;
    else { dropQueued(item.client_id); rebase(); }
    saveQueue();
    changed();
    return flush();
  });
}

function post(item) {
  st.inflight = item.client_id;
  changed();
  const body = { client_id: item.client_id, claim: item.claim, expected_seq: item.expected_seq };
  return api("POST", cfg.api.claims, body).then((r) => {
    st.inflight = null;
    if (r.status === 200 || r.status === 201) {
      const seen = st.server.last_seq, gap = r.data.entry.seq > seen + 1;
      dropQueued(item.client_id);
      absorb([r.data.entry], r.data.state, r.data.last_seq);
      if (!r.data.entry.decision.accepted) showRefusal("", r.data.entry.decision);
      // Claims logged in between by another tablet: fetch them for the log.
      return (gap ? poll(seen) : Promise.resolve()).then(flush);
    }
    if (r.status === 409 && r.data.last_seq !== undefined) return onConflict();
    if (r.status === 403) return handleForbidden();
    if (r.status === 400 || r.status === 409 || r.status === 413) {
      // Malformed, or the mesa takes no claims now (409 without a state:
      // not started, finished): the server will never take this claim.
      // Say so, drop it, go on.
      dropQueued(item.client_id);
      rebase();
      showRefusal(describe(item.claim) + ": " + (r.data.detail || t("net.error", { status: r.status })));
      changed();
      return flush();
    }
    changed();
    showRefusal(t("net.error", { status: r.status }));
  }, () => { st.inflight = null; changed(); });
}

function onConflict() {
  st.conflict = true;
  const seen = st.server.last_seq;
  return poll().then(() => {
    changed();
    if (!st.queue.length) { st.conflict = false; changed(); return flush(); }
    const theirs = sortedEntries().filter((e) => e.seq > Math.min(seen, st.queue[0].expected_seq - 1));
    const theirMano = theirs.some((e) => e.claim.kind === "mano");
    const box = document.createElement("div");
    const head = document.createElement("p");
    head.className = "mb-1 fw-semibold";
    head.textContent = t("conflict.body");
    const ul = document.createElement("ul");
    theirs.forEach((e) => {
      const li = document.createElement("li");
      li.textContent = "#" + e.seq + " " + describe(e.claim);
      ul.appendChild(li);
    });
    const fieldset = document.createElement("fieldset");
    fieldset.className = "conflict-choice";
    const legend = document.createElement("legend");
    legend.className = "fs-6 fw-semibold mb-1";
    legend.textContent = t("conflict.waiting");
    fieldset.appendChild(legend);
    const boxes = st.queue.map((item, i) => {
      const row = document.createElement("div");
      row.className = "form-check";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.className = "form-check-input";
      input.id = "conflict-" + i;
      input.checked = !(item.claim.kind === "mano" && theirMano);
      const lbl = document.createElement("label");
      lbl.className = "form-check-label";
      lbl.htmlFor = input.id;
      lbl.textContent = describe(item.claim) + (item.claim.kind === "mano" && theirMano ? " · " + t("conflict.mano") : "");
      row.appendChild(input);
      row.appendChild(lbl);
      fieldset.appendChild(row);
      return input;
    });
    box.appendChild(head);
    box.appendChild(ul);
    box.appendChild(fieldset);
    return ask(t("conflict.title"), { extra: box, yes: t("conflict.send"), no: t("conflict.discard"), unbidden: true }).then((send) => {
      const keep = st.queue.filter((item, i) => send && boxes[i].checked);
      st.queue = keep;
      saveQueue();
      rebase();
      st.conflict = false;
      changed();
      return flush();
    });
  });
}
