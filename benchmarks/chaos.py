"""The chaos run: 128 tablets play whole mesas against the production set-up while it is mistreated.

    .venv/bin/python benchmarks/chaos.py [--tablets 128] [--drop 0.2] [--workers 4]
                                         [--database-url postgres://postgres@127.0.0.1:5432/mesa_server]
                                         [--redis-url redis://127.0.0.1:6379/7] [--seed 1]

Makes a fresh PostgreSQL database and empties the Redis database of the
sessions, seeds one championship with a ready mesa and a juez for each
tablet, and starts the production set-up on 127.0.0.1 (``gunicorn -c
config/gunicorn.py config.asgi``, ``DEBUG=false``, sessions in Redis).

Each tablet plays its mesa to the end: the claim log of a random legal
mesa written by the engine's simulator (``refereeing/engine/simulator.py``),
one claim after another, each with its own client id and the seq it
expects. The mistreatment:

* **dropped responses**: 20% of the answers never reach the tablet (the
  server has done the work; the tablet throws the answer away), and the
  tablet sends the same request again, same client id, until an answer
  arrives. A connection error or a 5xx is retried the same way.
* **a worker killed**: once half of the claims are acknowledged, one
  gunicorn worker gets SIGKILL in the middle of its requests; the master
  starts another and the tablets retry what it was serving.

Then the database is read: every acknowledged claim must be there once, with
the seq it was answered (lost: 0), no client id or claim twice (duplicated:
0), each mesa's log exactly its simulated log, and each mesa's stored state
equal to the engine's replay of its log (and finished, with the winner the
simulator's tally gives). It prints the figures and exits 1 when any check
fails. Traffic goes only to 127.0.0.1.
"""

import argparse
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def fresh_database(url):
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def seed(tablets, rng):
    """A ready mesa per tablet, its juez's session, and the claim log the simulator wrote for it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.utils.crypto import get_random_string

    from refereeing.claimlog.log import header_for
    from refereeing.engine.simulator import simulate_mesa
    from tournament.models import Championship, Mesa, Pair, Player

    today = date.today()
    championship = Championship.objects.create(name="Chaos", start_date=today, end_date=today, tables=tablets)
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
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.acked = {}  # client id -> (mesa, seq)
        self.status = Counter()

    def add(self, **counts):
        with self.lock:
            self.counts.update(counts)


def play(tablet, url, drop, tally, rng):
    """Send the tablet's claims in order, each until an answer arrives that is not thrown away."""
    import requests

    session = requests.Session()
    session.cookies.set("sessionid", tablet["session"])
    session.cookies.set("csrftoken", tablet["csrf"])
    headers = {"X-CSRFToken": tablet["csrf"], "Referer": url + "/"}
    endpoint = f"{url}/api/mesas/{tablet['mesa']}/claims/"
    for seq, claim in enumerate(tablet["claims"], start=1):
        body = {"client_id": str(uuid.uuid4()), "claim": claim, "expected_seq": seq}
        while True:
            try:
                response = session.post(endpoint, json=body, headers=headers, timeout=60)
            except requests.RequestException:
                tally.add(connection_errors=1, retries=1)
                time.sleep(0.2)
                continue
            with tally.lock:
                tally.status[response.status_code] += 1
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


def check(tablets, tally):
    """What the database holds against what the tablets were told."""
    from django.db.models import Count

    from refereeing.claimlog.log import header_for, state_dict
    from refereeing.engine import replay
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
    parser.add_argument("--tablets", type=int, default=128)
    parser.add_argument("--drop", type=float, default=0.2, help="share of answers thrown away")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/mesa_server")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    args = parser.parse_args()

    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "chaos-only-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{args.port}",
        "WEB_CONCURRENCY": str(args.workers),
        "LOG_LEVEL": "ERROR",
        "PYTHONPATH": str(ROOT),
    }
    fresh_database(args.database_url)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    tablets = seed(args.tablets, rng)
    connections.close_all()
    total = sum(len(t["claims"]) for t in tablets)
    print(
        f"{len(tablets)} tablets, {total} claims (simulated mesas of {min(len(t['claims']) for t in tablets)}-"
        f"{max(len(t['claims']) for t in tablets)}), {args.drop:.0%} of answers dropped, "
        f"{args.workers} workers",
        flush=True,
    )

    url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen([str(BIN / "gunicorn"), "-c", "config/gunicorn.py", "config.asgi"], cwd=ROOT, env=env)
    import psutil
    import requests

    try:
        for _ in range(300):
            try:
                requests.get(url + "/api/schema/", timeout=5)
                break
            except requests.RequestException:
                time.sleep(0.5)
        tally = Tally()
        started = time.monotonic()
        threads = [
            threading.Thread(target=play, args=(t, url, args.drop, tally, random.Random(args.seed * 1000 + n)))
            for n, t in enumerate(tablets)
        ]
        for thread in threads:
            thread.start()
        killed = None
        while any(t.is_alive() for t in threads):
            if killed is None and tally.counts["acknowledged"] >= total // 2:
                workers = psutil.Process(server.pid).children()
                victim = random.Random(args.seed).choice(workers)
                os.kill(victim.pid, signal.SIGKILL)
                killed = (victim.pid, tally.counts["acknowledged"], time.monotonic() - started)
                print(
                    f"SIGKILL worker {victim.pid} after {killed[1]} acknowledged claims ({killed[2]:.0f} s)", flush=True
                )
            time.sleep(0.05)
        elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=60)

    figures = check(tablets, tally)
    c = tally.counts
    print(f"\nwall time {elapsed:.0f} s, {c['acknowledged'] / elapsed:.0f} claims acknowledged/s")
    print(f"claims sent        {total}")
    print(f"acknowledged       {c['acknowledged']} ({c['replayed_answers']} of them the first answer replayed)")
    print(f"lost               {figures['lost']}")
    print(f"duplicated         {figures['duplicated']}")
    print(f"5xx seen           {c['server_errors']}")
    print(f"answers dropped    {c['dropped']}; connection errors {c['connection_errors']}; refused {c['refused']}")
    print(f"statuses           {dict(sorted(tally.status.items()))}")
    print(f"worker killed      {'pid %d after %d claims' % killed[:2] if killed else 'none'}")
    print(f"mesas whose log is exactly the simulated one:    {figures['same_log']}/{len(tablets)}")
    print(f"mesas whose stored state equals their replay:    {figures['state_equals_replay']}/{len(tablets)}")
    print(f"mesas finished with the simulator's winner:      {figures['finished_as_simulated']}/{len(tablets)}")
    ok = (
        figures["lost"] == 0
        and figures["duplicated"] == 0
        and c["acknowledged"] == total
        and figures["state_equals_replay"] == figures["same_log"] == len(tablets)
        and killed is not None
    )
    print("OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
