"""Gunicorn's settings for serving Mesa de Control in production.

    .venv/bin/gunicorn -c config/gunicorn.py config.asgi

with the settings of the README's Configuration section in the environment
(``DATABASE_URL``, ``SECRET_KEY``, ``DEBUG=false``, ``ALLOWED_HOSTS``).
``BIND`` (default ``0.0.0.0:8000``) and ``WEB_CONCURRENCY`` (default two
workers per core) set where it listens and how many workers it runs; ``-b``
and ``-w`` on the command line win over both. ``FORWARDED_ALLOW_IPS``: the
address of a proxy in front (HTTPS mode), whose X-Forwarded-For and
X-Forwarded-Proto are then believed; no other client's are, and none at all
when it is unset. ``TLS_DIR``: serve HTTPS with the venue's certificate
kept there (below).
"""

import gc
import os

from config import environment

bind = environment.text("BIND", "0.0.0.0:8000")
# Uvicorn workers: gunicorn keeps the processes (restarts one that dies,
# graceful reloads) and each runs an asyncio server. Reading a request and
# writing an answer take no thread, so a tablet that walks out of wifi range
# mid-request, an idle keep-alive connection or a client that sends its
# headers a byte at a time costs a socket and nothing else; the view runs in
# Django's thread once the whole request is there. With the previous gthread
# workers (one thread each) six such sockets stopped the site. The same
# server will carry the long-lived streams of pushed updates.
# (``tests/server/test_slow_clients.py``; ``benchmarks/claims`` for the
# claim endpoint's tail against a bare write.)
worker_class = "config.serving.Worker"
workers = environment.whole_number("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1), least=1)
# Tablets keep their connection between claims (saving a handshake each).
keepalive = 30
# gunicorn's and uvicorn's own default believe 127.0.0.1: anything on the
# server (or a proxy there passing the client's header on) then chose the
# address the sign-in and PIN limits count per address (issue 22).
forwarded_allow_ips = environment.text("FORWARDED_ALLOW_IPS")

# HTTPS of its own on the venue's network (README, "HTTPS at the venue"): with TLS_DIR set, the certificate
# ``manage.py venue_certificate`` made there (``make serve`` makes it first). Served over TLS, the site is in
# HTTPS mode (secure cookies, HSTS, plain HTTP redirected: config/settings.py).
tls_dir = environment.text("TLS_DIR")
if tls_dir:
    certfile = os.path.join(tls_dir, "server.pem")
    keyfile = os.path.join(tls_dir, "server.key")
    os.environ["HTTPS"] = "true"


def when_ready(server):
    # A mirror's workers each LISTEN to the replicated rows (``mirror.notify``).
    if workers > 1 and not environment.flag("MIRROR") and not environment.text("REDIS_URL"):
        # Each worker hands out only the changes it made itself (``live.broker``).
        server.log.warning(
            "%d workers without REDIS_URL: a live stream hears only the changes its own worker served. "
            "Set REDIS_URL (docs/deployment.md, Live updates across processes).",
            workers,
        )


def post_worker_init(worker):
    """Move what the worker has loaded (Django, the apps, the settings) out of the collector's sight.

    Those objects live as long as the worker. Left in the collector's
    generations, every full collection walks all of them again, and under
    load those walks showed as 20-60 ms stalls in the claim endpoint's p99
    (``benchmarks/claims``).
    """
    gc.freeze()
    # A worker holding a thousand open streams has that many more objects
    # (sockets, queues, tasks) for each full collection to walk: with the
    # default thresholds those walks paused a prototype's worker for about
    # 250 ms. Collecting the young generation ten times less often keeps
    # full collections rare (``benchmarks/live.py``).
    gc.set_threshold(7000, 20, 100)
