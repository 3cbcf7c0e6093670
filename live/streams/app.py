"""Serving the live streams as server-sent events, in front of Django (``config/asgi.py``).

Endpoints (``live.paths``)
--------------------------
``GET /flujo/mesa/<id>/``
    A mesa's devices: the seq of its log. The first event is the seq now,
    so a device back from a drop learns at once whether it missed claims,
    and fetches them from the API (``refereeing.claimlog.api``).
``GET /flujo/campeonato/<id>/?vista=tablero|proyector|llaves&lang=es-ec|en&mesas=1,2``
    The public pages: the rows of the mesas (``mesas``: only those, at most
    ``fragments.MAX_FOLLOWED``), as HTML in the page's language and view
    (the bracket's: each mesa's match as JSON); the projector also gets its
    calls to tables. The first events are a snapshot of every
    row the page shows (and the calls), which covers whatever changed while
    it was away; a ``reload`` event asks the page to fetch itself again.

Rules
-----
- Events are ``event: <name>`` with one line of JSON; ``retry: 1000``
  makes the browser reconnect one second after a drop.
- Pings, and the end of a stream that stopped reading: ``hub``.
- At most ``STREAMS_PER_WORKER`` per process (``config.asgi``; fewer when its open files are
  fewer: ``config.serving.stream_cap``): more get 503 with ``Retry-After``,
  and the page polls instead. Bad input is a 4xx in plain text, never a
  stream.
"""

import asyncio
import logging
from urllib.parse import parse_qs

from django.conf import settings
from django.db import DatabaseError

from live import paths
from public import fragments
from tournament.models import Mesa

from .hub import BoardStream, MesaStream, board_events, current_hub, event, in_thread

logger = logging.getLogger(__name__)

MAX_QUERY = 1024
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    # A proxy in front must pass each event on as it comes (nginx reads this).
    (b"x-accel-buffering", b"no"),
    # Pages served from another address than the streams (STREAMS_URL) may
    # read them: a stream carries nothing private, and no cookie goes with it.
    (b"access-control-allow-origin", b"*"),
]


class BadRequest(Exception):
    def __init__(self, status, text):
        self.status, self.text = status, text


