/* The live bracket: brackets-viewer draws the championship's data
 * (tournament/draws/bracket_drawing.py) with its connectors, and the
 * championship's stream (vista=llaves) pushes each changed mesa's match.
 * A score moving redraws in place; a result (pairs move on, a reset is
 * voided) or a new draw fetches the whole bracket again. Without a stream
 * the page fetches it every 10 s. */

import { clockTime } from "../js/clock.js";
import { follow } from "../live/follow.js";

const root = document.getElementById("bracket");
const stamp = document.getElementById("board-updated");
const viewer = window.bracketsViewer;
let data = JSON.parse(document.getElementById("bracket-data").textContent);
const words = JSON.parse(document.getElementById("bracket-words").textContent);
const COMPLETED = 4;

function draw() {
  return viewer.render(data, { selector: "#bracket", clear: true, participantOriginPlacement: "none", showSlotsOrigin: false });
}

function stamped(ok) {
  if (stamp) stamp.textContent = (ok ? "" : "⚠ ") + clockTime();
}

async function refresh() {
  try {
    const response = await fetch(root.dataset.refresh, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.status);
    data = await response.json();
    await draw();
    stamped(true);
  } catch (error) {
    stamped(false);
  }
}

function rows(matches) {
  let moved = false;
  Object.values(matches).forEach((match) => {
    const index = data.matches.findIndex((m) => m.id === match.id);
    const old = data.matches[index];
    if (index < 0 || match.status === COMPLETED || old.opponent1.id !== match.opponent1.id || old.opponent2.id !== match.opponent2.id) {
      moved = true;
      return;
    }
    data.matches[index] = match;
  });
  if (moved) refresh();
  else draw().then(() => stamped(true));
}

// Under the language alone ("es"): i18next looks for "es-EC", then "es", then English.
// The time shown is when this screen received the bracket (the page's bytes are the same for everyone).
viewer.addLocale(document.documentElement.lang.split("-")[0], words).then(draw).then(() => stamped(true));
follow(root.dataset.stream, { rows, reload: () => setTimeout(refresh, Math.random() * 3000) }, {
  poll: refresh,
  pollMs: 10000,
  onState: (state) => { root.dataset.live = state; if (state === "offline") stamped(false); },
});
