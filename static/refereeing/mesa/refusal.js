/* Refusals: in words, over the board (the buttons never move), until the
 * juez taps "Entendido". Each comes with a sound (two low tones, unlike
 * anything else the screen plays) and a vibration where the device has
 * one; both can be switched off in the screen's settings, kept on the tablet
 * for every mesa.
 *
 * anyway    A claim the engine would refuse is not logged by the tap that
 *           asked for it: its refusal is shown with "Anotarla igual", the
 *           second, deliberate confirmation that logs it (a pair may want
 *           its refused claim on record, for an appeal). The offer takes no
 *           tap for the double-tap window, and it is withdrawn once the
 *           mesa moves on: it answered the mesa as it was. */

import { hush } from "./guard.js";
import { onChange, st } from "./state.js";
import { messageNodes } from "./words.js";

const box = document.getElementById("refusal");
const text = box.querySelector(".refusal-text");
const anyway = box.querySelector("[data-action=anyway]");
let offer = null;   // {log, at}: what "Anotarla igual" logs, and the mesa it was offered on
// One choice for every mesa this tablet opens.
const SETTINGS = "mesa.settings";
export const settings = { sound: true, vibrate: true };
try { Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS)) || {}); } catch (e) { /* defaults */ }

/* Show `content` and the engine's words for `decision`; `options.anyway`, what logs the refused claim all the same. */
export function showRefusal(content, decision, options) {
  text.textContent = content ? content : "";
  if (decision) {
    if (content) text.appendChild(document.createTextNode(" "));
    messageNodes(decision).forEach((node) => text.appendChild(node));
  }
  offer = options && options.anyway ? { log: options.anyway, at: st.server.last_seq } : null;
  anyway.hidden = !offer;
  box.hidden = false;
  alertJuez();
  if (offer) hush();
}

export function hideRefusal() {
  box.hidden = true;
  offer = null;
}

export function refusalShown() { return !box.hidden; }

box.querySelector("[data-action=ack]").addEventListener("click", hideRefusal);
// The messages of the page that led here (an appeal filed, the mesa started), over the board until read.
document.querySelectorAll("[data-action=dismiss]").forEach((button) => {
  button.addEventListener("click", () => button.closest(".notice").remove());
});
anyway.addEventListener("click", () => {
  const logged = offer;
  hideRefusal();
  if (logged) logged.log();
});

onChange(() => {
  if (offer && (st.server.last_seq !== offer.at || st.queue.length)) {
    offer = null;
    anyway.hidden = true;
    hush();
  }
});

let audio = null;
function alertJuez() {
  if (settings.vibrate && navigator.vibrate) navigator.vibrate([180, 90, 180]);
  if (!settings.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    [[330, 0], [220, 0.2]].forEach(([freq, at]) => {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, audio.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + at + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.2);
    });
  } catch (e) { /* no audio on this device: the red box says it */ }
}

/* The settings dialog: two switches. */
const dlg = document.getElementById("dlg-settings");
document.querySelector("[data-open=settings]").addEventListener("click", () => {
  dlg.querySelectorAll("input[type=checkbox]").forEach((box) => { box.checked = settings[box.name]; });
  dlg.showModal();
});
dlg.querySelectorAll("input[type=checkbox]").forEach((input) => {
  input.addEventListener("change", () => {
    settings[input.name] = input.checked;
    try { localStorage.setItem(SETTINGS, JSON.stringify(settings)); } catch (e) { /* kept in memory */ }
  });
});
