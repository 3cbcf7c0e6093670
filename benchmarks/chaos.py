"""The chaos run: tablets play whole mesas and pages follow their streams while the production set-up is mistreated.

    .venv/bin/python benchmarks/chaos.py [--tablets 64] [--streams 64] [--pace 0.5] [--drop 0.2] [--workers 4]
                                         [--port 21472] [--postgres-port 21470] [--redis-port 21471] [--seed 1]
                                         [--down 10] [--quiet 8] [--smoke]

Starts a PostgreSQL cluster and a Redis server of its own on 127.0.0.1
(``tests/support/outages.py``: the shared ones serve other work, and these
are restarted), seeds one championship with a ready mesa and a juez for
each tablet, and starts the production set-up on 127.0.0.1 (``gunicorn -c
config/gunicorn.py config.asgi``, ``DEBUG=false``, sessions in Redis; the
claim benchmark's ``server_environment``).

The load:

* **claims**: each tablet plays its mesa to the end, one claim every
  ``--pace`` seconds: the claim log of a random legal mesa written by the
  engine's simulator (``tests/support/simulator.py``), each claim with
  its own client id and the seq it expects. 20% of the answers never reach
  the tablet (the server has done the work; the tablet throws the answer
  away), and the tablet sends the same request again, same client id,
  until an answer arrives; a connection error or a 5xx is retried the same
  way, 0.2 s later.
* **streams**: ``--streams`` pages follow a stream each (half the tablets'
  mesa streams, half the championship's board), and open it again a second
  after it ends or is refused, as the browsers do.

The mistreatment, one after another, each once the site has answered
everything for ``QUIET`` seconds since the one before: PostgreSQL
restarted (``pg_ctl restart -m fast``); PostgreSQL stopped for
``DOWN_SECONDS`` then started; Redis restarted; Redis stopped (SIGSTOP: it
takes connections and answers nothing) for ``DOWN_SECONDS``; a gunicorn
worker killed (SIGKILL) in the middle of its requests.

Per outage it prints: how long the service was away (down s), the
requests (claims and stream openings) begun from its start to the next
one's and how many failed (5xx or connection error), the slowest 503, the
seconds from the service being back to the end of the last failed request
(full recovery), and the acknowledged claims lost or doubled by then. At the end, every acknowledged claim must be in the database once,
with the seq it was answered (lost: 0), no client id twice (doubled: 0),
each mesa's log exactly its simulated log, and each mesa's stored state
equal to the engine's replay of its log. It exits 1 when any check fails.
Traffic goes only to 127.0.0.1.

``--smoke``: two tablets a claim a second, two streams, one worker, each outage 1 s and 1 s of quiet between
them, for the test suite (``tests/benchmarks/``): every outage, every check, in about a minute.
"""

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from contextlib import ExitStack
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT))

from benchmarks.claims.run import server_environment, wait_until_up  # noqa: E402
from tests.support.outages import own_postgres, own_redis  # noqa: E402
from tests.support.production import stop  # noqa: E402

DOWN_SECONDS = 10
QUIET = 8


def seed(tablets, rng):
    """A ready mesa per tablet, its juez's session, and the claim log the simulator wrote for it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.utils.crypto import get_random_string

    from refereeing.claimlog.log import header_for
    from tests.support.simulator import simulate_mesa
    from tournament.models import Championship, Mesa, Pair, Player
    from tournament.seating.sedes import create_sede

    today = date.today()
    championship = Championship.objects.create(
        name="Chaos", start_date=today, end_date=today, sede=create_sede("Chaos", tablets, by=None)
    )
    made = []
    for n in range(1, tablets + 1):
        juez = get_user_model().objects.create_user(f"juez{n}", password=None)
        pairs = []
        for side in "AB":
            pair = Pair.objects.create(championship=championship, name=f"{side}{n}", seed=2 * n - (side == "A"))
            Player.objects.create(pair=pair, number=1, full_name=f"{side}{n} uno", is_representative=True)
            Player.objects.create(pair=pair, number=2, full_name=f"{side}{n} dos")
            pairs.append(pair)
        mesa = Mesa.objects.create(
            championship=championship,
            round=1,
            position=n,
            table_number=n,
            juez=juez,
            pair_a=pairs[0],
            pair_b=pairs[1],
            status=Mesa.Status.READY,
        )
        header = header_for(Mesa.objects.select_related("championship").get(pk=mesa.pk))
        simulated = simulate_mesa(rng, header.ruleset, header.players, header.first_dealer)
        session = SessionStore()
        session[SESSION_KEY] = str(juez.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = juez.get_session_auth_hash()
        session.create()
        made.append(
            {
                "mesa": mesa.pk,
                "session": session.session_key,
                "csrf": get_random_string(32),
                "claims": simulated.claims,
                "expected": simulated.expected,
            }
        )
    return made


class Tally:
    """What the clients saw: each request's (start, end, status or None for a connection error), claims acknowledged."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.acked = {}  # client id -> (mesa, seq)
        self.requests = []

    def add(self, **counts):
        with self.lock:
            self.counts.update(counts)

    def request(self, started, status):
        with self.lock:
            self.requests.append((started, time.monotonic(), status))


