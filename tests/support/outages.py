"""A PostgreSQL cluster and a Redis server of one's own, to stop, restart and freeze.

The shared PostgreSQL and Redis on 127.0.0.1 serve every other test run on
the machine: an outage is played on these instead, each in a directory
under /tmp, listening on 127.0.0.1 only, and gone when the ``with`` ends.
Used by ``tests/server/test_outages.py`` and ``benchmarks/chaos.py``.
"""

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path


def postgres_bin():
    """The directory of PostgreSQL's server programs (the newest installed), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    return Path(found[-1]).parent if found else None


def redis_bin():
    return shutil.which("redis-server")


def as_owner():
    """subprocess's arguments to run PostgreSQL's programs as ``postgres`` when this is root (they refuse root)."""
    return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}


def wait_for_port(port, up=True, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            if up:
                return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise RuntimeError(f"127.0.0.1:{port} did not {'open' if up else 'close'} within {seconds} s")


class Postgres:
    def __init__(self, port, folder):
        self.port, self.folder = port, folder
        self.pg_ctl = str(postgres_bin() / "pg_ctl")
        self.url = f"postgres://postgres@127.0.0.1:{port}/postgres"

    def ctl(self, *args):
        subprocess.run(
            [self.pg_ctl, "-D", self.folder, "-w", "-t", "60", *args], check=True, capture_output=True, **as_owner()
        )

    def start(self):
        self.ctl("-l", os.path.join(self.folder, "log"), "-o", f"-p {self.port} -k {self.folder}", "start")

    def stop(self):
        self.ctl("-m", "fast", "stop")

    def restart(self):
        """As ``pg_ctl restart`` does: every connection is cut, the server comes back."""
        self.ctl(
            "-m", "fast", "-l", os.path.join(self.folder, "log"), "-o", f"-p {self.port} -k {self.folder}", "restart"
        )

    @contextmanager
    def frozen(self):
        """The postmaster stopped (SIGSTOP): new connections are accepted by the kernel and then never answered."""
        with open(os.path.join(self.folder, "postmaster.pid")) as f:
            pid = int(f.readline())
        os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(pid, signal.SIGCONT)

    def database(self, name):
        """A fresh database of this cluster; its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name


@contextmanager
def own_postgres(port):
    """A running cluster of its own on 127.0.0.1:``port`` (trust authentication, user postgres)."""
    cluster = Postgres(port, tempfile.mkdtemp(prefix="mesa-pg-"))
    if as_owner():
        shutil.chown(cluster.folder, "postgres", "postgres")

    def initdb():
        subprocess.run(
            [str(postgres_bin() / "initdb"), "-D", cluster.folder, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            **as_owner(),
        )
        with open(os.path.join(cluster.folder, "postgresql.conf"), "a") as conf:
            conf.write("listen_addresses = '127.0.0.1'\nfsync = off\nmax_connections = 200\n")

    with running(cluster, before=initdb):
        yield cluster


class Redis:
    def __init__(self, port, folder):
        self.port, self.folder = port, folder
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [redis_bin(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--dir", self.folder],
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        wait_for_port(self.port, up=False)

    def restart(self):
        self.stop()
        self.start()

    @contextmanager
    def frozen(self):
        """Redis stopped (SIGSTOP): connections open and nothing answers."""
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)


@contextmanager
def own_redis(port):
    """A running redis-server of its own on 127.0.0.1:``port``, keeping nothing on disk."""
    server = Redis(port, tempfile.mkdtemp(prefix="mesa-redis-"))
    with running(server):
        yield server


@contextmanager
def running(service, before=None):
    """``service`` started (after ``before()``); stopped and its folder removed at the end, whatever happens."""
    started = False
    try:
        if before:
            before()
        service.start()
        started = True
        yield service
    finally:
        if started:
            service.stop()
        shutil.rmtree(service.folder, ignore_errors=True)
