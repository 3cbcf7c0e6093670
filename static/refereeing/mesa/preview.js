/* What a claim would do, as the engine says: the state the server sends
 * carries `preview` (what each claim by each pair, each conteo, and mal
 * repartidas would score if logged now). The screen shows those figures
 * and computes none of its own: no rule of the game lives in the script.
 *
 * provisional  While claims wait on the tablet (offline, or during a
 *           conflict), the board is the server's last state plus the
 *           previewed points of the waiting claims (a void takes back what
 *           its target was given), each mano counted and each conteo
 *           starting a new data; the whole board is marked PROVISIONAL and
 *           the server's answers replace it.
 */

import { st } from "./state.js";

/* The engine's preview of `claim` from the server's last state, or null. */
export function claimPreview(claim) {
  const preview = st.server.state && st.server.state.preview;
  if (claim.kind === "void") {
    const target = st.entries[claim.target];
    if (!target || !target.decision.accepted) return null;
    const points = target.decision.points || {};
    return { points: { A: -(points.A || 0), B: -(points.B || 0) } };
  }
  if (!preview) return null;
  if (claim.kind === "conteo") return conteoPreview("A", claim.cards.A, claim.cards.B);
  if (claim.kind === "mal_repartidas") return ((preview.claims || {})["-"] || {}).mal_repartidas || null;
  return ((preview.claims || {})[claim.pair] || {})[claim.kind] || null;
}

/* The engine's preview of a conteo where `side` counted `n` cards and the
 * other pair the rest; null when the counts do not add up to 40 (the
 * engine then decides on confirming). */
export function conteoPreview(side, n, other) {
  const preview = st.server.state && st.server.state.preview;
  if (!preview || !preview.conteo || n + other !== 40) return null;
  return (preview.conteo[side] || [])[n] || null;
}

export function isProvisional() {
  return !st.online || (st.conflict && st.queue.length > 0);
}

/* The board to draw: the server's state, or the provisional one. */
export function board() {
  const state = st.server.state;
  if (!isProvisional() || !st.queue.length) return state;
  const scores = { A: state.scores.A, B: state.scores.B };
  let data = state.data, mano = state.mano, dealerKnown = true;
  st.queue.forEach((item) => {
    const claim = item.claim;
    if (claim.kind === "mano") mano += 1;
    if (claim.kind === "conteo") { data += 1; mano = 0; dealerKnown = false; }
    const preview = claimPreview(claim);
    if (preview && preview.points) {
      scores.A = Math.max(0, scores.A + (preview.points.A || 0));
      scores.B = Math.max(0, scores.B + (preview.points.B || 0));
    }
  });
  return Object.assign({}, state, { scores, data, mano, dealer: dealerKnown ? state.dealer : null });
}
