"""The production server as the README starts it, on the test database, for the tests that need a real one.

``manage.py collectstatic`` (once per test session), then ``gunicorn -c
config/gunicorn.py config.asgi`` with ``DEBUG=false``, in a child process,
on a free port of 127.0.0.1, reading the database the test wrote (a
transactional test's, so that the server sees its rows).
"""

import os
import socket
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
def production_server(static_root, workers=2, database=None, port=None, preexec_fn=None, **extra_env):
    """Yield the base URL of a running production server; stop it afterwards.

    ``database``: its URL, the test database's by default; ``port``: a free one by default; ``preexec_fn``: run in
    the server's process before gunicorn starts (to set its limits)."""
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
        [str(Path(sys.executable).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.asgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
        preexec_fn=preexec_fn,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/cuenta/entrar/", timeout=5).read()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError("the production server did not start:\n" + log.read()) from None
                time.sleep(0.3)
        yield url
    finally:
        stop(server)
        log.close()


def stop(server, seconds=30):
    """SIGTERM to a server's process, and SIGKILL if it has not ended ``seconds`` later."""
    server.terminate()
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
