/* Drawing the screen from what it knows. Nothing here moves a button:
 * banners and refusals sit over the board (see mesa.css), the connection
 * line has its place in the status bar, and a tapped button shows its claim
 * pending (is-pending) from the moment of the tap until the server answers. */

import { board, isProvisional } from "./preview.js";
import { appealHolding } from "./appeals.js";
import { hush } from "./guard.js";
import { cfg, sortedEntries, st, voidedSeqs } from "./state.js";
import { claimKey } from "./queue.js";
import { describe, messageNodes, pairName, pointsText, t } from "./words.js";

const screen = document.getElementById("screen");
const $ = (sel, root) => (root || document).querySelector(sel);
const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

/* The engine's chips of a score (Art. 14: its perros and tantos, state.chips). */
function chips(box, counted) {
  box.textContent = "";
  if (!counted) return;
  for (let i = 0; i < counted.perros; i++) box.appendChild(chip("perro"));
  for (let j = 0; j < counted.tantos; j++) box.appendChild(chip("tanto"));
}
function chip(kind) {
  const el = document.createElement("span");
  el.className = "chip " + kind;
  return el;
}

let lastOffered = null;

export function render() {
  const state = st.server.state;
  screen.dataset.loading = state ? "" : "1";
  renderNet();
  renderPending();
  if (!state) return;
  const shown = board();
  const provisional = isProvisional();
  screen.classList.toggle("is-provisional", provisional);
  $(".provisional").hidden = !provisional;
  renderPendingCount(shown.pending);
  // The centre panel: the mano in play, or the data dealt next, and the step expected (the engine's).
  const counters = state.counters || {};
  ["A", "B"].forEach((side) => {
    const card = $(".pair-card[data-side=" + side + "]");
    // The chips are those of the score the server confirmed: a provisional score has none yet.
    chips($(".chips", card), (state.chips || {})[side]);
    $(".score-num", card).textContent = shown.scores[side];
    $(".chicas-num", card).textContent = shown.chicas[side];
    $(".dealer-chip", card).hidden = !counters.dealer || counters.dealer.charAt(0) !== side;
    card.classList.toggle("is-winner", shown.winner === side);
  });
  $("#st-chica").textContent = counters.chica || "–";
  $("#st-data").textContent = counters.data || "–";
  $("#st-mano").textContent = counters.mano || "–";
  $("#st-dealer").textContent = counters.dealer ? (cfg.seats[counters.dealer] || "") + " (" + counters.dealer + ")" : "?";
  const holding = appealHolding();
  const step = "next." + state.next;
  // With claims waiting, the step after them is not known yet.
  $("#st-phase").textContent = (provisional && st.queue.length) || !cfg.strings[step] ? "" : t(step);
  screen.classList.toggle("is-suspended", !!state.suspended);
  screen.classList.toggle("is-appeal", !!holding);
  screen.classList.toggle("is-finished", !!state.finished);
  // The step the engine expects (deal, play, mano, last_mano, conteo...): the page's highlights follow it.
  screen.dataset.next = state.next || "";
  $("[data-claim=suspender]").hidden = !!state.suspended;
  // Suspended for an appeal: only the Director's ruling resumes the mesa.
  $("[data-claim=reanudar]").hidden = !state.suspended || !!holding;
  $("#controls").hidden = !!state.finished;
  // Buttons shown or hidden under a finger on its way (Reanudar where Suspensión was): none takes that tap.
  const offered = [!!state.suspended, !!holding, !!state.finished].join();
  if (lastOffered !== null && offered !== lastOffered) hush();
  lastOffered = offered;
  $("#signatures").hidden = !state.finished;
  renderBanner(state, holding);
  renderLog();
}

/* Under PROVISIONAL: how many waiting claims the engine has not answered yet. */
function renderPendingCount(pending) {
  const box = $(".provisional");
  let count = $(".provisional-pending", box);
  if (!count) {
    count = document.createElement("span");
    count.className = "provisional-pending";
    box.appendChild(count);
  }
  count.textContent = pending ? " · " + t("board.pending", { count: pending }) : "";
}

