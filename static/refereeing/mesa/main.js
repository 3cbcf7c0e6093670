/* The juez's screen: logs claims by taps and shows the engine's answers.
 *
 * The modules, each doing one thing:
 *   state       what the screen knows and keeps on the tablet
 *   words       the server's words, kind labels and the engine's messages
 *   net         fetch with the session and CSRF token; online or not
 *   sync        the mesa on opening, then its stream (or a poll every second)
 *   queue       the claims tapped, sent once each and in order; conflicts
 *   preview     the engine's preview: conteo points, the provisional board
 *   render      drawing the board, the banner, the log, pending buttons
 *   refusal     refusals over the board until acknowledged, sound, vibration
 *   dialogs     yes/no questions, one at a time
 *   conteo      the conteo keypad
 *   jyv         juego y veo with the levante checker
 *   appeals     the appeal banner and the Director's ruling at the table
 *   signatures  the signatures at the end of the mesa
 *   offline     the service worker, or a warning before a reload that would lose the page
 * This one wires the buttons (and the confirmations of the plays that end
 * or stop things: mal repartidas, suspender, anular) and starts.
 */

import { appealHolding, showRuling } from "./appeals.js";
import { openConteo } from "./conteo.js";
import { ask } from "./dialogs.js";
import { openJyv } from "./jyv.js";
import "./offline.js";
import { claimPreview } from "./preview.js";
import { flush, handleForbidden, take } from "./queue.js";
import { render } from "./render.js";
import { showRefusal } from "./refusal.js";
import "./signatures.js";
import { onChange, rebase, restoreSnapshot, saveQueue, sortedEntries, st, voidedSeqs, dropQueued } from "./state.js";
import { configure, followMesa, loadMesa, tick } from "./sync.js";
import { describe, pairName, pointsText, t } from "./words.js";

onChange(render);
onChange(showRuling);
configure({ onForbidden: handleForbidden, flush });

/* What a confirmed claim will do, in one sentence, with the engine's points. */
function sentence(key, claim, params) {
  const preview = claimPreview(claim);
  let text = t(key, params);
  if (preview && preview.refused) return { text, preview };
  if (preview && preview.points) text += " " + t("confirm.points", { points: pointsText(preview.points) || t("conteo.no_points") });
  return { text, preview };
}

function confirmThen(key, claim, yes, params) {
  const said = sentence(key, claim, params);
  if (said.preview && said.preview.refused) {
    // The engine would refuse it: say so now, log nothing.
    showRefusal(describe(claim) + ":", said.preview);
    return;
  }
  ask(said.text, { yes: t(yes) }).then((ok) => { if (ok) take(claim); });
}

const CONFIRMED = {
  mal_repartidas: () => {
    const dealer = st.server.state && st.server.state.dealer;
    return ["confirm.mal_repartidas", "confirm.mal_repartidas_yes", { dealer: dealer ? pairName(dealer.charAt(0)) : "–" }];
  },
  suspender: () => ["confirm.suspender", "confirm.suspender_yes", {}],
};

document.querySelectorAll("#controls [data-claim]").forEach((button) => {
  button.addEventListener("click", () => {
    const claim = { kind: button.dataset.claim };
    if (button.dataset.pair) claim.pair = button.dataset.pair;
    if (CONFIRMED[claim.kind]) {
      const [key, yes, params] = CONFIRMED[claim.kind]();
      confirmThen(key, claim, yes, params);
      return;
    }
    if (claim.kind === "reanudar" && appealHolding()) { showRefusal(t("banner.appeal")); return; }
    take(claim);
  });
});
document.querySelectorAll("[data-open=jyv]").forEach((button) => {
  button.addEventListener("click", () => openJyv(button.dataset.pair));
});
document.querySelectorAll("[data-open=conteo]").forEach((button) => {
  button.addEventListener("click", () => openConteo(button.dataset.counted));
});

/* Anular la última: a claim still waiting on the tablet is dropped there;
 * else the last logged claim not undone is voided (a `void`, nothing erased). */
document.querySelector("[data-action=undo]").addEventListener("click", () => {
  const waiting = st.queue.filter((q) => q.client_id !== st.inflight);
  if (waiting.length) {
    const last = waiting[waiting.length - 1];
    return ask(t("undo.confirm_waiting", { what: describe(last.claim) }), { yes: t("undo.yes"), danger: true }).then((yes) => {
      if (!yes) return;
      dropQueued(last.client_id);
      rebase();
      saveQueue();
      render();
    });
  }
  const voided = voidedSeqs();
  const target = sortedEntries().reverse().find((e) => e.decision.accepted && e.claim.kind !== "void" && !voided[e.seq]);
  if (!target) return showRefusal(t("undo.nothing"));
  const claim = { kind: "void", target: target.seq };
  const { text } = sentence("undo.confirm", claim, { seq: target.seq, what: describe(target.claim) });
  return ask(text, { yes: t("undo.yes"), danger: true }).then((yes) => { if (yes) take(claim); });
});

restoreSnapshot();
render();
window.addEventListener("online", tick);
loadMesa().then(tick).then(followMesa);
