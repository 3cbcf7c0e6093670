"""One process's share of the live updates: one subscription to the broker, handed out to its own streams.

Terms
-----
*Stream*: one open connection (``app``): a device of a mesa (``MesaStream``),
or a public page of a championship (``BoardStream``: the scoreboard, the
projector, a pair's page, each in one language, perhaps only some mesas).
*Event*: what a stream sends, ``(name, data)``: ``seq`` to a mesa's
devices; ``rows`` (the changed rows as HTML), ``calls`` (the projector's
band) and ``reload`` (the bracket itself changed) to the boards.

Rules
-----
- A mesa's devices hear of a change at once: its ``seq``, from which they
  fetch what they lack through the API that checks who they are. Nothing
  private travels on a stream.
- The boards hear of changes in batches, every ``BATCH_SECONDS``: each batch
  renders each changed row once per (view, language) watched in this
  process (``public.fragments``, in a thread: it reads the database), then
  every board stream gets one event with the rows it shows. The cost of a
  claim is then per process, not per spectator.
- After a quiet spell a process waits a random part of a batch (its
  ``lag``) before its first batch: every process hears of a change at the
  same moment, and in step they all handed out their batches at once,
  fighting for the same cores. Between batches it rests a whole
  ``BATCH_SECONDS``, so that batches grown long under load still leave the
  cores to the claims between them.
- A batch is handed out ``SLICE`` streams at a time, letting the event loop
  turn between slices: a worker holds a thousand boards, and handed out at
  once their writes held its loop for some 40 ms, in front of the tablets'
  seqs and the requests that arrived meanwhile (``benchmarks/live.py``).
- A comment line after ``PING_SECONDS`` of silence keeps proxies and the
  venue's routers from closing an idle connection, and tells the server a
  client has gone.
- A stream that does not read (a phone asleep on a full socket) fills its
  own queue of ``QUEUE_SIZE`` events and is closed, as is one whose write
  has waited more than ``SEND_SECONDS``; no other stream waits for it. It
  reconnects and starts again from a snapshot.
"""

import asyncio
import contextvars
import json
import logging
import random
import weakref
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

from live import broker
from public import fragments

logger = logging.getLogger(__name__)

BATCH_SECONDS = 0.25
PING_SECONDS = 15
SEND_SECONDS = 10
WATCH_SECONDS = 1
PING = b": ping\n\n"
QUEUE_SIZE = 64
SLICE = 50
ALL = None
# The streams read the database on at most this many threads of a worker, each holding one of its pooled
# connections while it reads (``config.settings``: 4 a worker), so that the views always find one. On Python's
# default executor (the cores + 4 threads: 6 on a 2-core server) the streams opening at once, as a venue's tablets
# do after a restart, could hold more connections than the pool has, and a claim then waited for one.
READERS = 2
_readers = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="stream-reads")


async def in_thread(function, *args):
    """``function(*args)`` on one of the streams' ``READERS`` threads, which gives back its database connection when
    done."""

    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()

    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_readers, context.run, run)


def event(name, data, event_id=None):
    """One server-sent event, as the bytes a stream writes."""
    lines = [f"event: {name}", f"data: {json.dumps(data, separators=(',', ':'))}"]
    if event_id is not None:
        lines.insert(0, f"id: {event_id}")
    return ("\n".join(lines) + "\n\n").encode()


def board_events(pieces, mesa_ids=None):
    """A batch's ``pieces`` for a board that shows ``mesa_ids`` (None: every mesa), as bytes (empty: nothing)."""
    rows = pieces["rows"]
    if mesa_ids is not None:
        rows = {pk: html for pk, html in rows.items() if pk in mesa_ids}
    chunk = event("rows", rows) if rows else b""
    if pieces["calls"] is not None:
        chunk += event("calls", pieces["calls"])
    return chunk


class Stream:
    def __init__(self):
        self.queue = asyncio.Queue(QUEUE_SIZE)  # the bytes of events still to write
        self.overflowed = False
        self.writer = None  # the task that writes it out (``live.streams.app``)
        self.writing_since = None  # the event loop's time its write in progress began
        self.wrote_at = None  # ... and its last write ended

    def offer(self, chunk):
        try:
            self.queue.put_nowait(chunk)
        except asyncio.QueueFull:
            self.overflowed = True


class MesaStream(Stream):
    def __init__(self, mesa_id):
        super().__init__()
        self.mesa_id = mesa_id


