"""The public mirror under load: the venue takes claims from 512 tablet streams while a mirror serves 2,000 scoreboards.

    .venv/bin/python benchmarks/mirror.py [--mesas 256] [--spectators 2000] [--rate 10] [--time 60]
                                          [--cut 300] [--workers 4] [--mirror-workers 2] [--port 8786]
    .venv/bin/python benchmarks/mirror.py --codes 20
    .venv/bin/python benchmarks/mirror.py --smoke [--redis-url ...]

Two PostgreSQL clusters of its own (``tests/mirror/clusters.py``, on ports
of ``TEST_PORTS`` where set): the venue's, with ``wal_level = logical``, and
the mirror's. The mirror reaches the venue through a relay of this process
(``Link``), as it would through its tunnel, so that the link can be cut.
The venue's production set-up (gunicorn, Redis, the claim benchmark's
settings with its bare endpoint) is seeded as ``benchmarks/live.py`` seeds
it; the load generator is ``benchmarks/live_clients.py``, on the same cores.

Phases, in one run:

1. **No mirror**: claims at ``--rate`` a second for ``--time`` s, two tablet
   streams per mesa open on the venue: the venue's claim p99, the floor.
2. **Mirror**: the venue restarted with ``MIRROR_URL`` (its acts now
   publish the planillas' code digests), ``make mirror-publish`` / ``make mirror``'s commands, the
   first copy timed; the mirror's app (``MIRROR=true``, gunicorn) with
   ``--spectators`` scoreboards open on it: its workers' RSS before and
   after, over the streams (memory per stream); claims at ``--rate`` again:
   the venue's claim p99 against phase 1's, while the Director files,
   admits and rules appeals at mesas of their own (``Appeals``), each
   (claim, scoreboard) pair
   from the claim's post at the venue to the mirror's scoreboard holding its
   row (the venue's own answer is inside the figure), and the mirror's
   gunicorn CPU over the spectators (CPU per spectator); its PostgreSQL's
   CPU apart (the machine's other clusters are not counted).
3. **The link is cut** for ``--cut`` s while claims go on (every connection
   through the relay closed, new ones refused, as when the tunnel drops),
   then restored: the time until the mirror holds every claim; whether it
   holds exactly the venue's claim log (none lost, none doubled) and its
   appeals as they were ruled; whether
   the mirror's live updates (``mirror.notify``, LISTENed to all along)
   gave each mesa's claims in order, each once; and the time until every
   scoreboard shows each mesa's last claim.

Apart (``--codes ROUNDS``, a cluster of its own): what each act at the venue
pays for the mirror's planilla check, one refresh of its mesa's code
digests (``mirror.codes``), on a mesa of three long chicas.

Targets: mirror scoreboards p99 < 1 s; the venue's claim p99 within 1.2
times phase 1's; no (claim, scoreboard) pair missed; after the cut, every
claim on the mirror, in order, none lost or doubled, every scoreboard
current within 10 s of the link's return. Figures: benchmarks/RESULTS.md
("The public mirror").
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.claims.run import collect_static, fresh_database, seed, server_environment, warm_up  # noqa: E402
from benchmarks.live import HOST, Generator, Meter, Server, check_services, claims_phase, show  # noqa: E402
from mirror.publication import CHANNEL  # noqa: E402
from tests.mirror.clusters import cluster  # noqa: E402
from tests.support.production import free_port  # noqa: E402

CLAIM_LOG = "SELECT id, mesa_id, seq FROM refereeing_claimentry ORDER BY id"
APPEALS = "SELECT id, mesa_id, seq, status, ruling FROM refereeing_appeal ORDER BY id"
APPEAL_MESAS = 8  # mesas of the championship no tablet posts to: the appeals' (``Appeals``)


def manage(env, *argv):
    done = subprocess.run([sys.executable, "manage.py", *argv], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def manage_py(env, script, *argv):
    """``collect_static``'s way to run ``manage.py`` here."""
    return manage(env, *argv)


def rows(url, sql):
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        return db.execute(sql).fetchall()


def count(url):
    return rows(url, "SELECT count(*) FROM refereeing_claimentry")[0][0]


def wait_same(venue_url, mirror_url, seconds):
    """Seconds until the mirror holds as many claims as the venue."""
    started = time.monotonic()
    while count(mirror_url) != count(venue_url):
        if time.monotonic() - started > seconds:
            raise SystemExit(f"the mirror did not catch up in {seconds} s")
        time.sleep(0.05)
    return time.monotonic() - started


