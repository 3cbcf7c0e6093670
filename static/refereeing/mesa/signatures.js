/* The signatures at the end of the mesa (Art. 16): both pairs'
 * representatives and the juez sign with a finger, each in its box. */

import { api } from "./net.js";
import { cfg } from "./state.js";
import { t } from "./words.js";

document.querySelectorAll(".sign-card").forEach((form) => {
  const role = form.dataset.role, pad = new window.SignaturePad(form.querySelector("canvas"));
  const status = form.querySelector(".sign-status");
  function done(name) {
    form.classList.add("is-signed");
    form.querySelectorAll("input, button").forEach((el) => { el.disabled = true; });
    status.textContent = "✓ " + t("sign.done") + (name ? " · " + name : "");
  }
  if (cfg.signed[role]) done(cfg.signed[role]);
  form.querySelector("[data-sign=clear]").addEventListener("click", () => pad.clear());
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = form.signer.value.trim();
    if (!name) { status.textContent = t("sign.name"); return; }
    if (pad.isEmpty()) { status.textContent = t("sign.empty"); return; }
    api("POST", cfg.api.signatures, { role, name, image: pad.toDataURL() }).then((r) => {
      if (r.status === 200 || r.status === 201) done(name);
      else status.textContent = t("sign.failed") + " " + (r.data.detail || "");
    }, () => { status.textContent = t("sign.failed") + " " + t("net.offline"); });
  });
});
