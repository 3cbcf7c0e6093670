/* Following a live stream (server-sent events), or polling where none can be opened.
 *
 * follow(url, handlers, {poll, pollMs, onState}) opens an EventSource on
 * url and calls handlers[name](data) for each event. The browser
 * reconnects by itself a second after a drop (the server asks for that), and
 * the server's first events after a reconnection bring the page up to date.
 * Where no stream can be had (no EventSource, or the server answered with
 * something else: a proxy, a busy server's 503), poll() runs every pollMs
 * instead, and the stream is tried again after a minute.
 * onState(state) says how the page keeps up: "stream" (open), "offline"
 * (dropped, the browser retrying) or "polling". Returns a function that
 * stops following. */

const RETRY_STREAM_MS = 60000;

export function follow(url, handlers, { poll, pollMs, onState }) {
  let source = null;
  let polling = null;
  let retry = null;
  let stopped = false;

  function startPolling() {
    if (polling === null && poll) polling = setInterval(poll, pollMs);
  }
  function stopPolling() {
    clearInterval(polling);
    polling = null;
  }
  function say(state) {
    if (onState) onState(state);
  }
  function open() {
    if (stopped) return;
    if (!window.EventSource) { startPolling(); say("polling"); return; }
    source = new EventSource(url);
    source.addEventListener("open", () => { stopPolling(); say("stream"); });
    Object.keys(handlers).forEach((name) => {
      source.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED) { say("offline"); return; }
      source = null;
      say("polling");
      if (poll) poll();
      startPolling();
      retry = setTimeout(open, RETRY_STREAM_MS);
    });
  }
  // A device that knows it lost the network drops the stream at once, and
  // opens a new one the moment the network is back rather than at its next
  // retry; the new one's first events bring the page up to date.
  function offline() {
    if (source) { source.close(); source = null; }
    say("offline");
  }
  function online() {
    if (!source && polling === null && !stopped) open();
  }
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);
  open();
  return () => {
    window.removeEventListener("offline", offline);
    window.removeEventListener("online", online);
    stopped = true;
    stopPolling();
    clearTimeout(retry);
    if (source) source.close();
  };
}