class Link:
    """The venue as the mirror reaches it: a TCP relay to the venue's PostgreSQL, cut and restored on demand.

    Cut as a tunnel drops: the connections through it are closed and new
    ones refused (nothing listens) until it is restored on the same port.
    """

    def __init__(self, target):
        self.target, self.port = target, free_port()
        self.lock, self.sockets, self.listener = threading.Lock(), set(), None
        self.restore()

    def restore(self):
        self.listener = socket.create_server((HOST, self.port))
        threading.Thread(target=self.accept, args=(self.listener,), daemon=True).start()

    def accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
                upstream = socket.create_connection((HOST, self.target))
            except OSError:
                if listener.fileno() == -1:
                    return
                continue
            with self.lock:
                self.sockets |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def pump(source, sink):
        try:
            while data := source.recv(1 << 16):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
        self.listener.close()
        with self.lock:
            cut, self.sockets = self.sockets, set()
        for end in cut:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()


class Listener:
    """The mirror's live updates as its app servers get them (LISTEN), in the order they arrive."""

    def __init__(self, url):
        import psycopg

        self.messages, self.stopping = [], False
        self.connection = psycopg.connect(url, autocommit=True)
        self.connection.execute(f"LISTEN {CHANNEL}")
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopping:
            for notice in self.connection.notifies(timeout=0.5):
                self.messages.append(json.loads(notice.payload))

    def stop(self):
        self.stopping = True
        self.thread.join()
        self.connection.close()

    def out_of_order(self, before, after):
        """Mesas whose claims were not told each once, in order, from seq ``before[mesa]`` to ``after[mesa]``."""
        told = {}
        for message in self.messages:
            for mesa, seq in message["s"].items():
                seqs = told.setdefault(int(mesa), [])
                if not seqs or seqs[-1] != seq:  # one claim's transaction may update its mesa more than once
                    seqs.append(seq)
        return sorted(
            mesa
            for mesa, last in after.items()
            if last > before.get(mesa, 0) and told.get(mesa, []) != list(range(before.get(mesa, 0) + 1, last + 1))
        )


class Appeals:
    """The Director's work at the venue while the tablets post, one appeal every ``every`` seconds.

    At the mesas no tablet posts to, their juez logs a scripted mesa's
    plays (``demo.scripted``) until one may be appealed; pair B
    appeals it, the Director admits it (the mesa suspended) and rules it,
    upheld every other time (the play voided), and the mesa resumes: every
    act through its domain function, so that the mirror copies appeals,
    suspensions, voids and rulings under load (its trigger runs on the
    appeals' rows). Apart from the tablets' mesas, whose logs their
    ``expected_seq`` follows.
    """

    def __init__(self, championship, mesa_ids, every):
        from django.contrib.auth import get_user_model

        from tournament.models import Championship

        director = get_user_model().objects.create_user("director", password=None)
        Championship.objects.filter(pk=championship).update(director=director)
        self.mesa_ids, self.every, self.ruled = list(mesa_ids), every, 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        import uuid

        from django.db import connections

        from demo import scripted
        from refereeing.appeals import procedure
        from refereeing.claimlog.log import record_claim
        from tests.mirror.acts import drawing
        from tournament.models import Mesa

        signature = drawing()
        plays = {pk: scripted.claims("A", pk) for pk in self.mesa_ids}
        try:
            while self.mesa_ids and not self.stopping.wait(self.every):
                mesa = Mesa.objects.select_related("juez", "championship__director").get(
                    pk=self.mesa_ids[self.ruled % len(self.mesa_ids)]
                )
                for claim in plays[mesa.pk]:
                    answer = record_claim(mesa, claim, uuid.uuid4(), user=mesa.juez)
                    if answer.state["finished"] or claim["kind"] not in procedure.NOT_APPEALABLE:
                        break
                if answer.state["finished"]:
                    self.mesa_ids.remove(mesa.pk)
                    continue
                director, upheld = mesa.championship.director, self.ruled % 2 == 0
                appeal = procedure.file_appeal(
                    mesa, "B", answer.last_seq, "Jugada fuera de turno.", "B", signature, uuid.uuid4(), by=mesa.juez
                )
                procedure.admit(appeal, by=director)
                procedure.rule(appeal, upheld, "Resuelta en la prueba de carga.", by=director, undo=upheld)
                self.ruled += 1
        finally:
            connections.close_all()

    def stop(self):
        self.stopping.set()
        self.thread.join()
        return self.ruled


