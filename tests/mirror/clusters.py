"""PostgreSQL clusters of the test's own: the venue's (wal_level = logical) and the mirror's.

The suite's PostgreSQL (if any) is left alone: a publication needs
``wal_level = logical``, which needs a restart, and a subscription must
not outlive the test. Each cluster is made by ``initdb`` in a temporary
folder and stopped and removed afterwards; as root (CI) PostgreSQL's
programs run as the ``postgres`` user, which owns the folder. The
``postgres`` superuser signs in without a password, as the suite's does;
every other role with its password (SCRAM), as the mirror's roles do in
production.
"""

import os
import pwd
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from tests.support.production import free_port


def _bindir():
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL's server programs (initdb) are not installed: apt-get install postgresql")
    return found[-1].parent


def _as_postgres(argv):
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


HBA = """\
local all postgres trust
host all postgres 127.0.0.1/32 trust
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
"""


@contextmanager
def cluster(*settings):
    """Yield the port of a running cluster whose server has ``settings`` (``"wal_level=logical"``, ...)."""
    folder = Path(tempfile.mkdtemp(prefix="mesa-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
    data, port = folder / "data", free_port()
    bindir = _bindir()
    run = lambda *argv: subprocess.run(_as_postgres(argv), check=True, capture_output=True, timeout=120)  # noqa: E731
    run(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    (data / "pg_hba.conf").write_text(HBA)
    options = " ".join(
        [f"-p {port}", "-c listen_addresses=127.0.0.1", f"-c unix_socket_directories={folder}", "-c fsync=off"]
        + [f"-c {setting}" for setting in settings]
    )
    run(str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
    try:
        yield port
    finally:
        subprocess.run(
            _as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(folder, ignore_errors=True)
