/* One clock: every time a page prints is the championship's, in its time zone (the venue's), whatever the
 * device's clock is set to. The server prints its own times in that zone (the shown_moment filter); the
 * times a page prints by itself (when it last heard from the server) come from here, in the zone the page
 * names on <html data-zone>. Where the device's zone gives another hour now, the zone is named: after each
 * such time (data-zone-label), and in the page's note (#zone-note). */

const root = document.documentElement;
const zone = root.dataset.zone;
const language = root.lang || undefined;
const SECOND = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
const HOUR = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit" };

function differs(date) {
  if (!zone) return false;
  try {
    const there = new Intl.DateTimeFormat("en", { ...HOUR, timeZone: zone }).format(date);
    return there !== new Intl.DateTimeFormat("en", HOUR).format(date);
  } catch (error) {
    return true; // a zone this browser does not know: name it
  }
}

/* The time of ``date`` (now) to the second, in the championship's zone, its zone named where the device's differs. */
export function clockTime(date = new Date()) {
  let time;
  try {
    // Hours 00-23, as the server prints its own (shown_moment's H:i).
    time = date.toLocaleTimeString(language, { ...(zone ? { timeZone: zone } : {}), ...SECOND });
  } catch (error) {
    return date.toISOString().slice(11, 19) + " UTC"; // a browser that knows no zone by name: UTC, said so
  }
  return differs(date) && root.dataset.zoneLabel ? `${time} (${root.dataset.zoneLabel})` : time;
}

const note = document.getElementById("zone-note");
if (note && differs(new Date())) note.hidden = false;
