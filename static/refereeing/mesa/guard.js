/* No tap falls through: a tap means what was under the finger when the
 * juez looked.
 *
 * fall-through  A tap lands, within DOUBLE_TAP_MS of the one before and
 *           where that one landed, on another control than it did: the
 *           first tap closed a dialog, opened one or showed something over
 *           the place, and the second was meant for what is gone. It is
 *           dropped. Two taps on one control (a key of the conteo's keypad,
 *           a claim button) reach it both times: the control decides (the
 *           keypad types the key twice, a claim button's twin logs nothing,
 *           see queue.js).
 * hush      What the screen changed by itself (a dialog closed because the
 *           mesa changed, a question asked after a conflict, a claim's
 *           refusal offered for a deliberate confirmation, buttons shown or
 *           hidden by a suspension) takes no tap anywhere for DOUBLE_TAP_MS:
 *           a finger already on its way meant something else. While hushed
 *           the page carries `data-settling` on its root.
 * Times are the page's clock (Date.now), which a test may drive. */

export const DOUBLE_TAP_MS = 800;

const CONTROLS = "button, a[href], input, select, textarea, label, [role=radio], [role=button]";
const root = document.documentElement;
let last = null;            // the last tap on a control: {control, rect, at}
let hushedUntil = 0;
let timer = null;

/* The control a tap is on: a label and its input are one control (a tap on the label clicks the input too). */
function controlOf(target) {
  const control = target instanceof Element ? target.closest(CONTROLS) : null;
  if (control && control.labels && control.labels.length) return control.labels[0];
  return control;
}

// A finger's second tap lands a few pixels off its first.
const SLACK = 12;

function within(rect, x, y) {
  return x >= rect.left - SLACK && x <= rect.right + SLACK && y >= rect.top - SLACK && y <= rect.bottom + SLACK;
}

export function hush() {
  hushedUntil = Date.now() + DOUBLE_TAP_MS;
  root.dataset.settling = "1";
  clearTimeout(timer);
  timer = setTimeout(function lift() {
    // Timers may run early or late against the page's clock: lift only once it has passed.
    const left = hushedUntil - Date.now();
    if (left > 0) { timer = setTimeout(lift, left); return; }
    delete root.dataset.settling;
  }, DOUBLE_TAP_MS);
}

export function hushed() { return Date.now() < hushedUntil; }

document.addEventListener("click", (event) => {
  const control = controlOf(event.target);
  if (!control) return;
  const now = Date.now();
  // A click with no pointer (the keyboard's Enter, a label's click forwarded to its input) is no tap of a finger.
  const pointed = event.detail > 0;
  const fellThrough = pointed && last && now - last.at < DOUBLE_TAP_MS && control !== last.control
    && within(last.rect, event.clientX, event.clientY);
  if (hushed() || fellThrough) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  if (pointed) last = { control, rect: control.getBoundingClientRect(), at: now };
}, true);
