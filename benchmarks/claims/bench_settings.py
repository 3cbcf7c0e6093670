"""Settings of the claim benchmark: the project's, plus the bare endpoint.

The bare endpoint (``/bench/bare/``) and its table exist only here, never in
the production URLs: ``benchmarks.claims`` is an app of this settings module
alone, and its table is made by ``migrate --run-syncdb``.
"""

from config.settings import *  # noqa: F401,F403
from config.settings import INSTALLED_APPS

DEBUG = False
SECRET_KEY = "benchmark-only-key-not-secret-at-all-0123456789"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks.claims"]
ROOT_URLCONF = "benchmarks.claims.bench_urls"
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
