"""The channel that carries "a mesa changed" from the process that changed it to every process serving streams.

Terms
-----
*Message*: a small JSON object, ``{"c": championship id, "m": [mesa ids]
or null (all of them), "s": {mesa id: last seq}}``. It names what changed,
never what a page shows: each stream server reads and renders that itself.

Rules
-----
- With ``REDIS_URL`` (production: several app servers), a message is
  published on one Redis channel, named after the database so that two
  championships' servers sharing a Redis never hear each other; each process
  that serves streams holds one subscription (``subscribe``) and hands the
  messages out to its own clients. One subscription per client cost 2.5
  times the CPU in a prototype and collapsed at 5 claims a second.
- On a mirror (``MIRROR=true``) the messages come from the replicated
  rows, through PostgreSQL's LISTEN (``mirror.notify``).
- Without it (``make run``, one process) the channel is in the process:
  ``publish`` hands the message to each subscribed event loop, from any
  thread.
- Publishing never fails the write that changed the mesa: the claim is
  already committed, and a stream that missed a message catches up from the
  snapshot it gets when it reconnects. A Redis that does not answer is
  logged.
"""

import asyncio
import atexit
import json
import logging
import threading

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

_local_lock = threading.Lock()
_local_subscribers = []  # (event loop, asyncio.Queue) of this process's subscriptions
_redis_client = None


def channel():
    return f"mesa-de-control:live:{connections['default'].settings_dict['NAME']}"


def publish(message):
    data = json.dumps(message, separators=(",", ":"))
    if settings.REDIS_URL:
        try:
            _redis().publish(channel(), data)
        except Exception as error:  # noqa: BLE001  (the write is committed; see the rules above)
            logger.error("Could not publish a live update to Redis: %s", error)
        return
    with _local_lock:
        subscribers = list(_local_subscribers)
    for loop, queue in subscribers:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, data)
        except RuntimeError:  # that loop has closed: its server stopped
            _forget(loop, queue)


def _redis():
    global _redis_client
    if _redis_client is None:
        import redis

        _redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    return _redis_client


@atexit.register
def _let_go_of_redis():
    """Close the client and drop it while the interpreter still has its modules: collected later, as the process
    ends, its ``__del__`` failed on ``os`` already gone ("Exception ignored in Redis.__del__")."""
    global _redis_client
    client, _redis_client = _redis_client, None
    if client is not None:
        client.close()


def _forget(loop, queue):
    with _local_lock:
        if (loop, queue) in _local_subscribers:
            _local_subscribers.remove((loop, queue))


async def subscribe():
    """Yield every message published from now on, as a dict, for as long as the caller iterates.

    Over Redis, a lost connection is retried every second; messages sent in
    between are lost, which the caller makes up for (see the rules above).
    """
    if settings.MIRROR:
        from mirror.notify import listen

        async for message in listen():
            yield message
        return
    if not settings.REDIS_URL:
        queue = asyncio.Queue()
        entry = (asyncio.get_running_loop(), queue)
        with _local_lock:
            _local_subscribers.append(entry)
        try:
            while True:
                yield json.loads(await queue.get())
        finally:
            _forget(*entry)
        return
    import redis.asyncio

    while True:
        client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        try:
            async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.subscribe(channel())
                async for message in pubsub.listen():
                    yield json.loads(message["data"])
        except (OSError, redis.RedisError) as error:
            logger.error("Live updates: Redis subscription lost (%s); retrying in 1 s.", error)
            await asyncio.sleep(1)
        finally:
            await client.aclose()
