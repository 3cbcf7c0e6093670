"""Every benchmark in its smoke mode (issue #35): each run as it is run by hand, in a process of its own, at its
smallest size and seconds long, so that a benchmark that no longer runs (an import moved, a helper that answers
otherwise, a page that changed) fails the suite, not the next person who measures. ``benchmarks/day.py`` unpacked
three names from the claim check's answer long after that answer became a dict, and every run exited 1 unseen.

A smoke run checks that the benchmark runs through and that what it holds to for correctness holds (no claim lost,
every planilla verified, the morning within its desk actions); its latencies follow this machine's load and are
printed, not held to.

Where they run: the engine's, the bracket's, the planilla's (an in-memory SQLite database of its own) and the
tablet's (a SQLite file of its own, Chromium) on either pass of the suite; the day's on the suite's database
engine (a SQLite file on the SQLite pass, a database of its own on the PostgreSQL pass); the chaos run's and the
mirror's on PostgreSQL clusters and a Redis of their own, wherever PostgreSQL's server programs and redis-server
are installed. The claim endpoint's and the live updates' measure the production database, PostgreSQL, through a
server: they run on the PostgreSQL pass (a database of its own on the suite's server) and are skipped on the SQLite
pass, which has no PostgreSQL server.
"""

import os
import subprocess
import sys
from contextlib import ExitStack, nullcontext

import psycopg
import pytest
from django.db import connection

from tests.support.outages import own_redis, postgres_bin, redis_bin
from tests.support.production import ROOT, free_port

BENCHMARKS = ROOT / "benchmarks"

pytestmark = pytest.mark.slow

needs_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="measures PostgreSQL through its server: run on the suite's PostgreSQL pass (DATABASE_URL)",
)
needs_clusters = pytest.mark.skipif(
    postgres_bin() is None or redis_bin() is None, reason="needs PostgreSQL's server programs and redis-server"
)


def smoke(script, *argv, env=None, timeout=900):
    """Run ``benchmarks/<script> --smoke`` as by hand; its output (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--smoke", *argv],
        cwd=ROOT,
        env={k: v for k, v in {**os.environ, **(env or {})}.items() if k != "DJANGO_SETTINGS_MODULE"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, (
        f"{script} --smoke exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def own_database(name):
    """A database of the benchmark's own on the suite's PostgreSQL server (the benchmark makes it afresh); its URL,
    dropped at the end by the caller."""
    db = connection.settings_dict
    return f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}_{name}"


def drop(url):
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


def redis():
    """A Redis of the run's own (the suite's is shared by its workers, and the benchmarks empty theirs), or none."""
    return own_redis(free_port()) if redis_bin() else nullcontext()


@pytest.fixture
def served(production_static):
    """The environment of a benchmark that serves the production set-up: the static files collected once."""
    return {"STATIC_ROOT": str(production_static), "STATIC_COLLECTED": "1"}


def test_the_bracket_benchmark_runs():
    assert "advance, 16 pairs" in smoke("bracket.py")


def test_the_engine_benchmark_runs():
    out = smoke("engine.py")
    assert "claims/s" in out and "preview:" in out


def test_the_planilla_benchmark_runs():
    # An in-memory database of its own, whatever the suite runs on.
    out = smoke("planilla.py", env={"DATABASE_URL": "", "REDIS_URL": ""})
    assert "a round of 2 finished mesas as one PDF" in out


def test_the_tablet_benchmark_runs():
    out = smoke("tablet.py")
    assert ", 0 lost" in out and "taps:" in out


@pytest.mark.django_db
def test_the_day_benchmark_runs_the_morning_through_the_desk_and_checks_the_log(served, tmp_path):
    with ExitStack() as stack:
        if connection.vendor == "postgresql":
            database = own_database("day")
            stack.callback(drop, database)
        else:
            database = f"sqlite:///{tmp_path / 'day.sqlite3'}"
        server = stack.enter_context(redis())
        out = smoke(
            "day.py",
            "--port",
            str(free_port()),
            "--database-url",
            database,
            "--redis-url",
            server.url if server else "",
            env=served,
        )
    assert "log check                            no claim lost or doubled" in out
    assert "goals: the morning in at most 40 desk actions: met; no desk action during the day: met" in out


@needs_postgres
@pytest.mark.django_db
def test_the_claim_benchmark_runs(served):
    database = own_database("claims")
    try:
        with redis() as server:
            out = smoke(
                "claims/run.py",
                "--port",
                str(free_port()),
                "--database-url",
                database,
                "--redis-url",
                server.url if server else "",
                env=served,
            )
    finally:
        drop(database)
    assert "log check, all runs: no claim lost or duplicated" in out


@needs_postgres
@needs_clusters
@pytest.mark.django_db
def test_the_live_benchmark_runs(served):
    database = own_database("live")
    try:
        with redis() as server:
            out = smoke(
                "live.py", "--port", str(free_port()), "--database-url", database, "--redis-url", server.url, env=served
            )
    finally:
        drop(database)
    assert "every event delivered" in out


@needs_clusters
def test_the_chaos_benchmark_runs():
    ports = [str(free_port()) for _ in range(3)]
    out = smoke("chaos.py", "--port", ports[0], "--postgres-port", ports[1], "--redis-port", ports[2])
    assert out.rstrip().endswith("OK")


@needs_clusters
def test_the_mirror_benchmark_runs(served):
    with redis() as server:
        out = smoke("mirror.py", "--port", str(free_port()), "--redis-url", server.url, env=served)
    assert "the mirror's claim log is the venue's" in out


def test_the_ratings_benchmark_runs():
    # A SQLite file of its own, whatever the suite runs on: the rebuild's figures are the model's, not a server's.
    out = smoke("ratings.py", env={"DATABASE_URL": "", "REDIS_URL": ""})
    assert "the two rebuilds gave the same" in out and "added:" in out
