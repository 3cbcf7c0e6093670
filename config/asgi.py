"""ASGI entry point: what gunicorn serves in production (``config/gunicorn.py``'s uvicorn workers).

An asyncio server reads each request and writes each answer without a
thread: a slow, idle or half-sent connection costs a socket, never a
worker. ``config.serving.BoundedViews`` reads the whole request first and
lets a bounded number of Django's (sync) views run at once per worker.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from config.serving import BoundedViews  # noqa: E402  (after Django is set up)
from config.startup import check_services  # noqa: E402

application = BoundedViews(django_application)
check_services()
