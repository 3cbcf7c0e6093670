"""WSGI entry point for the development server (and gunicorn's threaded workers)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.startup import check_services  # noqa: E402  (needs the settings loaded above)

check_services()
