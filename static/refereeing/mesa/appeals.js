/* Appeals at the table (Art. 17). The server lists the mesa's appeals the
 * pairs have not acknowledged yet. While the Director holds one (admitted),
 * the mesa is suspended for it: the banner says so and no Reanudar is
 * offered. When the Director decides, the ruling opens over the board and
 * stays until the pairs acknowledge it there ("Enterados"). */

import { hush } from "./guard.js";
import { api } from "./net.js";
import { showRefusal } from "./refusal.js";
import { cfg, changed, saveSnapshot, st } from "./state.js";
import { pairName, t } from "./words.js";

const DECIDED = ["upheld", "rejected", "not_admitted"];
const dlg = document.getElementById("dlg-ruling");
// Rulings acknowledged here: a poll sent before the acknowledgement reached the server still lists them, and
// without this it opened the ruling again over the board once the pairs had closed it.
const acknowledged = new Set();

export function appealHolding() {
  return st.appeals.find((a) => a.status === "admitted") || null;
}

/* Open the ruling of the first decided appeal not acknowledged yet. */
export function showRuling() {
  const appeal = st.appeals.find((a) => DECIDED.includes(a.status) && !acknowledged.has(a.id));
  if (!appeal || dlg.open) return;
  dlg.dataset.appeal = appeal.id;
  dlg.querySelector(".ruling-title").textContent = t("ruling.title", {
    pair: pairName(appeal.pair), seq: appeal.seq, outcome: appeal.status_label,
  });
  dlg.querySelector(".ruling-text").textContent = appeal.ruling;
  dlg.showModal();
  hush();
}

dlg.querySelector("[data-action=ack-ruling]").addEventListener("click", () => {
  const id = Number(dlg.dataset.appeal);
  api("POST", cfg.api.appeals, { appeal: id }).then((r) => {
    if (r.status !== 200) { showRefusal(r.data.detail || t("net.error", { status: r.status })); return; }
    acknowledged.add(id);
    st.appeals = st.appeals.filter((a) => a.id !== id);
    saveSnapshot();
    dlg.close();
    changed();
  }, () => showRefusal(t("ruling.offline")));
});
