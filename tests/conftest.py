"""Fixtures shared by the whole suite.

Browser tests drive Debian's Chromium (no browser download is possible
where this runs) at the size of the juez's tablet: 1024x768, touch.
"""

import os
import threading
import time
from pathlib import Path

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


# What makes a test one of the slow kinds that ``make test-fast`` leaves out (pyproject's markers): the
# fixtures it uses, so that a new test is marked without anyone remembering to.
BROWSER_FIXTURES = {"page", "context", "browser", "playwright", "new_context", "new_page"}
PRODUCTION_SERVER_FIXTURES = {"production_static"}


# ``make test`` hands the tests to its workers one by one (``--dist loadgroup``), so that a long file no longer
# keeps one worker busy after the others are done; a file in ``xdist_group`` stays whole on one worker, in order.
# Those whose tests share a module-, class- or package-scoped fixture (a server, PostgreSQL clusters) are found
# below; these are kept together for a reason no fixture shows.
KEPT_TOGETHER = {
    # Split across workers by work stealing, a test of it failed (benchmarks/RESULTS.md); whole, it passes.
    "tests/live/streams/test_streams.py",
}


def shares_a_fixture_within_its_file(item):
    """Whether ``item`` uses a fixture of the suite's set up once for several tests of its file (scope module,
    class, package). Plugins' fixtures (an empty ``baseid``) do not count: pytest-django's class-scoped one is
    used by every test and holds nothing."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        definition.scope in ("module", "class", "package") and definition.baseid
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
    )


def pytest_collection_modifyitems(items):
    import hypothesis

    for item in items:
        path = item.nodeid.partition("::")[0]
        if path in KEPT_TOGETHER or shares_a_fixture_within_its_file(item):
            item.add_marker(pytest.mark.xdist_group(path))
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & PRODUCTION_SERVER_FIXTURES:
            item.add_marker(pytest.mark.production_server)
        # Hypothesis's @given, and schemathesis's cases (Hypothesis underneath).
        function = getattr(item, "function", None)
        if function is not None and (hypothesis.is_hypothesis_test(function) or "case" in fixtures):
            item.add_marker(pytest.mark.fuzz)


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


@pytest.fixture(scope="session", autouse=True)
def _redis_keys_of_this_worker():
    """Under pytest-xdist, each worker's keys in the shared Redis (``REDIS_URL``) carry its name.

    Session keys are random, but a test that reads a key another worker's
    test wrote, or counts queries around a session read, must see its own
    alone.
    """
    from django.conf import settings
    from django.test import override_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not (worker and settings.REDIS_URL):
        yield
        return
    caches = {"default": {**settings.CACHES["default"], "KEY_PREFIX": worker}}
    with override_settings(CACHES=caches):
        yield


# Static files for the tests alone (axe-core): served by the tests' servers, never collected for production.
TESTS_STATIC = Path(__file__).resolve().parent / "support" / "static"


@pytest.fixture(scope="session", autouse=True)
def _tests_static_files():
    """The tests' own static files, found at /static/ beside the site's (the accessibility tests load axe there)."""
    from django.conf import settings
    from django.test import override_settings

    with override_settings(STATICFILES_DIRS=[*settings.STATICFILES_DIRS, TESTS_STATIC]):
        yield


@pytest.fixture(scope="session")
def production_static(tmp_path_factory):
    """collectstatic's output as production has it (hashed names, gzip and Brotli), made once.

    Here rather than in tests/server: the mirror's tests use it too, and a test
    using it is marked ``production_server`` above.
    """
    from tests.support.production import collect_static

    return collect_static(tmp_path_factory.mktemp("staticfiles"))


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
    concurrent writers (tests/refereeing/claimlog) would fail where a real SQLite file
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
def _default_language():
    """Each test starts in the site's language: a request of the test client leaves its thread in the language
    it asked for (``LocaleMiddleware`` activates it and nothing deactivates it), which made a test that reads a
    Spanish message fail after one whose client asked for English."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_service_paused():
    """Each test starts with no database or Redis paused: a test that makes one fail pauses it for a second
    (``config.errors.AnswerWhileDown``), which would answer the next tests' requests 503."""
    from config import errors

    errors.paused_until.clear()
    yield
    errors.paused_until.clear()


@pytest.fixture(autouse=True)
def _live_server_idle_before_flush(request):
    """After a browser test, close its browsers' pages and let the live server's requests end before the
    database is emptied.

    A request a page sent may still be in its transaction on the server's
    thread; PostgreSQL's TRUNCATE of every table then deadlocks with it and
    the next test finds the rows left behind. So every context of the
    browser is closed here (the test's own page, and a second tablet a test
    opened, which would otherwise go on polling), then the server's request
    threads (and the ASGI server's requests, ``asgi_server``) are given a
    moment to finish. Asking for pytest-django's database fixture first
    makes this end before that fixture's flush; only a browser test asks for
    it here, so that a test that never said it uses the database is refused
    it (pytest-django sets up no test database for a run of such tests, and
    the real one would be used).
    """
    browser = None
    if "page" in request.fixturenames:
        request.getfixturevalue("_django_db_helper")
        browser = request.getfixturevalue("browser")
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
