/* The control board: its rows (with the jueces and the PINs' state, which
 * no stream carries) are fetched again whenever the championship's stream
 * says a mesa changed, at most once a second; without a stream, every 5 s. */

import { clockTime } from "../js/clock.js";
import { follow } from "../live/follow.js";

const body = document.querySelector("tbody[data-refresh]");
const stamp = document.getElementById("board-updated");
const flags = document.getElementById("board-flags");
let fetching = null;

/* The pace, the idle tables and the mesas waiting for a place come with the rows, in a template. */
function showFlags() {
  const fresh = body.querySelector("template.board-flags");
  if (fresh && flags) flags.replaceChildren(fresh.content.cloneNode(true));
}
let again = false;

async function refresh() {
  if (fetching) { again = true; return; }
  fetching = fetch(body.dataset.refresh, { credentials: "same-origin" })
    .then((r) => { if (!r.ok) throw new Error(r.status); return r.text(); })
    .then((html) => { body.innerHTML = html; showFlags(); if (stamp) stamp.textContent = clockTime(); })
    .catch(() => { if (stamp) stamp.textContent = "⚠"; });
  await fetching;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  fetching = null;
  if (again) { again = false; refresh(); }
}

// Overdue mesas are a matter of the clock, which no stream announces.
const CLOCK_MS = 60000;

if (body) {
  setInterval(refresh, CLOCK_MS);
  follow(body.dataset.stream, { rows: refresh, reload: refresh }, {
    poll: refresh,
    pollMs: 5000,
    onState: (state) => { body.dataset.live = state; },
  });
}
