"""The production server as the README starts it, on the test database, for the tests that need a real one.

``manage.py collectstatic`` (once per test session), then ``gunicorn -c
config/gunicorn.py config.asgi`` with ``DEBUG=false``, in a child process,
on a free port of 127.0.0.1, reading the database the test wrote (a
transactional test's, so that the server sees its rows).
"""

import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def set_production_password(user, password):
    """Store ``password`` hashed as production checks it (the suite hashes with MD5, which production refuses)."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(password, hasher.salt())
    user.save(update_fields=["password"])


def database_url():
    """The URL of the database this test process is using (the test database)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def _port_range():
    """``TEST_PORTS`` (``first-last``), or ``(0, 0)`` for any port; under pytest-xdist, this worker's own slice of
    it, so that two workers never try the same port between one's check and its server's bind."""
    first, last = (int(end) for end in (os.environ.get("TEST_PORTS") or "0-0").partition("-")[::2])
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if first and worker:
        share = (last - first + 1) // int(os.environ["PYTEST_XDIST_WORKER_COUNT"])
        first += int(worker.removeprefix("gw")) * share
        last = first + share - 1
    return first, last


# Ports already handed out by this process: a test may ask for several before it starts anything on them.
_handed_out = set()


def free_port():
    """A free port of 127.0.0.1: any, or one of ``TEST_PORTS`` (``first-last``) where several suites share a machine."""
    first, last = _port_range()
    for _ in range(2):
        for port in range(first, last + 1) if first else [0] * 100:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
                port = s.getsockname()[1]
            if port not in _handed_out:
                _handed_out.add(port)
                return port
        # Every port of the range was handed out once: those servers have stopped by now, most of them.
        _handed_out.clear()
    raise RuntimeError(f"no free port in TEST_PORTS={os.environ.get('TEST_PORTS')}")


def production_env(**extra):
    """The environment of production: DEBUG off, a real key, none of the test suite's own switches."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "false",
            "SECRET_KEY": "s" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            **extra,
        }
    )
    return env


def collect_static(target):
    """Run collectstatic as production does, into ``target``."""
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=production_env(STATIC_ROOT=str(target)),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return target


@contextmanager
def production_server(
    static_root,
    workers=2,
    command=None,
    cwd=ROOT,
    database=None,
    port=None,
    preexec_fn=None,
    ready="/cuenta/entrar/",
    tls_ca=None,
    **extra_env,
):
    """Yield the base URL of a running production server; stop it afterwards.

    ``command`` starts it in ``cwd`` (gunicorn, as the README's steps do, by
    default); it and whatever it starts are stopped together. ``database``:
    its URL, the test database's by default; ``port``: a free one by default;
    ``preexec_fn``: run in the server's process before it starts (to set its
    limits); ``ready``: the path that answers 200 once it serves; ``tls_ca``: the certificate authority of a
    server that speaks HTTPS (``TLS_DIR``), which the check that it answers trusts.
    """
    port = port or free_port()
    env = production_env(
        DATABASE_URL=database or database_url(),
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY=str(workers),
        STATIC_ROOT=str(static_root),
        **extra_env,
    )
    # Its log goes to a file: a pipe nobody reads fills up and blocks the server.
    log = tempfile.TemporaryFile(mode="w+")
    server = subprocess.Popen(
        command or [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.asgi"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
        start_new_session=True,  # a process group of its own, stopped whole
        preexec_fn=preexec_fn,
    )
    url = f"{'https' if tls_ca else 'http'}://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                # The authority may be made by the command that starts the server (``make serve``): read once there.
                context = ssl.create_default_context(cafile=tls_ca) if tls_ca else None
                urllib.request.urlopen(url + ready, timeout=5, context=context).read()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError, FileNotFoundError):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError("the production server did not start:\n" + log.read()) from None
                time.sleep(0.3)
        yield url
    finally:
        stop(server)
        log.close()


def stop(server, seconds=30):
    """Stop ``server`` (a Popen) and, where it leads a process group of its own
    (make, the gunicorn it started, its workers), the whole group: SIGTERM,
    then SIGKILL ``seconds`` later."""
    try:
        group = os.getpgid(server.pid) == server.pid
    except ProcessLookupError:  # it ended by itself (it failed to start)
        server.wait()
        return
    if not group:
        server.terminate()
        try:
            server.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        return
    os.killpg(server.pid, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        server.poll()
        try:
            os.killpg(server.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.killpg(server.pid, signal.SIGKILL)
    server.wait()
