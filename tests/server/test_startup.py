"""At start-up the server says at once which service does not answer, and starts all the same."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_start_up_names_a_database_and_a_redis_that_do_not_answer():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        # Port 9 (discard) has no listener here: both connections are refused.
        "DATABASE_URL": "postgres://postgres@127.0.0.1:9/mesa",
        "REDIS_URL": "redis://127.0.0.1:9/0",
    }
    done = subprocess.run(
        [sys.executable, "-c", "import config.wsgi; print('application built')"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "application built" in done.stdout
    assert "ERROR config.startup" in done.stderr
    assert "The database mesa at 127.0.0.1:9 does not answer" in done.stderr
    assert "Redis at redis://127.0.0.1:9/0 does not answer" in done.stderr


def test_start_up_is_quiet_when_everything_answers(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "does not answer" not in done.stderr, done.stderr
