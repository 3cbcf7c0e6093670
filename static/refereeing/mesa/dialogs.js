/* Questions to the juez, in the confirm dialog, one at a time; and the
 * dialogs that log a claim, kept true to the mesa they were opened on.
 *
 * `ask(text, options)` resolves to true for yes. A question asked while
 * another is open waits its turn: a 409 arriving while the juez answers an
 * undo is asked next, never answered in its place. The dialog's yes button
 * is green unless `danger`; its words say what happens. A question the
 * screen asks by itself (`unbidden`: after a conflict) takes no tap for the
 * double-tap window (guard.js); one a tap asked is guarded as every tap.
 *
 * watch     A dialog that logs a claim (`watch(dialog)` as it opens, or
 *           `ask(..., {watch: true})`) was opened on the mesa as the screen
 *           showed it. When another device's claim arrives, the mesa is
 *           suspended (by the juez elsewhere, or for an appeal the Director
 *           admitted) or it ends, the dialog closes, logs nothing and says
 *           why; nothing beneath it takes a tap for the double-tap window. */

import { appealHolding } from "./appeals.js";
import { hush } from "./guard.js";
import { showRefusal } from "./refusal.js";
import { onChange, st } from "./state.js";
import { describe, t } from "./words.js";

const dlg = document.getElementById("dlg-confirm");
let asking = Promise.resolve();

export function ask(text, options) {
  const answer = asking.then(() => askNow(text, options || {}));
  asking = answer.catch(() => {});
  return answer;
}

function askNow(text, { extra, yes, no, danger, unbidden, watch: watched }) {
  dlg.querySelector(".confirm-text").textContent = text;
  const box = dlg.querySelector(".confirm-extra");
  box.textContent = "";
  if (extra) box.appendChild(extra);
  const yesButton = dlg.querySelector("[data-label=yes]");
  yesButton.textContent = yes || t("yes");
  yesButton.className = "btn " + (danger ? "btn-danger" : "btn-success");
  dlg.querySelector("[data-label=no]").textContent = no || t("no");
  return new Promise((resolve) => {
    dlg.addEventListener("close", function done() {
      dlg.removeEventListener("close", done);
      resolve(dlg.returnValue === "yes");
    });
    dlg.returnValue = "";
    dlg.showModal();
    if (unbidden) hush();
    if (watched) watch(dlg);
  });
}

export function isAsking() { return dlg.open; }

/* A titled list of lines, for a question's extra part. */
export function listOf(title, lines) {
  const box = document.createElement("div");
  const head = document.createElement("p");
  head.className = "mb-1 fw-semibold";
  head.textContent = title;
  const ul = document.createElement("ul");
  lines.forEach((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    ul.appendChild(li);
  });
  box.appendChild(head);
  box.appendChild(ul);
  return box;
}

document.querySelectorAll("dialog [data-close]").forEach((button) => {
  button.addEventListener("click", () => button.closest("dialog").close());
});

/* What a claim dialog was opened on. */
function mesaNow() {
  const state = st.server.state || {};
  return { foreign: st.foreign, suspended: !!state.suspended, appeal: !!appealHolding(), finished: !!state.finished };
}

/* Why a dialog opened on `then` no longer stands, or "". */
function changedSince(then) {
  const now = mesaNow();
  const last = st.lastForeign;
  // The Director's suspension is an admitted appeal's (Art. 17), known from the claim before the appeals' poll.
  const director = last && now.foreign !== then.foreign && last.claim.kind === "suspender" && last.claim.director;
  if ((now.appeal && !then.appeal) || (now.suspended && !then.suspended && director)) return t("changed.appeal");
  if (now.suspended && !then.suspended) return t("changed.suspended");
  if (now.finished && !then.finished) return t("changed.finished");
  if (now.foreign !== then.foreign && last) return t("changed.claim", { what: "#" + last.seq + " " + describe(last.claim) });
  return "";
}

const watched = new Map();

export function watch(dialog) { watched.set(dialog, mesaNow()); }

onChange(() => {
  watched.forEach((then, dialog) => {
    if (!dialog.open) { watched.delete(dialog); return; }
    const why = changedSince(then);
    if (!why) return;
    watched.delete(dialog);
    dialog.close("changed");
    hush();
    showRefusal(why);
  });
});