def play(tablet, url, pace, drop, tally, rng):
    """Send the tablet's claims in order, ``pace`` seconds apart, each until an answer arrives that is not thrown
    away."""
    import requests

    session = requests.Session()
    session.cookies.set("sessionid", tablet["session"])
    session.cookies.set("csrftoken", tablet["csrf"])
    headers = {"X-CSRFToken": tablet["csrf"], "Referer": url + "/"}
    endpoint = f"{url}/api/mesas/{tablet['mesa']}/claims/"
    for seq, claim in enumerate(tablet["claims"], start=1):
        time.sleep(pace * rng.uniform(0.5, 1.5))
        body = {"client_id": str(uuid.uuid4()), "claim": claim, "expected_seq": seq}
        while True:
            started = time.monotonic()
            try:
                response = session.post(endpoint, json=body, headers=headers, timeout=60)
            except requests.RequestException:
                tally.request(started, None)
                tally.add(connection_errors=1, retries=1)
                time.sleep(0.2)
                continue
            tally.request(started, response.status_code)
            if response.status_code >= 500:
                tally.add(server_errors=1, retries=1)
                time.sleep(0.2)
                continue
            if rng.random() < drop:
                tally.add(dropped=1, retries=1)
                continue
            if response.status_code not in (200, 201):
                tally.add(refused=1)
                print(f"mesa {tablet['mesa']} seq {seq}: {response.status_code} {response.text[:200]}", flush=True)
                return
            entry = response.json()["entry"]
            with tally.lock:
                tally.acked[body["client_id"]] = (tablet["mesa"], entry["seq"])
            tally.add(acknowledged=1, **({"replayed_answers": 1} if response.status_code == 200 else {}))
            break


def follow(stream_url, tally, playing):
    """A page's stream: opened, read until it ends, opened again a second later, while the tablets play."""
    import requests

    while playing.is_set():
        started = time.monotonic()
        try:
            with requests.get(stream_url, stream=True, timeout=(10, 30)) as response:
                tally.request(started, response.status_code)
                if response.status_code == 200:
                    for _ in response.iter_lines():
                        if not playing.is_set():
                            return
        except requests.RequestException:
            if time.monotonic() - started < 10:  # failed to open, not a quiet stream timing out
                tally.request(started, None)
        time.sleep(1)


def outages(server, postgres, redis, seed, down=DOWN_SECONDS):
    """The mistreatments in turn, as (name, function doing it); each outage ``down`` seconds long."""
    import psutil

    def postgres_down():
        postgres.stop()
        time.sleep(down)
        postgres.start()

    def redis_frozen():
        with redis.frozen():
            time.sleep(down)

    def kill_worker():
        victim = random.Random(seed).choice(psutil.Process(server.pid).children())
        os.kill(victim.pid, signal.SIGKILL)

    return [
        ("PostgreSQL restarted", postgres.restart),
        (f"PostgreSQL stopped {down} s", postgres_down),
        ("Redis restarted", redis.restart),
        (f"Redis frozen {down} s", redis_frozen),
        ("a worker killed", kill_worker),
    ]


def quiet_since(tally, moment, seconds):
    """True when every request begun since ``moment`` succeeded and ``seconds`` have passed since the last failure."""
    with tally.lock:
        failures = [end for start, end, status in tally.requests if start >= moment and failed(status)]
    return time.monotonic() - max(failures, default=moment) >= seconds


def failed(status):
    return status is None or status >= 500


def lost_or_doubled(tally):
    """Acknowledged claims not stored with their seq, and client ids stored twice, now."""
    from django.db import connections
    from django.db.models import Count

    from refereeing.models import ClaimEntry

    with tally.lock:
        acked = dict(tally.acked)
    stored = {
        str(e["client_id"]): (e["mesa_id"], e["seq"]) for e in ClaimEntry.objects.values("client_id", "mesa_id", "seq")
    }
    lost = sum(1 for c, where in acked.items() if stored.get(c) != where)
    doubled = ClaimEntry.objects.values("client_id").annotate(n=Count("id")).filter(n__gt=1).count()
    connections.close_all()  # back to the pool, which checks it before lending it again
    return lost, doubled