function renderNet() {
  const net = $("#net");
  net.textContent = "";
  const status = document.createElement("span");
  status.className = "net-status " + (st.online ? "on" : "off");
  status.textContent = st.online ? t("net.online") : t("net.offline");
  net.appendChild(status);
  const slot = document.createElement("span");
  slot.className = "net-slot";
  net.appendChild(slot);
  // The slot is as wide as its words with two digits, in the page's language.
  net.style.setProperty("--net-slot", "calc(" + t("net.waiting", { count: 99 }).length + "ch + 1.4rem)");
  if (st.queue.length) {
    const waiting = document.createElement("span");
    waiting.className = "net-waiting";
    waiting.textContent = t("net.waiting", { count: st.queue.length });
    slot.appendChild(waiting);
  }
  screen.classList.toggle("is-offline", !st.online);
}

function renderPending() {
  const pending = {};
  st.queue.forEach((item) => { pending[claimKey(item.claim)] = true; });
  $$("#controls [data-claim]").forEach((button) => {
    const on = !!pending[button.dataset.claim + ":" + (button.dataset.pair || "")];
    button.classList.toggle("is-pending", on);
    button.setAttribute("aria-busy", on ? "true" : "false");
  });
  $$("#controls [data-open=conteo]").forEach((button) => {
    const on = !!pending["conteo:"];
    button.classList.toggle("is-pending", on);
    button.setAttribute("aria-busy", on ? "true" : "false");
  });
}

function renderBanner(state, holding) {
  const banner = $("#banner");
  const results = state.chica_results || [];
  const last = results[results.length - 1];
  let text = "", kind = "";
  if (state.finished && state.winner) {
    text = t(state.zapateria ? "banner.mesa_zapateria" : "banner.mesa", { pair: pairName(state.winner) });
    kind = "mesa";
  } else if (state.suspended && holding) {
    text = t("banner.appeal");
    kind = "appeal";
  } else if (state.suspended) {
    text = t("banner.suspended");
    kind = "suspended";
  } else if (last && state.ended === "chica") {
    text = t("banner.chica", { pair: pairName(last.winner) }) + " (" + last.scores.A + "–" + last.scores.B + ")";
    if (last.zapatero) text += " · " + t("rule.zapatero", { pair: pairName(last.zapatero) });
    kind = "chica";
  }
  banner.hidden = !text;
  banner.textContent = text;
  banner.className = "banner banner-" + kind;
}

function renderLog() {
  const ol = $("#log"), voided = voidedSeqs();
  ol.textContent = "";
  st.queue.slice().reverse().forEach((item) => {
    ol.appendChild(logItem("…", describe(item.claim), [document.createTextNode(t("log.waiting"))], "is-waiting"));
  });
  const list = sortedEntries().reverse().slice(0, 12);
  list.forEach((e) => {
    const d = e.decision;
    let cls = "", note;
    if (voided[e.seq]) {
      // Undone: that, and by which claim; not a refusal, whatever the engine's replay says.
      cls = "is-voided";
      note = [document.createTextNode(t("log.voided_by", { seq: voided[e.seq] }))];
    } else if (!d.accepted) {
      cls = "is-refused";
      note = messageNodes(d);
    } else {
      note = [document.createTextNode(pointsText(d.points))];
      // An accepted claim with a code carries a note worth reading (a chica won, 38 que no juega).
      if (d.code) {
        if (note[0].textContent) note.push(document.createTextNode(" · "));
        note = note.concat(messageNodes(d));
      }
    }
    ol.appendChild(logItem("#" + e.seq, describe(e.claim), note, cls));
  });
  if (!st.queue.length && !list.length) ol.appendChild(logItem("", t("log.empty"), [], "is-empty"));
}

function logItem(num, what, noteNodes, cls) {
  const li = document.createElement("li");
  li.className = "log-item " + (cls || "");
  [["log-seq", num], ["log-what", what]].forEach(([name, text]) => {
    const span = document.createElement("span");
    span.className = name;
    span.textContent = text;
    li.appendChild(span);
  });
  const note = document.createElement("span");
  note.className = "log-note";
  noteNodes.forEach((node) => note.appendChild(node));
  li.appendChild(note);
  return li;
}