class Streams:
    """The ASGI application: the streams under ``live.paths.PREFIX``, everything else to ``app``."""

    def __init__(self, app, most):
        self.app = app
        self.most = most
        self.open = 0
        self.snapshots = {}  # (championship, view, language): (generation, task rendering its pieces)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope["path"].startswith(paths.PREFIX):
            return await self.app(scope, receive, send)
        if scope["method"] != "GET":
            return await _plain(send, 405, "Streams are read with GET.")
        if self.open >= self.most:
            return await _plain(send, 503, "Too many streams here now: poll instead.")
        # The place is taken before anything is awaited: counted after the
        # first events were read, 5,176 streams got in under a cap of 5,000.
        self.open += 1
        try:
            try:
                stream, first = await self.start(scope)
            except BadRequest as refusal:
                return await _plain(send, refusal.status, refusal.text)
            try:
                await self.serve(stream, first, receive, send)
            finally:
                current_hub().leave(stream)
        finally:
            self.open -= 1

    async def start(self, scope):
        """The stream a request asks for and its first events, or :class:`BadRequest`."""
        if len(scope.get("query_string", b"")) > MAX_QUERY:
            raise BadRequest(400, "The query is too long.")
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if match := paths.MESA.match(scope["path"]):
            stream = MesaStream(int(match[1]))
            seq = await self.joined(stream, in_thread(_last_seq, stream.mesa_id))
            if seq is None:
                current_hub().leave(stream)
                raise BadRequest(404, "No such mesa.")
            return stream, [event("seq", {"seq": seq}, seq)]
        if match := paths.CHAMPIONSHIP.match(scope["path"]):
            return await self.start_board(int(match[1]), query)
        raise BadRequest(404, "No such stream.")

    async def start_board(self, championship_id, query):
        view = _one(query, "vista", fragments.BOARD)
        language = _one(query, "lang", settings.LANGUAGE_CODE)
        if view not in fragments.VIEWS:
            raise BadRequest(400, "vista: " + ", ".join(fragments.VIEWS) + ".")
        if language not in dict(settings.LANGUAGES):
            raise BadRequest(400, "lang: one of " + ", ".join(dict(settings.LANGUAGES)) + ".")
        mesa_ids = None
        if "mesas" in query:
            try:
                mesa_ids = {int(pk) for pk in _one(query, "mesas", "").split(",") if pk}
            except ValueError:
                raise BadRequest(400, "mesas: mesa ids separated by commas.") from None
            if len(mesa_ids) > fragments.MAX_FOLLOWED:
                raise BadRequest(400, f"mesas: at most {fragments.MAX_FOLLOWED}.")
        stream = BoardStream(championship_id, view, language, mesa_ids)
        pieces, every_row = await self.joined(stream, self.snapshot(championship_id, view, language))
        if pieces is None:
            current_hub().leave(stream)
            raise BadRequest(404, "No such championship.")
        stream.offer_pieces(pieces, every_row)
        first = []
        while not stream.queue.empty():
            first.append(stream.queue.get_nowait())
        return stream, first

    async def joined(self, stream, reading):
        """``await reading`` (the stream's first events) with ``stream`` already in the hub, so that no change made
        while they are read is missed; out of it again if reading them fails. A database that does not answer is a
        503, as on the pages (``config.errors``), for the tablets' streams as for the boards'."""
        hub = current_hub()
        hub.join(stream)
        try:
            return await reading
        except BaseException as error:
            hub.leave(stream)
            if isinstance(error, DatabaseError):
                logger.error("A stream could not read its first events: %s", error)
                raise BadRequest(503, "The database is not answering now: poll instead.") from error
            raise

    async def snapshot(self, championship_id, view, language):
        """Every row of the championship in one view and language, and its events for a board that shows them all
        (``hub.board_events``); rendered and encoded once per change, however many ask. (None, None): no such
        championship."""
        key = (championship_id, view, language)
        generation = current_hub().generation[championship_id]
        cached = self.snapshots.get(key)
        if cached is None or cached[0] != generation or cached[1].get_loop() is not asyncio.get_running_loop():
            cached = (generation, asyncio.ensure_future(_snapshot(championship_id, key[1:])))
            self.snapshots[key] = cached
        try:
            return await asyncio.shield(cached[1])
        except Exception as error:
            self.snapshots.pop(key, None)
            raise BadRequest(503, "The rows cannot be read now: poll instead.") from error

    async def serve(self, stream, first, receive, send):
        writer = asyncio.current_task()

        async def watch():
            while (await receive())["type"] != "http.disconnect":
                pass
            writer.cancel()

        watcher = asyncio.ensure_future(watch())
        stream.writer = writer
        try:
            await self.write(stream, send, {"type": "http.response.start", "status": 200, "headers": HEADERS})
            await self.write(stream, send, _body(b"retry: 1000\n\n" + b"".join(first)))
            while not stream.overflowed:
                await self.write(stream, send, _body(await stream.queue.get()))
            await self.write(stream, send, {"type": "http.response.body", "body": b""})
        except (asyncio.CancelledError, OSError):
            pass  # the client left, or stopped reading (the hub ended it): nothing more to send it
        finally:
            watcher.cancel()

    async def write(self, stream, send, message):
        """``send(message)``, timed for the hub's watch over writes that wait."""
        loop = asyncio.get_running_loop()
        stream.writing_since = loop.time()
        await send(message)
        stream.writing_since, stream.wrote_at = None, loop.time()


async def _snapshot(championship_id, view):
    pieces = (await in_thread(fragments.render, championship_id, None, {view})).get(view)
    return pieces, None if pieces is None else board_events(pieces)


def _body(chunk):
    return {"type": "http.response.body", "body": chunk, "more_body": True}


def _last_seq(mesa_id):
    return Mesa.objects.filter(pk=mesa_id).values_list("last_seq", flat=True).first()


def _one(query, name, default):
    values = query.get(name)
    return values[0] if values else default


async def _plain(send, status, text):
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *([(b"retry-after", b"10")] if status == 503 else []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
