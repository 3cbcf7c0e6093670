"""Gunicorn's settings for serving Mesa de Control in production.

    .venv/bin/gunicorn -c config/gunicorn.py config.wsgi

with the settings of the README's Configuration section in the environment
(``DATABASE_URL``, ``SECRET_KEY``, ``DEBUG=false``, ``ALLOWED_HOSTS``).
``BIND`` (default ``0.0.0.0:8000``) and ``WEB_CONCURRENCY`` (default two
workers per core) set where it listens and how many workers it runs; ``-b``
and ``-w`` on the command line win over both.
"""

import gc
import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
# gthread workers keep each tablet's connection open between its requests
# (keep-alive): an idle connection waits in the worker's poller, not in a
# thread, and the tablet saves a TCP handshake per claim. One thread per
# worker: a request spends its time in Python (the ORM, the engine), so two
# threads of one process only take turns at the GIL, and under load that
# turned into the claim endpoint's slowest requests (``benchmarks/claims``:
# claim p99 at 128 tablets, median of 3 runs: 1 thread 25 ms, 2 threads
# 30 ms, 4 threads 48 ms, sync workers without keep-alive 35 ms). Two
# processes per core cover the waits on the database.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1)))
threads = 1
keepalive = 30


def post_worker_init(worker):
    """Move what the worker has loaded (Django, the apps, the settings) out of the collector's sight.

    Those objects live as long as the worker. Left in the collector's
    generations, every full collection walks all of them again, and under
    load those walks showed as 20-60 ms stalls in the claim endpoint's p99
    (``benchmarks/claims``).
    """
    gc.freeze()
