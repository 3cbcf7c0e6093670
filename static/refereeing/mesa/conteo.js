/* The conteo (Art. 3g, 15f-h) in at most four taps: the pair's conteo
 * button (the pair whose cards the juez counted), its number on the keypad
 * (one or two digits), confirm. The other pair gets the rest of the data's
 * cards (the engine's count, `state.preview.cards`); the juez can type
 * theirs too, lower, when cards were left on the table or set aside.
 *
 * The preview of both pairs' points is the engine's, redrawn at every digit,
 * whatever was typed: the state's preview for a count of the whole data,
 * the engine asked for one that leaves cards out (preview.js). A count the
 * engine refuses (one the log contradicts, one before the last mano) is
 * refused here in its words: Confirmar then logs nothing and offers
 * "Anotarla igual", the deliberate second confirmation. A count over the
 * data's cards cannot be typed. The confirm button's sentence says what
 * will be logged. */

import { hush } from "./guard.js";
import { watch } from "./dialogs.js";
import { askEngine, claimPreview, dataCards, previewIsNext } from "./preview.js";
import { take } from "./queue.js";
import { onChange, st } from "./state.js";
import { messageNodes, pairName, pointsText, t } from "./words.js";

const dlg = document.getElementById("dlg-conteo");
const anyway = dlg.querySelector("[data-anyway]");
const other = (side) => (side === "A" ? "B" : "A");
const c = { side: "A", counted: "", rest: "", restTyped: false, target: "counted", anyway: false };

function num(text) { return text === "" ? null : parseInt(text, 10); }

/* The claim typed so far, or null while a count is missing or the cards are more than the data's. */
function typed() {
  const counted = num(c.counted), deck = dataCards();
  const rest = c.restTyped ? num(c.rest) : counted === null ? null : deck - counted;
  if (counted === null || rest === null || counted + rest > deck) return null;
  const cards = {};
  cards[c.side] = counted;
  cards[other(c.side)] = rest;
  return { kind: "conteo", cards };
}

/* The engine's entry for `claim` now; asks the engine (and draws again) when the preview does not hold it. */
function verdict(claim) {
  if (!previewIsNext()) return null;
  const entry = claimPreview(claim);
  if (!entry && st.online) askEngine(claim).then((answer) => { if (answer && dlg.open) draw(); }, () => {});
  return entry;
}

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
  const claim = typed();
  const entry = claim && verdict(claim);
  if (counted === null) {
    out.textContent = t("conteo.type");
  } else if (!claim) {
    out.textContent = t("rule.data_cards");
    out.classList.add("is-bad");
  } else if (entry && entry.refused) {
    out.classList.add("is-bad");
    messageNodes(entry).forEach((node) => out.appendChild(node));
  } else {
    let sentence = t("conteo.sentence", { a: pairName("A"), na: claim.cards.A, b: pairName("B"), nb: claim.cards.B });
    if (entry) sentence += " " + t("confirm.points", { points: pointsText(entry.points) || t("conteo.no_points") });
    else sentence += " " + t(st.online && previewIsNext() ? "conteo.asking" : "conteo.later");
    out.textContent = sentence;
  }
  confirm.disabled = !claim;
  anyway.hidden = !(c.anyway && entry && entry.refused);
}

function press(key) {
  const field = c.target;
  let value = c[field];
  if (key === "del") value = value.slice(0, -1);
  else value = value.length >= 2 ? key : value + key;
  if (num(value) !== null && num(value) > dataCards()) { flash(); return; }
  c[field] = value;
  if (field === "rest") c.restTyped = true;
  c.anyway = false;
  draw();
}

function flash() {
  const out = dlg.querySelector("#conteo-preview");
  out.textContent = t("rule.pair_cards");
  out.className = "preview is-bad";
}

export function openConteo(side) {
  Object.assign(c, { side, counted: "", rest: "", restTyped: false, target: "counted", anyway: false });
  draw();
  dlg.showModal();
  watch(dlg);
}

// The preview follows the server's answers while the dialog is open (a claim tapped before it, answered now).
onChange(() => { if (dlg.open) draw(); });

dlg.querySelectorAll("[data-counted]").forEach((b) => {
  b.addEventListener("click", () => { c.side = b.dataset.counted; c.anyway = false; draw(); });
});
dlg.querySelectorAll("[data-field]").forEach((f) => {
  f.addEventListener("click", () => {
    c.target = f.dataset.field;
    if (c.target === "rest" && !c.restTyped) { c.rest = ""; c.restTyped = true; }
    c.anyway = false;
    draw();
  });
});
dlg.querySelectorAll("[data-key]").forEach((b) => b.addEventListener("click", () => press(b.dataset.key)));
dlg.querySelector("[data-confirm=conteo]").addEventListener("click", () => {
  const claim = typed();
  if (!claim) return;
  const entry = verdict(claim);
  if (entry && entry.refused) {
    // Refused: this tap logs nothing; the refusal stays in sight and "Anotarla igual" is offered.
    c.anyway = true;
    draw();
    hush();
    return;
  }
  dlg.close();
  take(claim);
});
anyway.addEventListener("click", () => {
  const claim = typed();
  dlg.close();
  if (claim) take(claim, { deliberate: true });
});
