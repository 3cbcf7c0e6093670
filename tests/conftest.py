"""Fixtures shared by the whole suite.

Browser tests drive Debian's Chromium (no browser download is possible
where this runs) at the size of the juez's tablet: 1024x768, touch.
"""

import os
import threading
import time

import pytest

# Playwright's sync API runs an event loop in the test thread; the ORM
# refuses to run inside one unless told it is safe, which it is for tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
VENUE_HOST = "mesa.test"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    # A venue's plain-HTTP name for this machine: not localhost, so not a secure context.
    f"--host-resolver-rules=MAP {VENUE_HOST} 127.0.0.1",
]
TABLET = {"width": 1024, "height": 768}


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher():
    """Hash the tests' passwords with MD5 instead of PBKDF2's million rounds.

    The factories give every organiser and juez a password, and tests sign
    in through forms; PBKDF2 spends its rounds on purpose, which here only
    slows the suite. Signing in still checks
    the password: only the hash is cheaper. Never in settings.py.
    """
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": TABLET, "has_touch": True, "locale": "es-EC"}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, test in a file rather than Django's shared in-memory database.

    In shared-cache memory mode a second writer gets "database table is
    locked" at once instead of waiting for the lock, so the tests of
    concurrent writers (tests/claimlog) would fail where a real SQLite file
    just waits. A file behaves like production.
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("sqlite") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _sign_in_throttling(request, settings):
    """django-axes is off except in the tests marked ``throttling``, which check it.

    Django's test client signs in through ``authenticate()`` without a
    request, which axes refuses; and the suite's own sign-ins are not what
    it guards against.
    """
    settings.AXES_ENABLED = request.node.get_closest_marker("throttling") is not None


@pytest.fixture(autouse=True)
def _no_service_paused():
    """Each test starts with no database or Redis paused: a test that makes one fail pauses it for a second
    (``config.errors.AnswerWhileDown``), which would answer the next tests' requests 503."""
    from config import errors

    errors.paused_until.clear()
    yield
    errors.paused_until.clear()


@pytest.fixture(autouse=True)
def _live_server_idle_before_flush(request, _django_db_helper):
    """After a browser test, close its browsers' pages and let the live server's requests end before the
    database is emptied.

    A request a page sent may still be in its transaction on the server's
    thread; PostgreSQL's TRUNCATE of every table then deadlocks with it and
    the next test finds the rows left behind. So every context of the
    browser is closed here (the test's own page, and a second tablet a test
    opened, which would otherwise go on polling), then the server's request
    threads (and the ASGI server's requests, ``asgi_server``) are given a
    moment to finish. Depending on pytest-django's
    database fixture makes this run before that fixture's flush.
    """
    browser = request.getfixturevalue("browser") if "page" in request.fixturenames else None
    yield
    if browser is None:
        return
    for context in browser.contexts:
        context.close()
    asgi = request.getfixturevalue("_asgi_server") if "asgi_server" in request.fixturenames else None
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and (
        any("process_request_thread" in thread.name for thread in threading.enumerate()) or (asgi and asgi.busy)
    ):
        time.sleep(0.05)


class AsgiServer:
    """The production application (``config.asgi``: the streams in front of Django) served by uvicorn in a thread.

    pytest-django's ``live_server`` is a WSGI server: it cannot hold a
    stream, so pages served there fall back to polling. Tests of the live
    updates use this instead. ``busy`` counts the requests in progress (not
    the streams), so that a test can wait for them before the database is
    emptied.
    """

    def __init__(self):
        import socket

        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from config.asgi import application

        self.streams = application
        self.busy = 0
        handler = ASGIStaticFilesHandler(application)

        async def counted(scope, receive, send):
            streaming = scope["type"] == "http" and scope["path"].startswith("/flujo/")
            self.busy += 0 if streaming else 1
            try:
                await handler(scope, receive, send)
            finally:
                self.busy -= 0 if streaming else 1

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(counted, lifespan="off", log_level="warning", access_log=False))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def _asgi_server(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():  # building the application checks that the database answers
        server = AsgiServer()
    yield server
    server.stop()


@pytest.fixture
def asgi_server(_asgi_server, transactional_db):
    """The ASGI server (``AsgiServer``) for one test, its cached snapshots forgotten."""
    _asgi_server.streams.snapshots.clear()
    return _asgi_server
