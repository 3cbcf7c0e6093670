/* Juego y veo (Art. 5): the protesting pair says a play was wrong. The juez
 * taps the cards on the table, the card played (and the one played before
 * it, for a caída) and the cards taken; the levante checker lists the legal
 * captures and its verdict; the juez decides.
 *
 * Which claim is protested is asked, with nothing chosen beforehand: the
 * list holds exactly the plays the engine says the protester may name now
 * (the rulings decide which: see Referee.protestable), each previewed upheld
 * and rejected; none, and the dialog says so and decides nothing.
 * Comprobado and Rechazado wait until the juez has chosen. */

import { api } from "./net.js";
import { claimPreview, previewIsNext, protestable } from "./preview.js";
import { take } from "./queue.js";
import { showRefusal } from "./refusal.js";
import { cfg, sortedEntries } from "./state.js";
import { listOf, watch } from "./dialogs.js";
import { describe, label, messageNodes, pairName, t } from "./words.js";

const dlg = document.getElementById("dlg-jyv");
let jyv = null;

/* The log's entries of the plays the protester may name now. */
function protests(protester) {
  const bySeq = new Map(sortedEntries().map((e) => [e.seq, e]));
  return protestable(protester).filter((seq) => bySeq.has(seq)).map((seq) => bySeq.get(seq));
}

export function openJyv(protester) {
  jyv = { protester, table: [], played: null, previous: null, taken: [], target: "table" };
  dlg.querySelector(".jyv-protester").textContent = pairName(protester);
  dlg.querySelector(".jyv-result").textContent = "";
  const box = dlg.querySelector(".jyv-against");
  box.textContent = "";
  const options = protests(protester).map((e) => ["" + e.seq, "#" + e.seq + " " + describe(e.claim)]);
  if (!options.length) {
    const none = document.createElement("p");
    none.className = "jyv-nothing mb-0";
    none.textContent = t("jyv.nothing");
    box.appendChild(none);
  }
  options.forEach(([value, text], i) => {
    const row = document.createElement("div");
    row.className = "form-check";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "against";
    input.value = value;
    input.id = "jyv-against-" + i;
    input.className = "form-check-input";
    input.addEventListener("change", drawChoice);
    const lbl = document.createElement("label");
    lbl.className = "form-check-label";
    lbl.htmlFor = input.id;
    lbl.textContent = text;
    row.appendChild(input);
    row.appendChild(lbl);
    box.appendChild(row);
  });
  draw();
  drawChoice();
  dlg.showModal();
  watch(dlg);
}

function chosen() {
  const picked = dlg.querySelector("input[name=against]:checked");
  return picked ? picked.value : null;
}

function drawChoice() {
  const none = chosen() === null;
  dlg.querySelectorAll("[data-confirm=upheld], [data-confirm=rejected]").forEach((b) => { b.disabled = none; });
  dlg.querySelector(".jyv-choose").hidden = !none || !dlg.querySelector("input[name=against]");
}

function draw() {
  dlg.querySelectorAll("[data-target]").forEach((b) => {
    const on = b.dataset.target === jyv.target;
    b.classList.toggle("active", on);
    b.setAttribute("aria-checked", on ? "true" : "false");
  });
  ["table", "played", "previous", "taken"].forEach((name) => {
    const dd = dlg.querySelector("[data-show=" + name + "]"), cards = [].concat(jyv[name] || []);
    dd.textContent = "";
    cards.forEach((rank, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn card-chip";
      b.textContent = rank;
      b.setAttribute("aria-label", t("jyv.remove", { card: rank }));
      b.addEventListener("click", () => {
        if (Array.isArray(jyv[name])) jyv[name].splice(i, 1); else jyv[name] = null;
        draw();
      });
      dd.appendChild(b);
    });
  });
}

dlg.querySelectorAll("[data-target]").forEach((b) => {
  b.addEventListener("click", () => { jyv.target = b.dataset.target; draw(); });
});
dlg.querySelectorAll("[data-rank]").forEach((b) => {
  b.addEventListener("click", () => {
    const rank = b.dataset.rank;
    if (Array.isArray(jyv[jyv.target])) jyv[jyv.target].push(rank); else jyv[jyv.target] = rank;
    // The previous card is the one still lying on the table (Art. 6).
    if (jyv.target === "previous" && jyv.table.indexOf(rank) < 0) jyv.table.push(rank);
    // After the card played, the next taps most likely name the cards taken.
    if (jyv.target === "played" || jyv.target === "previous") jyv.target = jyv.target === "played" ? "taken" : "table";
    draw();
  });
});

dlg.querySelector("[data-jyv=check]").addEventListener("click", () => {
  const out = dlg.querySelector(".jyv-result");
  if (!jyv.played) { out.textContent = t("jyv.pick_played"); return; }
  const body = { mesa: cfg.mesa, table: jyv.table, played: jyv.played, previous: jyv.previous, taken: jyv.taken };
  api("POST", cfg.api.levante, body).then((r) => {
    if (r.status !== 200) { out.textContent = r.data.detail || t("jyv.check_failed"); return; }
    showLevante(out, r.data);
  }, () => { out.textContent = t("jyv.check_failed"); });
});

/* The checker's answer: its verdict on the cards taken ("legal",
 * "incomplete" or "illegal", with the reason and article) and every legal
 * capture, marked with the plays it makes. */
function showLevante(out, data) {
  out.textContent = "";
  const verdict = data.verdict || {};
  const v = document.createElement("p");
  v.className = "verdict " + (verdict.verdict === "legal" ? "ok" : "bad");
  v.appendChild(document.createTextNode(t("jyv.verdict_" + verdict.verdict) + " "));
  messageNodes(verdict).forEach((node) => v.appendChild(node));
  out.appendChild(v);
  const captures = data.captures || [];
  out.appendChild(listOf(t("jyv.legal"), captures.length ? captures.map((c) => (
    // The capture's flags are named after the engine's plays: each one set is shown by its label.
    [c.cards.join(" ")].concat(Object.keys(c).filter((key) => c[key] === true).map(label)).join(" · ")
  )) : [t("jyv.none")]));
}

["upheld", "rejected"].forEach((outcome) => {
  dlg.querySelector("[data-confirm=" + outcome + "]").addEventListener("click", () => {
    const against = chosen();
    if (against === null) return;
    const claim = { kind: "juego_y_veo", pair: jyv.protester, upheld: outcome === "upheld", against: parseInt(against, 10) };
    const entry = previewIsNext() ? claimPreview(claim) : null;
    dlg.close();
    // Offered as the engine takes it; refused only if the mesa moved on meanwhile: then this tap logs nothing.
    if (entry && entry.refused) showRefusal(describe(claim) + ":", entry, { anyway: () => take(claim, { deliberate: true }) });
    else take(claim);
  });
});
