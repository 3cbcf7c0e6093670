"""ASGI entry point: what gunicorn serves in production (``config/gunicorn.py``'s uvicorn workers).

An asyncio server reads each request and writes each answer without a
thread: a slow, idle or half-sent connection costs a socket, never a
worker. ``config.serving.BoundedViews`` reads the whole request first and
lets a bounded number of Django's (sync) views run at once per worker, each
request in one call on a long-lived thread (``DjangoInThreads``).
``live.streams.app.Streams`` serves the live streams in front of both.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config import environment  # noqa: E402
from config.serving import BoundedViews, DjangoInThreads, stream_cap  # noqa: E402  (after Django is set up)
from config.startup import check_services  # noqa: E402
from live.streams.app import Streams  # noqa: E402

# The streams are served on the event loop, outside the bound on views: an
# open stream holds a socket and a queue, never a view slot (``live.streams.app``).
application = Streams(
    BoundedViews(DjangoInThreads()), most=stream_cap(environment.whole_number("STREAMS_PER_WORKER", 5000, least=1))
)
check_services()