def cluster_cpu(port):
    """CPU seconds of one cluster's processes (its postmaster, found by its port, and its children)."""
    import psutil

    from benchmarks.claims.run import cpu_seconds

    for process in psutil.process_iter(["name", "cmdline"]):
        if process.info["name"] == "postgres" and f"-p {port}" in " ".join(process.info["cmdline"] or ()):
            return cpu_seconds(process)
    raise SystemExit(f"no PostgreSQL listens on port {port}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mesas", type=int, default=256)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--spectator-processes", type=int, default=2)
    parser.add_argument("--rate", type=float, default=10, help="claims a second")
    parser.add_argument("--time", type=int, default=60, help="seconds of claims in phases 1 and 2")
    parser.add_argument("--cut", type=int, default=300, help="seconds the link to the venue is cut in phase 3")
    parser.add_argument("--workers", type=int, default=4, help="the venue's gunicorn workers")
    parser.add_argument("--mirror-workers", type=int, default=2, help="the mirror's gunicorn workers")
    parser.add_argument("--port", type=int, default=8786, help="the venue's app; the mirror's is --port + 10")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--appeal-every", type=float, default=5, help="seconds between two appeals ruled")
    parser.add_argument("--codes", type=int, metavar="ROUNDS", help="only time the planilla digests' refresh")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="2 mesas, 4 scoreboards, 3 s phases and cut, one worker each: for the test suite (it exits 1 on a lost"
        " or misordered claim, not on a latency)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.mesas, args.spectators, args.spectator_processes, args.rate = 2, 4, 1, 2
        args.time, args.cut, args.workers, args.mirror_workers = 3, 3, 1, 1
    if args.codes:
        return codes_cost(args.codes)
    for signum in (signal.SIGTERM, signal.SIGHUP):  # atexit then stops gunicorn
        signal.signal(signum, lambda number, frame: sys.exit(f"stopped by signal {number}"))
    with (
        cluster("wal_level=logical", "max_connections=200") as venue_port,
        cluster("max_connections=200") as mirror_port,
    ):
        return run(args, venue_port, mirror_port)


