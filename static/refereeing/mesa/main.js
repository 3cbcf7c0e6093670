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
 *   guard       no tap falls through what a tap or the server just changed
 *   dialogs     yes/no questions, one at a time; dialogs kept true to the mesa
 *   conteo      the conteo keypad
 *   jyv         juego y veo with the levante checker
 *   appeals     the appeal banner and the Director's ruling at the table
 *   signatures  the signatures at the end of the mesa
 *   offline     the service worker, or a warning before a reload that would lose the page
 *   follow      on a tablet opened with the table's PIN, the next mesa at the table
 * This one wires the buttons (and the confirmations of the plays that end
 * or stop things, which the page marks with `data-ask`, and of anular) and starts.
 */

import { appealHolding, showRuling } from "./appeals.js";
import { openConteo } from "./conteo.js";
import { ask } from "./dialogs.js";
import "./follow.js";
import { openJyv } from "./jyv.js";
import "./offline.js";
import { claimPreview, previewIsNext, undoPreview } from "./preview.js";
import { flush, handleForbidden, offer, take } from "./queue.js";
import { render } from "./render.js";
import { showRefusal } from "./refusal.js";
import "./signatures.js";
import { onChange, rebase, restoreSnapshot, saveQueue, st, dropQueued } from "./state.js";
import { configure, followMesa, loadMesa, tick } from "./sync.js";
import { describe, pointsText, t } from "./words.js";

onChange(render);
onChange(showRuling);
configure({ onForbidden: handleForbidden, flush });

/* What a confirmed claim will do, in one sentence, with the engine's points (when the preview answers it now). */
function sentence(key, claim, params) {
  const preview = previewIsNext() ? claimPreview(claim) : null;
  let text = t(key, params);
  if (preview && preview.refused) return { text, preview };
  if (preview && preview.points) text += " " + t("confirm.points", { points: pointsText(preview.points) || t("conteo.no_points") });
  return { text, preview };
}

function confirmThen(key, claim, yes, params) {
  const said = sentence(key, claim, params);
  if (said.preview && said.preview.refused) {
    // The engine would refuse it: say so now; only "Anotarla igual" logs it.
    showRefusal(describe(claim) + ":", said.preview, { anyway: () => take(claim, { deliberate: true }) });
    return;
  }
  ask(said.text, { yes: t(yes), watch: true }).then((ok) => { if (ok) take(claim); });
}

document.querySelectorAll("#controls [data-claim]").forEach((button) => {
  button.addEventListener("click", () => {
    const claim = { kind: button.dataset.claim };
    if (button.dataset.pair) claim.pair = button.dataset.pair;
    // The page marks the claims that end or stop things with the sentence that confirms them.
    if (button.dataset.ask) {
      confirmThen(button.dataset.ask, claim, button.dataset.yes, {});
      return;
    }
    if (claim.kind === "reanudar" && appealHolding()) { showRefusal(t("banner.appeal")); return; }
    offer(claim);
  });
});
document.querySelectorAll("[data-open=jyv]").forEach((button) => {
  button.addEventListener("click", () => openJyv(button.dataset.pair));
});
document.querySelectorAll("[data-open=conteo]").forEach((button) => {
  button.addEventListener("click", () => openConteo(button.dataset.counted));
});

/* Anular la última: a claim still waiting on the tablet is dropped there;
 * else the claim the engine names (`preview.undo`) is voided (a `void`,
 * nothing erased), or the engine's refusal of that void is shown. */
document.querySelector("[data-action=undo]").addEventListener("click", () => {
  const waiting = st.queue.filter((q) => q.client_id !== st.inflight);
  if (waiting.length) {
    const last = waiting[waiting.length - 1];
    return ask(t("undo.confirm_waiting", { what: describe(last.claim) }), { yes: t("undo.yes"), danger: true, watch: true }).then((yes) => {
      if (!yes) return;
      dropQueued(last.client_id);
      rebase();
      saveQueue();
      render();
    });
  }
  const undo = undoPreview();
  const target = undo.target && st.entries[undo.target];
  if (!target) return showRefusal(t("undo.nothing"));
  const what = describe(target.claim);
  const claim = { kind: "void", target: target.seq };
  if (undo.refused) return showRefusal(describe(claim) + ":", undo, { anyway: () => take(claim, { deliberate: true }) });
  return ask(t("undo.confirm", { seq: target.seq, what }), { yes: t("undo.yes"), danger: true, watch: true }).then((yes) => { if (yes) take(claim); });
});

restoreSnapshot();
render();
window.addEventListener("online", tick);
loadMesa().then(tick).then(followMesa);
