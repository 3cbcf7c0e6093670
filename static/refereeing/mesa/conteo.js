/* The conteo (Art. 3g, 15f-h) in at most four taps: the pair's conteo
 * button (the pair whose cards the juez counted), its number on the keypad
 * (one or two digits), confirm. The other pair gets the rest of the data's
 * cards (the engine's count, `state.preview.cards`); the juez can type
 * theirs too, lower, when cards were left on the table or set aside.
 *
 * The preview of both pairs' points is the engine's (`state.preview.conteo`),
 * redrawn at every digit; a count the engine refuses (one that contradicts
 * the log, say) is refused here, in its words, before confirming. A count
 * over the data's cards cannot be typed. The confirm button's sentence says
 * what will be logged. */

import { watch } from "./dialogs.js";
import { conteoPreview, dataCards } from "./preview.js";
import { take } from "./queue.js";
import { onChange } from "./state.js";
import { messageNodes, pairName, pointsText, t } from "./words.js";

const dlg = document.getElementById("dlg-conteo");
const other = (side) => (side === "A" ? "B" : "A");
const c = { side: "A", counted: "", rest: "", restTyped: false, target: "counted" };

function num(text) { return text === "" ? null : parseInt(text, 10); }

function draw() {
  dlg.querySelectorAll("[data-counted]").forEach((b) => {
    const on = b.dataset.counted === c.side;
    b.classList.toggle("active", on);
    b.setAttribute("aria-checked", on ? "true" : "false");
  });
  const counted = num(c.counted), deck = dataCards();
  const rest = c.restTyped ? num(c.rest) : counted === null ? null : deck - counted;
  dlg.querySelector("#conteo-counted-label").textContent = t("conteo.cards_of", { pair: pairName(c.side) });
  dlg.querySelector("#conteo-rest-label").textContent = t("conteo.cards_of", { pair: pairName(other(c.side)) });
  dlg.querySelector("[data-num=counted]").textContent = c.counted === "" ? "–" : c.counted;
  dlg.querySelector("[data-num=rest]").textContent = rest === null ? "–" : rest;
  dlg.querySelectorAll("[data-field]").forEach((f) => {
    f.classList.toggle("active", f.dataset.field === c.target);
    f.setAttribute("aria-pressed", f.dataset.field === c.target ? "true" : "false");
  });
  const out = dlg.querySelector("#conteo-preview");
  const confirm = dlg.querySelector("[data-confirm=conteo]");
  out.textContent = "";
  out.className = "preview";
  let ok = counted !== null && rest !== null && counted + rest <= deck;
  if (counted === null) {
    out.textContent = t("conteo.type");
  } else if (!ok) {
    out.textContent = t("conteo.bad");
    out.classList.add("is-bad");
  } else {
    const preview = conteoPreview(c.side, counted, rest);
    if (preview && preview.refused) {
      ok = false;
      out.classList.add("is-bad");
      messageNodes(preview).forEach((node) => out.appendChild(node));
    } else {
      const cards = {};
      cards[c.side] = counted;
      cards[other(c.side)] = rest;
      let sentence = t("conteo.sentence", { a: pairName("A"), na: cards.A, b: pairName("B"), nb: cards.B });
      if (preview) sentence += " " + t("confirm.points", { points: pointsText(preview.points) || t("conteo.no_points") });
      else sentence += " " + t("conteo.engine_decides");
      out.textContent = sentence;
    }
  }
  confirm.disabled = !ok;
}

function press(key) {
  const field = c.target;
  let value = c[field];
  if (key === "del") value = value.slice(0, -1);
  else value = value.length >= 2 ? key : value + key;
  if (num(value) !== null && num(value) > dataCards()) { flash(); return; }
  c[field] = value;
  if (field === "rest") c.restTyped = true;
  draw();
}

function flash() {
  const out = dlg.querySelector("#conteo-preview");
  out.textContent = t("conteo.over_40");
  out.className = "preview is-bad";
}

export function openConteo(side) {
  Object.assign(c, { side, counted: "", rest: "", restTyped: false, target: "counted" });
  draw();
  dlg.showModal();
  watch(dlg);
}

// The preview follows the server's answers while the dialog is open (a claim tapped before it, answered now).
onChange(() => { if (dlg.open) draw(); });

dlg.querySelectorAll("[data-counted]").forEach((b) => {
  b.addEventListener("click", () => { c.side = b.dataset.counted; draw(); });
});
dlg.querySelectorAll("[data-field]").forEach((f) => {
  f.addEventListener("click", () => {
    c.target = f.dataset.field;
    if (c.target === "rest" && !c.restTyped) { c.rest = ""; c.restTyped = true; }
    draw();
  });
});
dlg.querySelectorAll("[data-key]").forEach((b) => b.addEventListener("click", () => press(b.dataset.key)));
dlg.querySelector("[data-confirm=conteo]").addEventListener("click", () => {
  const counted = num(c.counted);
  const rest = c.restTyped ? num(c.rest) : dataCards() - counted;
  const cards = {};
  cards[c.side] = counted;
  cards[other(c.side)] = rest;
  dlg.close();
  take({ kind: "conteo", cards });
});
