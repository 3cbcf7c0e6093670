/* Questions to the juez, in the confirm dialog, one at a time.
 *
 * `ask(text, options)` resolves to true for yes. A question asked while
 * another is open waits its turn: a 409 arriving while the juez answers an
 * undo is asked next, never answered in its place. The dialog's yes button
 * is green unless `danger`; its words say what happens. */

import { t } from "./words.js";

const dlg = document.getElementById("dlg-confirm");
let asking = Promise.resolve();

export function ask(text, options) {
  const answer = asking.then(() => askNow(text, options || {}));
  asking = answer.catch(() => {});
  return answer;
}

function askNow(text, { extra, yes, no, danger }) {
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