class BoardStream(Stream):
    def __init__(self, championship_id, view, language, mesa_ids=None):
        super().__init__()
        self.championship_id = championship_id
        self.view = view
        self.language = language
        self.mesa_ids = mesa_ids  # None: every mesa

    def offer_pieces(self, pieces, every_row=None):
        """``every_row``: ``board_events(pieces)``, encoded once for all the boards that show every mesa (the rows'
        JSON, made for each board, was 7% of the workers' time)."""
        chunk = every_row if every_row is not None and self.mesa_ids is None else board_events(pieces, self.mesa_ids)
        if chunk:
            self.offer(chunk)


class Hub:
    def __init__(self):
        self.mesas = defaultdict(set)
        self.boards = defaultdict(set)
        self.pending = {}  # championship id: set of mesa ids, or ALL
        self.generation = defaultdict(int)  # championship id: how many changes this process has heard of
        self.listening = None
        self.flushing = None
        self.watching = None
        self.lag = random.uniform(0, BATCH_SECONDS)

    def __len__(self):
        return sum(map(len, self.mesas.values())) + sum(map(len, self.boards.values()))

    def join(self, stream):
        loop = asyncio.get_running_loop()
        if self.listening is None or self.listening.done():
            self.listening = loop.create_task(self.listen())
        if self.watching is None or self.watching.done():
            self.watching = loop.create_task(self.watch())
        if isinstance(stream, MesaStream):
            self.mesas[stream.mesa_id].add(stream)
        else:
            self.boards[stream.championship_id].add(stream)

    def leave(self, stream):
        group, key = (
            (self.mesas, stream.mesa_id) if isinstance(stream, MesaStream) else (self.boards, stream.championship_id)
        )
        streams = group.get(key)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del group[key]

    def streams(self):
        for group in (self.mesas, self.boards):
            for streams in group.values():
                yield from streams

    async def watch(self):
        """Every ``WATCH_SECONDS`` while this process has streams: end those whose write has waited over
        ``SEND_SECONDS``, ping those that wrote nothing for ``PING_SECONDS``.

        One clock for all the streams: a timeout around each write and each
        wait cost a timer apiece, 8% of the workers' time.
        """
        loop = asyncio.get_running_loop()
        while len(self):
            await asyncio.sleep(WATCH_SECONDS)
            now = loop.time()
            for stream in self.streams():
                if stream.writing_since is not None:
                    if now - stream.writing_since > SEND_SECONDS:
                        stream.writer.cancel()
                elif stream.wrote_at is not None and now - stream.wrote_at >= PING_SECONDS:
                    stream.wrote_at = now  # one ping, not one a second while it is written
                    stream.offer(PING)

    async def listen(self):
        async for message in broker.subscribe():
            try:
                self.take(message)
            except (KeyError, TypeError, ValueError) as error:
                logger.error("Live updates: a malformed message %r (%s)", message, error)

    def take(self, message):
        championship_id, mesa_ids, seqs = message["c"], message["m"], message.get("s") or {}
        self.generation[championship_id] += 1
        for mesa_id in mesa_ids or ():
            seq = seqs.get(str(mesa_id))
            for stream in self.mesas.get(mesa_id, ()):
                stream.offer(event("seq", {"seq": seq}, seq))
        if championship_id not in self.boards:
            return
        pending = self.pending.get(championship_id, set())
        self.pending[championship_id] = ALL if mesa_ids is None or pending is ALL else pending | set(mesa_ids)
        if self.flushing is None or self.flushing.done():
            self.flushing = asyncio.get_running_loop().create_task(self.flush_soon())

    async def flush_soon(self):
        await asyncio.sleep(self.lag)
        while self.pending:  # what arrives while a batch is handed out goes out with the next one
            pending, self.pending = self.pending, {}
            await self.flush(pending)
            await asyncio.sleep(BATCH_SECONDS)

    async def flush(self, pending):
        for championship_id, mesa_ids in pending.items():
            streams = list(self.boards.get(championship_id, ()))
            if not streams:
                continue
            if mesa_ids is ALL:
                for stream in streams:
                    stream.offer(event("reload", {}))
                continue
            try:
                pieces = await in_thread(
                    fragments.render, championship_id, mesa_ids, {(s.view, s.language) for s in streams}
                )
            except Exception:  # a batch that cannot be rendered must not stop the next ones
                logger.exception("Live updates: could not render championship %s's rows", championship_id)
                continue
            every_row = {key: board_events(view_pieces) for key, view_pieces in pieces.items()}
            for n, stream in enumerate(streams, 1):
                key = (stream.view, stream.language)
                if key in pieces:
                    stream.offer_pieces(pieces[key], every_row[key])
                if n % SLICE == 0:
                    await asyncio.sleep(0)  # the slice's streams write, and whatever else waits runs


_hubs = weakref.WeakKeyDictionary()


def current_hub():
    """The hub of the running event loop: one per worker process (its one loop), made on its first stream."""
    return _hubs.setdefault(asyncio.get_running_loop(), Hub())
