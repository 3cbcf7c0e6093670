/* The standings follow the championship's stream (the bracket's view,
 * whose events are small): when a mesa is decided, or the bracket itself
 * changes, the tables are fetched again, each page after a moment of its
 * own so that a result does not bring every phone at once. Without a
 * stream they are fetched every 15 s. */

import { clockTime } from "../js/clock.js";
import { follow } from "../live/follow.js";

const part = document.getElementById("standings");
const stamp = document.getElementById("board-updated");
const COMPLETED = 4;

async function refresh() {
  try {
    const response = await fetch(part.dataset.refresh, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.status);
    part.innerHTML = await response.text();
    stamp.textContent = clockTime();
  } catch (error) {
    stamp.textContent = "⚠ " + clockTime();
  }
}

// The time shown is when this screen received the tables (the page's bytes are the same for everyone).
stamp.textContent = clockTime();

function soon() {
  setTimeout(refresh, Math.random() * 2000);
}

follow(part.dataset.stream, {
  rows: (matches) => { if (Object.values(matches).some((m) => m.status === COMPLETED)) soon(); },
  reload: soon,
}, { poll: refresh, pollMs: 15000, onState: (state) => { part.dataset.live = state; } });