def run(args, venue_port, mirror_port):
    venue_url = f"postgres://postgres@127.0.0.1:{venue_port}/venue"
    mirror_url = f"postgres://postgres@127.0.0.1:{mirror_port}/mirror"
    fresh_database(venue_url)
    fresh_database(mirror_url)
    args.database_url = venue_url
    env = server_environment(venue_url, args.redis_url)
    check_services(args)
    import django

    django.setup()
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    collect_static(env, manage_py)
    manage(env, "migrate", "--run-syncdb", "-v", "0")  # and the bare endpoint's table
    from django.db import connections

    from tournament.models import Championship

    tablets = seed(2, 2 * (args.mesas + APPEAL_MESAS))
    championship = Championship.objects.get().pk
    appeal_mesas = sorted({tablet["mesa"] for tablet in tablets[2 * args.mesas :]})
    tablets = tablets[: 2 * args.mesas]
    connections.close_all()
    connections["default"].close_pool()
    tempfile.tempdir = tempfile.mkdtemp(prefix="mirror-bench-")

    venue = Server(env, args.port, args.workers)
    venue.start()
    print(
        f"{args.mesas} mesas, {2 * args.mesas} tablet streams at the venue, {args.spectators} scoreboards on the "
        f"mirror, venue gunicorn -w {args.workers}, mirror -w {args.mirror_workers}, {os.cpu_count()} cores, "
        f"load average before {os.getloadavg()[0]:.1f}; open files allowed {os.sysconf('SC_OPEN_MAX')}",
        flush=True,
    )
    results = {}
    mirror = None
    try:
        warm_up(f"http://{HOST}:{args.port}", tablets[0], rounds=8 * args.workers)
        args.spectator_processes, spectators = 0, args.spectator_processes
        generator = Generator(args, tablets, championship, venue.port)
        generator.wait_open(180)
        results["alone"] = claims_phase(
            generator, venue, args.rate, args.time, f"1. claims at {args.rate:g}/s, tablet streams, no mirror"
        )
        generator.stop()

        # The venue now has a mirror: its acts publish the planillas' code digests too (``mirror.codes``).
        venue.stop()
        venue.env = {**env, "MIRROR_URL": f"http://{HOST}:{args.port + 10}"}
        venue.start()
        warm_up(f"http://{HOST}:{args.port}", tablets[0], rounds=8 * args.workers)
        started = time.monotonic()
        manage(venue.env, "mirror_publish")
        mirror_env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": mirror_url,
            "MIRROR": "false",
            "DEBUG": "false",
            "SECRET_KEY": "m" * 50,
            "ALLOWED_HOSTS": HOST,
            "REDIS_URL": "",
            # The venue's files where they are collected already (STATIC_COLLECTED), else its own.
            "STATIC_ROOT": env["STATIC_ROOT"] if env.get("STATIC_COLLECTED") == "1" else tempfile.mkdtemp(prefix="m-"),
        }
        collect_static(mirror_env, manage_py)
        link = Link(venue_port)
        subscribing = time.monotonic()
        manage(mirror_env, "mirror_subscribe", "--venue", f"host={HOST} port={link.port} dbname=venue user=postgres")
        copy = wait_same(venue_url, mirror_url, 600)
        print(
            f"\n2. the mirror published, set up and subscribed in {time.monotonic() - started:.1f} s; "
            f"its first copy took {time.monotonic() - subscribing:.1f} s from the subscription",
            flush=True,
        )
        mirror = Server({**mirror_env, "MIRROR": "true"}, args.port + 10, args.mirror_workers)
        mirror.start()
        board = f"http://{HOST}:{mirror.port}/en-vivo/{championship}/"
        for _ in range(4 * args.mirror_workers):  # every worker imports and renders before its RSS is taken
            urllib.request.urlopen(board, timeout=30).read()
        rss_before, opening = mirror.rss(), time.time()
        args.spectator_processes = spectators
        generator = Generator(args, tablets, championship, venue.port, spectator_port=mirror.port)
        counts = generator.wait_open(300)
        time.sleep(5)
        streams = {
            "scoreboards open, s": counts["last_opened"] - opening,
            "mirror worker RSS before, MB": rss_before / 2**20,
            "mirror worker RSS with streams, MB": mirror.rss() / 2**20,
        }
        streams["KB per scoreboard stream"] = (mirror.rss() - rss_before) / args.spectators / 1024
        show(streams)
        mirror_meter, mirror_pg = Meter(mirror, generator), (time.monotonic(), cluster_cpu(mirror_port))
        appeals = Appeals(championship, appeal_mesas, args.appeal_every)
        results["mirror"] = claims_phase(
            generator, venue, args.rate, args.time, f"   claims at {args.rate:g}/s, the scoreboards on the mirror"
        )
        spent = mirror_meter.percents()["server CPU %"]
        results["mirror"] |= streams | {
            "mirror server CPU %": spent,
            "  per 1,000 spectators, %": 1000 * spent / args.spectators,
            "mirror PostgreSQL CPU %": 100
            * (cluster_cpu(mirror_port) - mirror_pg[1])
            / (time.monotonic() - mirror_pg[0]),
            "first copy, s": copy,
        }
        show({name: results["mirror"][name] for name in ("mirror server CPU %", "  per 1,000 spectators, %")})
        show({"mirror PostgreSQL CPU %": results["mirror"]["mirror PostgreSQL CPU %"]})

        results["cut"] = cut_phase(args, generator, link, venue_url, mirror_url, appeals)
        generator.stop()
    finally:
        venue.stop()
        if mirror:
            mirror.stop()
    return summary(results, args.smoke)