def report(name, began, back, tally, ended):
    """One outage's line: its requests (begun from ``began`` to ``ended``), failures, slowest 503, seconds from the
    service back (``back``) to the end of the last failure, claims lost or doubled."""
    lost, doubled = lost_or_doubled(tally)
    with tally.lock:
        window = [r for r in tally.requests if began <= r[0] < ended]
    failures = [r for r in window if failed(r[2])]
    slowest_503 = max((end - start for start, end, status in window if status == 503), default=0)
    recovery = max(0, max((end for _, end, _ in failures), default=back) - back)
    print(
        f"{name:<26} {back - began:>6.1f} {len(window):>8} {len(failures):>7} {slowest_503:>11.2f} {recovery:>10.1f} "
        f"{lost:>5} {doubled:>7}",
        flush=True,
    )
    return {"failed": len(failures), "slowest_503": slowest_503, "recovery": recovery, "lost": lost, "doubled": doubled}


def check(tablets, tally):
    """What the database holds against what the tablets were told."""
    from django.db.models import Count

    from engines.rules import replay
    from refereeing.claimlog.log import header_for, state_dict
    from refereeing.models import ClaimEntry
    from tournament.models import Mesa

    stored = {
        str(e["client_id"]): (e["mesa_id"], e["seq"]) for e in ClaimEntry.objects.values("client_id", "mesa_id", "seq")
    }
    lost = [c for c, where in tally.acked.items() if stored.get(c) != where]
    duplicated_ids = ClaimEntry.objects.values("client_id").annotate(n=Count("id")).filter(n__gt=1).count()
    unacked = [c for c in stored if c not in tally.acked]
    same_log = state_equal = finished = 0
    for tablet in tablets:
        mesa = Mesa.objects.select_related("championship").get(pk=tablet["mesa"])
        claims = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("seq", "claim"))
        if [c for _, c in claims] == tablet["claims"] and [s for s, _ in claims] == list(range(1, len(claims) + 1)):
            same_log += 1
        # The stored state is what the log keeps: the engine's state with its preview.
        replayed = state_dict(replay(header_for(mesa), [c for _, c in claims]))
        if mesa.state == replayed and mesa.last_seq == len(claims):
            state_equal += 1
        if (
            mesa.status == Mesa.Status.FINISHED
            and replayed["finished"]
            and replayed["winner"] == tablet["expected"]["winner"]
        ):
            finished += 1
    return {
        "lost": len(lost),
        "duplicated": duplicated_ids + len(unacked),
        "same_log": same_log,
        "state_equals_replay": state_equal,
        "finished_as_simulated": finished,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tablets", type=int, default=64)
    parser.add_argument("--streams", type=int, default=64, help="pages following a stream")
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a tablet's claims")
    parser.add_argument("--drop", type=float, default=0.2, help="share of answers thrown away")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=21472)
    parser.add_argument("--postgres-port", type=int, default=21470)
    parser.add_argument("--redis-port", type=int, default=21471)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--down", type=float, default=DOWN_SECONDS, help="seconds each outage lasts")
    parser.add_argument("--quiet", type=float, default=QUIET, help="seconds of no failure before the next outage")
    parser.add_argument("--smoke", action="store_true", help="the smallest run, about a minute, for the test suite")
    args = parser.parse_args()
    if args.smoke:
        args.tablets, args.streams, args.pace, args.workers, args.down, args.quiet = 2, 2, 1.0, 1, 1, 1

    with ExitStack() as stack:
        postgres = stack.enter_context(own_postgres(args.postgres_port))
        redis = stack.enter_context(own_redis(args.redis_port))
        env = server_environment(postgres.database("mesa_chaos"), redis.url)
        env.update(
            {
                "DEBUG": "false",
                "SECRET_KEY": "chaos-only-key-" + "x" * 40,
                "BIND": f"127.0.0.1:{args.port}",
                "WEB_CONCURRENCY": str(args.workers),
                "LOG_LEVEL": "ERROR",
            }
        )
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        call_command("migrate", run_syncdb=True, verbosity=0)
        rng = random.Random(args.seed)
        tablets = seed(args.tablets, rng)
        connections.close_all()
        total = sum(len(t["claims"]) for t in tablets)
        print(
            f"{len(tablets)} tablets, {total} claims (simulated mesas of {min(len(t['claims']) for t in tablets)}-"
            f"{max(len(t['claims']) for t in tablets)}), one every {args.pace} s a tablet, {args.drop:.0%} of answers "
            f"dropped; {args.streams} streams; {args.workers} workers",
            flush=True,
        )
        url = f"http://127.0.0.1:{args.port}"
        # The server's log (each 503 is logged, with its traceback) goes to a file, said at the end.
        log = stack.enter_context(tempfile.NamedTemporaryFile("w", prefix="chaos-server-", suffix=".log", delete=False))
        server = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.asgi"], cwd=ROOT, env=env, stderr=log
        )
        stack.callback(stop, server)
        wait_until_up(url + "/api/schema/", seconds=120)
        results, planned, elapsed, tally = run(args, url, server, postgres, redis, tablets)
        figures = check(tablets, tally)

    c = tally.counts
    print(f"\nthe server's log: {log.name}")
    print(f"wall time {elapsed:.0f} s, {c['acknowledged'] / elapsed:.0f} claims acknowledged/s")
    print(f"claims sent        {total}")
    print(f"acknowledged       {c['acknowledged']} ({c['replayed_answers']} of them the first answer replayed)")
    print(f"lost               {figures['lost']}")
    print(f"duplicated         {figures['duplicated']}")
    print(f"answers dropped    {c['dropped']}; 5xx {c['server_errors']}; connection errors {c['connection_errors']}")
    print(f"statuses           {dict(sorted(Counter(status for _, _, status in tally.requests).items(), key=str))}")
    print(f"mesas whose log is exactly the simulated one:    {figures['same_log']}/{len(tablets)}")
    print(f"mesas whose stored state equals their replay:    {figures['state_equals_replay']}/{len(tablets)}")
    print(f"mesas finished with the simulator's winner:      {figures['finished_as_simulated']}/{len(tablets)}")
    ok = (
        figures["lost"] == 0
        and figures["duplicated"] == 0
        and c["acknowledged"] == total
        and figures["state_equals_replay"] == figures["same_log"] == len(tablets)
        and len(results) == planned
        and all(r["lost"] == r["doubled"] == 0 for r in results)
    )
    print("OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)


def run(args, url, server, postgres, redis, tablets):
    """Play every tablet's mesa and follow the streams through each outage; the outages' figures."""
    from django.db import connections

    from tournament.models import Mesa

    tally, playing = Tally(), threading.Event()
    playing.set()
    championship = Mesa.objects.get(pk=tablets[0]["mesa"]).championship_id
    connections.close_all()  # back to the pool: the outages kill what this thread would keep
    players = [
        threading.Thread(
            target=play,
            args=(t, url, args.pace, args.drop, tally, random.Random(args.seed * 1000 + n)),
            daemon=True,  # a run that fails stops them with it
        )
        for n, t in enumerate(tablets)
    ]
    followers = [
        threading.Thread(
            target=follow,
            args=(
                f"{url}/flujo/mesa/{tablets[n % len(tablets)]['mesa']}/"
                if n % 2
                else f"{url}/flujo/campeonato/{championship}/",
                tally,
                playing,
            ),
            daemon=True,
        )
        for n in range(args.streams)
    ]
    started = time.monotonic()
    for thread in players + followers:
        thread.start()
    print(
        f"\n{'outage':<26} {'down s':>6} {'requests':>8} {'failed':>7} {'slowest 503':>11} {'recovery s':>10} "
        f"{'lost':>5} {'doubled':>7}",
        flush=True,
    )
    results, pending = [], None
    plan = outages(server, postgres, redis, args.seed, args.down)
    for name, act in plan:
        wait_for_quiet(tally, pending[1] if pending else started, players, args.quiet)
        if not any(t.is_alive() for t in players):
            print(f"the tablets finished before '{name}': give them more claims (a longer --pace)", flush=True)
            break
        if pending:  # the previous outage's window ends where this one begins
            results.append(report(*pending, tally, time.monotonic()))
        began = time.monotonic()
        act()
        pending = (name, began, time.monotonic())
    if pending:
        wait_for_quiet(tally, pending[1], players, args.quiet)
        results.append(report(*pending, tally, time.monotonic()))
    for thread in players:
        thread.join()
    playing.clear()
    return results, len(plan), time.monotonic() - started, tally


def wait_for_quiet(tally, since, players, quiet=QUIET):
    while not quiet_since(tally, since, quiet) and any(t.is_alive() for t in players):
        time.sleep(0.2)


if __name__ == "__main__":
    main()
