/* What a claim would do, as the engine says: the state the server sends
 * carries `preview` (what each claim by each pair, each conteo, and mal
 * repartidas would score if logged now, the cards of a data, and what
 * "void the last claim" would void). The screen shows those answers and
 * works out none of its own: no rule of the game lives in the script.
 *
 * provisional  While claims wait on the tablet (offline, or during a
 *           conflict), the board is the server's last state with the
 *           engine's answer to the first waiting claim (its points added to
 *           the scores it was previewed on); the claims after it are shown
 *           pending, never guessed. The whole board is marked PROVISIONAL
 *           and the server's answers replace it.
 */

import { st } from "./state.js";

function preview() { return (st.server.state && st.server.state.preview) || null; }

/* The engine's preview of `claim` as the next claim, or null (a void's is
 * decided on confirming). */
export function claimPreview(claim) {
  const shown = preview();
  if (!shown || claim.kind === "void") return null;
  if (claim.kind === "conteo") return conteoPreview("A", claim.cards.A, claim.cards.B);
  const claims = shown.claims || {};
  return (claims[claim.pair || "-"] || {})[claim.kind] || null;
}

/* The cards of a data, as the engine counts them (null before the first state). */
export function dataCards() {
  const shown = preview();
  return shown ? shown.cards : null;
}

/* The engine's preview of a conteo where `side` counted `n` cards and the
 * other pair the rest; null when some cards were left out (the engine
 * then decides on confirming). */
export function conteoPreview(side, n, other) {
  const shown = preview();
  if (!shown || !shown.conteo || n + other !== shown.cards) return null;
  const counts = shown.conteo[side] || [];
  // One entry alone: the conteo is not due, and that refusal answers every count.
  return (counts.length === 1 ? counts[0] : counts[n]) || null;
}

/* "Void the last claim": the engine's target, and its refusal when it would refuse. */
export function undoPreview() {
  const shown = preview();
  return (shown && shown.undo) || { target: null };
}

export function isProvisional() {
  return !st.online || (st.conflict && st.queue.length > 0);
}

/* The board to draw: the server's state, or the provisional one (with
 * `pending`, the waiting claims the engine has not previewed). */
export function board() {
  const state = st.server.state;
  if (!isProvisional() || !st.queue.length) return Object.assign({}, state, { pending: 0 });
  // The preview is of the next claim only: an answer for the first waiting claim, none for the others.
  const first = claimPreview(st.queue[0].claim);
  const scores = first && first.points
    ? { A: state.scores.A + first.points.A, B: state.scores.B + first.points.B }
    : state.scores;
  return Object.assign({}, state, { scores, pending: st.queue.length - (first ? 1 : 0) });
}