def cut_phase(args, generator, link, venue_url, mirror_url, appeals):
    print(f"\n3. the link to the venue is cut for {args.cut} s while claims go on ...", flush=True)
    last_seqs = "SELECT id, last_seq FROM tournament_mesa"
    wait_same(venue_url, mirror_url, 60)
    before = dict(rows(venue_url, last_seqs))
    listener = Listener(mirror_url)
    link.cut()
    generator.ask("reset")
    generator.ask("claims", args.rate, args.cut, only="tablets")
    behind = count(venue_url) - count(mirror_url)
    after = dict(rows(venue_url, last_seqs))
    generator.ask("reset", only="spectators")
    ruled = appeals.stop()
    link.restore()
    restored = time.time()
    caught_up = wait_same(venue_url, mirror_url, 600)
    changed = [(mesa, seq, restored) for mesa, seq in after.items() if seq > before[mesa]]
    deadline = time.monotonic() + 60
    while True:  # until every scoreboard shows each mesa's last claim (or a minute)
        answers = generator.ask("latencies", changed, only="spectators").values()
        if not sum(a["missing"] for a in answers) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    time.sleep(1)  # the last notices of the catch-up reach the listener
    listener.stop()
    current = [max(memoryview(a["ms"]).cast("f"), default=0.0) for a in answers]
    figures = {
        "claims behind when restored": behind,
        "mirror caught up after, s": caught_up,
        "every scoreboard current after, s": max(current, default=0.0) / 1000,
        "(mesa, scoreboard) pairs stale": sum(a["missing"] for a in answers),
        "claim log same as the venue's": rows(mirror_url, CLAIM_LOG) == rows(venue_url, CLAIM_LOG),
        "appeals filed, admitted and ruled": ruled,
        "appeals same as the venue's": rows(mirror_url, APPEALS) == rows(venue_url, APPEALS),
        "mesas told out of order or twice": len(listener.out_of_order(before, after)),
    }
    show(figures)
    return figures


def codes_cost(rounds):
    """``--codes``: what each act at the venue pays for the mirror's planilla check (``mirror.codes.refresh``), on
    a cluster of its own: a mesa of three long chicas (``tests.support.planilla_factories.long_mesa``), wall and CPU."""
    with cluster() as port:
        url = f"postgres://postgres@127.0.0.1:{port}/venue"
        fresh_database(url)
        os.environ.update(
            DATABASE_URL=url, DJANGO_SETTINGS_MODULE="config.settings", MIRROR="false", MIRROR_URL="http://mirror"
        )
        manage(os.environ, "migrate", "-v", "0")
        import django

        django.setup()
        from mirror import codes
        from mirror.models import PlanillaCode
        from tests.support.planilla_factories import long_mesa

        mesa, _log = long_mesa()
        print(f"a mesa of {mesa.claims.count()} claims, {rounds} rounds, load average {os.getloadavg()[0]:.1f}")
        for label, every, stale in (
            ("an act that changed the record", False, True),
            ("a save that changed nothing in it", False, False),
            ("mirror_publish (every code)", True, True),
        ):
            wall = cpu = 0.0
            for _ in range(rounds):
                if stale:
                    PlanillaCode.objects.filter(mesa=mesa).update(digests=[])
                started, used = time.perf_counter(), time.process_time()
                codes.refresh([mesa.pk], every=every)
                wall += time.perf_counter() - started
                cpu += time.process_time() - used
            show({f"{label}, ms (CPU)": f"{1000 * wall / rounds:.1f} ({1000 * cpu / rounds:.1f})"})
    return 0


def summary(results, smoke=False):
    alone, mirrored, cut = results["alone"], results["mirror"], results["cut"]
    ratio = mirrored["claim p99"] / alone["claim p99"]
    checks = [
        ("mirror scoreboards p99 < 1 s", mirrored["scoreboards p99"] < 1000),
        ("venue claim p99 within 1.2x of the run without a mirror", ratio <= 1.2),
        ("no (claim, scoreboard) pair missed", mirrored["pairs missed by scoreboards"] == 0),
        ("after the cut: the mirror's claim log is the venue's", cut["claim log same as the venue's"]),
        (
            "appeals ruled under load, and the mirror's are the venue's",
            cut["appeals filed, admitted and ruled"] > 0 and cut["appeals same as the venue's"],
        ),
        ("after the cut: each mesa's claims told in order, once", cut["mesas told out of order or twice"] == 0),
        (
            "after the cut: every scoreboard current within 10 s",
            cut["(mesa, scoreboard) pairs stale"] == 0 and cut["every scoreboard current after, s"] < 10,
        ),
    ]
    print(f"\nvenue claim p99 with the mirror / without: {ratio:.2f}")
    for name, ok in checks:
        print(f"  {'ok ' if ok else 'MISS'} {name}")
    # A smoke run is seconds long on a shared machine: what it holds to is that no claim is lost or misordered.
    held = [ok for name, ok in checks if not smoke or not any(word in name for word in (" p99 ", " within "))]
    return 0 if all(held) else 1


if __name__ == "__main__":
    sys.exit(main())
