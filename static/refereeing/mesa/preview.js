/* What a claim would do, as the engine says: the state the server sends
 * carries `preview` (what each claim by each pair, the claims that name no
 * pair, each juego y veo the protester may make, each conteo of the whole
 * data would score if logged now, the cards of a data, and what "void the
 * last claim" would void). The screen shows those answers and works out
 * none of its own: no rule of the game lives in the script.
 *
 * next claim  The preview is of the mesa as the server's state leaves it:
 *           it answers a claim tapped while nothing waits on the tablet.
 *           A claim tapped behind others is answered when its turn to be
 *           sent comes (queue.js), from the state then.
 * asked     A conteo that leaves cards out (left on the table, set aside)
 *           is not in the preview: the engine is asked for it alone
 *           (`askEngine`, the screen's /vista-previa/), its answer kept for
 *           the seq it was given at.
 * provisional  While claims wait on the tablet (offline, or during a
 *           conflict), the board is the server's last state with the
 *           engine's answer to the first waiting claim (its points added to
 *           the scores it was previewed on); the claims after it are shown
 *           pending, never guessed. The whole board is marked PROVISIONAL
 *           and the server's answers replace it.
 */

import { api } from "./net.js";
import { cfg, st } from "./state.js";

function preview() { return (st.server.state && st.server.state.preview) || null; }

const asked = new Map();   // JSON of a claim at a seq -> the engine's entry
const asking = new Map();  // the same -> the question on its way

function askedKey(claim) { return st.server.last_seq + " " + JSON.stringify(claim); }

/* The engine's preview of `claim` as the claim after the server's last, or
 * null when the preview does not hold it (a conteo that leaves cards out,
 * not asked yet; a void of another claim than the last; a state of an
 * older version). */
export function claimPreview(claim) {
  const shown = preview();
  if (!shown) return null;
  if (claim.kind === "void") return claim.target === (shown.undo || {}).target ? shown.undo : null;
  if (claim.kind === "conteo") {
    return conteoPreview("A", claim.cards.A, claim.cards.B) || asked.get(askedKey(claim)) || null;
  }
  if (claim.kind === "juego_y_veo") {
    const against = ((shown.juego_y_veo || {})[claim.pair] || {})[claim.against];
    return (against && against[claim.upheld ? "upheld" : "rejected"]) || null;
  }
  const claims = shown.claims || {};
  return (claims[claim.pair || "-"] || {})[claim.kind] || null;
}

/* Whether the preview in hand answers a claim tapped now: nothing waits on the tablet before it. */
export function previewIsNext() { return !st.queue.length; }

/* Ask the engine about `claim` as the next claim (a conteo the preview does not hold): resolves to its entry,
 * kept for the seq it answers at; rejects without network. */
export function askEngine(claim) {
  const key = askedKey(claim);
  if (asked.has(key)) return Promise.resolve(asked.get(key));
  if (!asking.has(key)) {
    const question = api("POST", cfg.api.preview, { claim }).then((r) => {
      if (r.status !== 200) return null;
      asked.set(r.data.last_seq + " " + JSON.stringify(claim), r.data.preview);
      return r.data.last_seq === st.server.last_seq ? r.data.preview : null;
    });
    const done = () => asking.delete(key);
    question.then(done, done);
    asking.set(key, question);
  }
  return asking.get(key);
}

/* The cards of a data, as the engine counts them (null before the first state). */
export function dataCards() {
  const shown = preview();
  return shown ? shown.cards : null;
}

/* The engine's preview of a conteo where `side` counted `n` cards and the
 * other pair `other`: the preview's for a count of the whole data, or its
 * one refusal when the conteo is not due (it answers every count); null
 * when some cards were left out (askEngine). */
export function conteoPreview(side, n, other) {
  const shown = preview();
  if (!shown || !shown.conteo) return null;
  const counts = shown.conteo[side] || [];
  // One entry alone: the conteo is not due, and that refusal answers every count.
  if (counts.length === 1) return counts[0];
  return n + other === shown.cards ? counts[n] || null : null;
}

/* The plays `protester` may name in a juego y veo now, as the engine says (seqs, oldest first). The preview's
   "none" (a protest naming no logged play) is not one of them: the dialog names a play. */
export function protestable(protester) {
  const shown = preview();
  if (shown && shown.juego_y_veo) {
    return Object.keys(shown.juego_y_veo[protester] || {}).filter((key) => key !== "none").map(Number).sort((a, b) => a - b);
  }
  const state = st.server.state;
  return (state && state.protestable && state.protestable[protester]) || [];
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
  // A void's entry names its target, not what it takes away: it is not answered here.
  const answered = !!first && (!!first.points || !!first.refused);
  const scores = answered && first.points
    ? { A: state.scores.A + first.points.A, B: state.scores.B + first.points.B }
    : state.scores;
  return Object.assign({}, state, { scores, pending: st.queue.length - (answered ? 1 : 0) });
}
