"""PostgreSQL and Redis going away under the production server: it answers 503 quickly, and recovers by itself.

The server runs as the README starts it (gunicorn, ``config/gunicorn.py``,
``DEBUG=false``, sessions in Redis) on a PostgreSQL cluster and a Redis of
the test's own (``outages.py``), which are restarted, stopped and frozen:
the shared ones serve other runs. One championship with a mesa in play and
its juez's session (``benchmarks/chaos.py``'s seed).
"""

import json
import subprocess
import sys
import time

import pytest
import requests

from config.errors import PAUSE_SECONDS
from tests.support.outages import own_postgres, own_redis, postgres_bin, redis_bin
from tests.support.production import ROOT, free_port, production_env, production_server

pytestmark = [
    pytest.mark.skipif(
        postgres_bin() is None or redis_bin() is None, reason="needs PostgreSQL's server programs and redis-server"
    ),
    # Its own database serves the server; the suite's is set up as for every test (tests/conftest.py asks for it).
    pytest.mark.django_db,
]

# What the README promises: a service that does not answer is a 503 within this.
PROMISED_SECONDS = 3

SEED = """
import json, random
from benchmarks.chaos import seed
from tournament.models import Mesa
tablet = seed(1, random.Random(1))[0]
tablet["championship"] = Mesa.objects.get(pk=tablet["mesa"]).championship_id
print(json.dumps({k: tablet[k] for k in ("mesa", "championship", "session", "csrf")}))
"""


def manage(env, *args):
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def site(production_static):
    # The ports of this test's own services and server: each keeps its port across the restarts.
    with own_postgres(free_port()) as postgres, own_redis(free_port()) as redis:
        database = postgres.database("mesa_outages")
        env = production_env(DATABASE_URL=database, REDIS_URL=redis.url)
        manage(env, "migrate", "-v", "0")
        seeded = json.loads(manage(env, "shell", "-c", SEED).strip().splitlines()[-1])
        with production_server(production_static, database=database, port=free_port(), REDIS_URL=redis.url) as url:
            tablet = requests.Session()
            tablet.cookies.set("sessionid", seeded["session"])
            yield {"url": url, "postgres": postgres, "redis": redis, "tablet": tablet, **seeded}


def requests_of(site, board="tablero"):
    """Each kind of request the site serves, as a call giving its status and the seconds it took; ``board``: the
    board stream's view (a view no stream asked for yet is read from the database, not from the snapshot kept)."""
    url, tablet = site["url"], site["tablet"]
    calls = {
        "page": lambda: tablet.get(f"{url}/campeonatos/{site['championship']}/llaves/", timeout=30),
        "api": lambda: tablet.get(f"{url}/api/mesas/{site['mesa']}/claims/?after=0", timeout=30),
        "mesa stream": lambda: requests.get(f"{url}/flujo/mesa/{site['mesa']}/", stream=True, timeout=30),
        "board stream": lambda: requests.get(
            f"{url}/flujo/campeonato/{site['championship']}/?vista={board}", stream=True, timeout=30
        ),
    }

    def timed(call):
        def run():
            started = time.monotonic()
            with call() as response:
                return response.status_code, time.monotonic() - started

        return run

    return {name: timed(call) for name, call in calls.items()}


def every_answer(site, rounds, board="tablero"):
    """``rounds`` of every kind of request: {kind: [(status, seconds), ...]}."""
    answers = {}
    for _ in range(rounds):
        for name, call in requests_of(site, board).items():
            answers.setdefault(name, []).append(call())
    return answers


def statuses(answers):
    return {name: sorted({status for status, _ in got}) for name, got in answers.items()}


def test_a_restart_of_postgresql_fails_no_request_made_after_it(site):
    every_answer(site, 8)  # both workers' pools hold connections now
    site["postgres"].restart()
    after = every_answer(site, 10)
    assert statuses(after) == {name: [200] for name in after}, after


def test_a_stopped_database_is_a_503_within_3_seconds_everywhere_and_the_site_comes_back_by_itself(site):
    every_answer(site, 4)
    site["postgres"].stop()
    try:
        during = every_answer(site, 2, board="llaves")
    finally:
        site["postgres"].start()
    assert statuses(during) == {name: [503] for name in during}, during
    slowest = max(seconds for got in during.values() for _, seconds in got)
    assert slowest < PROMISED_SECONDS, during
    time.sleep(PAUSE_SECONDS)
    after = every_answer(site, 4, board="llaves")
    assert statuses(after) == {name: [200] for name in after}, after


def test_a_redis_that_does_not_answer_is_a_503_within_3_seconds_on_pages_and_the_api(site):
    every_answer(site, 2)
    with site["redis"].frozen():
        calls = requests_of(site)
        during = {name: [calls[name]() for _ in range(2)] for name in ("page", "api")}
    assert statuses(during) == {"page": [503], "api": [503]}, during
    assert max(seconds for got in during.values() for _, seconds in got) < PROMISED_SECONDS, during
    time.sleep(PAUSE_SECONDS)  # a service found down is not asked again for this long (config.errors)
    after = every_answer(site, 2)
    assert statuses(after) == {name: [200] for name in after}, after
