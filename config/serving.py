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
- Anything but plain HTTP (lifespan) goes straight to the application. The
  live streams never reach this: ``streams.app`` serves them in front.
"""

import asyncio
import os

from uvicorn_worker import UvicornWorker

MAX_BODY = 10 * 1024 * 1024
SHUTDOWN_SECONDS = 3
VIEWS_PER_WORKER = int(os.environ.get("VIEWS_PER_WORKER", "1"))


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


class Worker(UvicornWorker):
    """uvicorn's gunicorn worker (``config/gunicorn.py``), which gives what is still running SHUTDOWN_SECONDS on a
    restart.

    A live stream never ends by itself: left to uvicorn's default, a restart
    waited for gunicorn's 30 s graceful timeout before it could stop a
    worker holding streams. After SHUTDOWN_SECONDS uvicorn cancels what is
    left (the streams; any request takes well under it), and the browsers
    reconnect to the new workers a second later (``streams.app``).
    """

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "timeout_graceful_shutdown": SHUTDOWN_SECONDS}
