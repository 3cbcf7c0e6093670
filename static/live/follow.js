/* Following a live stream (server-sent events), or polling where none can be opened.
 *
 * follow(url, handlers, {poll, pollMs, onState}) opens an EventSource on
 * url and calls handlers[name](data) for each event. The browser
 * reconnects by itself a second after a drop (the server asks for that), and
 * the server's first events after a reconnection bring the page up to date.
 * Where no stream can be had (no EventSource, or the server answered with
 * something else: a proxy, a busy server's 503), poll() runs every pollMs
 * instead, and the stream is tried again after a minute.
 * onState(true|false) says whether the stream is open. Returns a function
 * that stops following. */

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
  function open() {
    if (stopped) return;
    if (!window.EventSource) { startPolling(); return; }
    source = new EventSource(url);
    source.addEventListener("open", () => { stopPolling(); if (onState) onState(true); });
    Object.keys(handlers).forEach((name) => {
      source.addEventListener(name, (e) => handlers[name](JSON.parse(e.data)));
    });
    source.addEventListener("error", () => {
      if (onState) onState(false);
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        if (poll) poll();
        startPolling();
        retry = setTimeout(open, RETRY_STREAM_MS);
      }
    });
  }
  open();
  return () => {
    stopped = true;
    stopPolling();
    clearTimeout(retry);
    if (source) source.close();
  };
}
