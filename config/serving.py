"""Django's views behind the asyncio server: each request read whole first, then a bounded number of views at once.

Terms
-----
*Worker*: one gunicorn process running uvicorn's event loop
(``config/gunicorn.py``). *View slot*: the right to run Django (middleware
and view, in a thread) for one request.

Rules
-----
- The event loop reads a request's whole body before the request asks for
  a view slot: a client that sends slowly, stops halfway or leaves holds a
  socket, never a slot. A body over ``MAX_BODY`` is answered 413 at once,
  without being buffered.
- A worker runs at most ``VIEWS_PER_WORKER`` views at once (1 by default);
  the others wait on the event loop, costing nothing. Django's ASGI handler
  gives every request its own thread, and with it its own database
  connection: unbounded, 128 tablets on 4 workers opened 128 connections
  and PostgreSQL refused more ("too many clients"). One view at a time per
  worker also keeps the GIL from being shared among views, which was the
  claim endpoint's slowest requests with several threads per worker
  (``benchmarks/claims``).
- Django runs each request in one call on a long-lived thread of the
  worker (``DjangoInThreads``: one per view slot): the request signals, the
  middleware and the view, with no hop between the event loop and a thread
  inside it. Django's own ASGI handler made a thread (and so took a pooled
  database connection) per request, and its middleware chain, sync and
  async by turns, crossed between the loop and that thread five times more,
  and each request's new context had a new cache, so a new Redis
  connection to read its session. Profiled under the claim benchmark, those
  were the request's largest share beside the view (``benchmarks/RESULTS.md``, "The cost of a
  request").
- Anything but plain HTTP (lifespan) goes straight to the application. The
  live streams never reach this: ``live.streams.app`` serves them in front.
- A connection must send its whole request within ``REQUEST_SECONDS`` of
  opening it (or of beginning its next one); idle between requests, it is
  closed after gunicorn's ``keepalive``. Otherwise each tablet that walks
  away mid-request kept a socket, and with it an open file, for good.
- A worker raises its limit of open files to the hard limit at start, and
  answers 503 (uvicorn's ``limit_concurrency``) once its connections come
  within ``FILES_KEPT`` of it: at the limit, the event loop could accept no
  connection at all, and every client was reset with nothing logged. The
  streams get a cap below that (``stream_cap``), so that pages and the API
  still have connections when the streams are many.
"""

import asyncio
import resource
from concurrent.futures import ThreadPoolExecutor

from django.core import signals
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from config import environment

MAX_BODY = 10 * 1024 * 1024
SHUTDOWN_SECONDS = 3
VIEWS_PER_WORKER = environment.whole_number("VIEWS_PER_WORKER", 1, least=1)
REQUEST_SECONDS = environment.whole_number("REQUEST_SECONDS", 20, least=1)
# Files a worker opens beside its clients' connections: its pooled database
# connections, Redis, the listening socket, logs, templates, static files.
FILES_KEPT = 64
# Connections left to pages and the API when the streams reach their cap.
PAGE_CONNECTIONS = 100


class BoundedViews:
    def __init__(self, app, slots=VIEWS_PER_WORKER):
        self.app = app
        self.slots = slots
        self._semaphore = None  # made in the worker's event loop, on its first request

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if _declared_length(scope) > MAX_BODY:
            return await _too_large(send)
        messages, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before sending its request: nothing to answer
            messages.append(message)
            size += len(message.get("body", b""))
            if size > MAX_BODY:
                return await _too_large(send)
            if not message.get("more_body", False):
                break
        pending = iter(messages)

        async def replay():
            message = next(pending, None)
            return message if message is not None else await receive()

        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.slots)
        async with self._semaphore:
            await self.app(scope, replay, send)


class DjangoInThreads(ASGIHandler):
    """Django's ASGI handler, which runs a request's signals, middleware (all in their sync mode) and view in one call
    on one of ``threads`` long-lived threads, and closes the answer there too unless it streams."""

    def __init__(self, threads=VIEWS_PER_WORKER):
        super().__init__()
        self.threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="views")

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def handle(self, scope, receive, send):
        body_file = await self.read_body(receive)  # whole already: BoundedViews read it
        loop = asyncio.get_running_loop()
        try:
            # In the thread's own context, kept from one request to the next as under WSGI: Django's caches are
            # context-local, and a context per request opened a new Redis connection for each (its sessions).
            response = await loop.run_in_executor(self.threads, self.respond, scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                # Closed once sent: a file or a generator is read while it is written.
                await loop.run_in_executor(self.threads, response.close)
        finally:
            body_file.close()

    def respond(self, scope, body_file):
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            # request_finished: the database connection goes back to the pool before the answer is written.
            response.close()
        return response


def _declared_length(scope):
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


async def _too_large(send):
    body = b'{"detail": "The request body is too large."}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class TimedRequests(HttpToolsProtocol):
    """uvicorn's HTTP protocol, which closes a connection whose request is not whole ``REQUEST_SECONDS`` after it
    opened or the request began."""

    request_timer = None

    def connection_made(self, transport):
        super().connection_made(transport)
        self.arm()

    def on_message_begin(self):
        super().on_message_begin()
        self.arm()

    def on_message_complete(self):
        self.disarm()
        super().on_message_complete()

    def connection_lost(self, exc):
        self.disarm()
        super().connection_lost(exc)

    def arm(self):
        if self.request_timer is None:
            self.request_timer = self.loop.call_later(REQUEST_SECONDS, self.too_slow)

    def disarm(self):
        if self.request_timer is not None:
            self.request_timer.cancel()
            self.request_timer = None

    def too_slow(self):
        # The app reading its body (``BoundedViews``) hears http.disconnect.
        self.request_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def raise_open_files():
    """Raise this process's soft limit of open files to its hard limit (raising needs no privilege)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an unlimited hard limit above the kernel's own: keep the soft one
            pass


def connection_limit():
    """The connections a worker serves at once before answering 503: its open files, less those it keeps."""
    return max(1, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - FILES_KEPT)


def stream_cap(wanted):
    """At most ``wanted`` streams, and never so many that pages and the API find no connection left."""
    return max(1, min(wanted, connection_limit() - PAGE_CONNECTIONS))


class Worker(UvicornWorker):
    """uvicorn's gunicorn worker (``config/gunicorn.py``), which gives what is still running SHUTDOWN_SECONDS on a
    restart.

    A live stream never ends by itself: left to uvicorn's default, a restart
    waited for gunicorn's 30 s graceful timeout before it could stop a
    worker holding streams. After SHUTDOWN_SECONDS uvicorn cancels what is
    left (the streams; any request takes well under it), and the browsers
    reconnect to the new workers a second later (``live.streams.app``).
    """

    CONFIG_KWARGS = {
        **UvicornWorker.CONFIG_KWARGS,
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
        "http": TimedRequests,
    }

    def init_process(self):
        # Before the application is loaded: ``config.asgi`` sets the streams' cap from the limit.
        raise_open_files()
        self.config.limit_concurrency = connection_limit()
        super().init_process()
