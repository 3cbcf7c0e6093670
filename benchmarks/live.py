"""The live updates under load: 512 tablet streams and 2,000 scoreboards against the production set-up.

    .venv/bin/python benchmarks/live.py [--mesas 256] [--spectators 2000] [--rate 10] [--stress-rate 20]
                                        [--time 60] [--idle 20] [--workers 4] [--poll-mesas 128]
                                        [--spectator-processes 2] [--skip-stress] [--skip-polling]

Checks that PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer,
makes a fresh PostgreSQL database (``mesa_live_bench``), empties Redis
database 4, seeds one championship with ``--mesas`` ready mesas, a juez and
two signed-in tablets each (``benchmarks/claims/run.py``'s ``seed``), and
starts the production set-up on 127.0.0.1: ``gunicorn -c
config/gunicorn.py config.asgi`` with ``DEBUG=false``, Redis for the
sessions and as the live updates' broker (``REDIS_URL``), and the claim
benchmark's bare endpoint (``benchmarks/claims/bench_settings.py``). The
load generator (``live_clients.py``, asyncio on raw sockets) runs beside it
on the same cores: one process for the tablets and the claims and
``--spectator-processes`` for the scoreboards; its CPU is measured too.
Gunicorn is stopped at exit, whatever happens.

Phases, in one run:

1. **No streams**: claims at ``--rate`` a second for ``--time`` s, the mesas
   in turn, each posted by its mesa's first tablet and followed by a bare
   write (one INSERT through the same middleware) on the same connection.
2. **Streams open**: two tablet streams per mesa and ``--spectators``
   scoreboards (``vista=tablero``): the time until all have their first
   event; then, all idle for ``--idle`` s, the CPU of gunicorn (master and
   workers), Redis and PostgreSQL, and the workers' memory per stream (RSS
   after minus before, over the streams).
3. **Claims at --rate**, the streams open. Measured: the claim and bare p99
   and their ratio; the *other tablet*: from posting the claim to the
   mesa's second tablet having the entry (its stream's ``seq``, then its
   fetch of ``claims/?after=``); the *scoreboards*: from posting the claim
   to each spectator holding the mesa's row with that seq or a later one,
   over every (claim, spectator) pair; delivery: each claim's seq reached
   both tablet streams of its mesa and every spectator; drops and failures.
4. **Stress**: the same at ``--stress-rate``.
5. **Restart**: gunicorn gets SIGTERM (its workers give the streams 3 s,
   ``config.serving.Worker``) and is started again; every client retries a
   second after its drop (tablets with ``Last-Event-ID``); the time from the
   SIGTERM until every stream is open again with its first event.
6. **Polling, as before**: no stream; both tablets of ``--poll-mesas``
   mesas poll ``claims/?after=`` once a second, claims at ``--rate`` on
   those mesas: the other tablet's latency and the server's CPU.

Targets: no stream fails or drops and every event is delivered; other
tablet p99 < 150 ms; scoreboards p99 < 500 ms; claim p99 within 1.5 times
the bare write's in the same run (also reported against phase 1's bare
write, no stream open); all streams back within 10 s of a restart; at 20
claims/s, tablets p99 < 250 ms, scoreboards p99 < 1 s, no failure.

Measured (2-core machine; load generator, PostgreSQL and Redis on the same cores)
---------------------------------------------------------------------------------
256 mesas, 512 tablet streams, 2,000 scoreboards, 4 workers, ``--time 60``.

G is the code as it stands, run on 25 November in the afternoon; F3 the
code before its last review commit, the same morning, when the machine was
much slower: the same phase 1 took 32% of a core against 23% in G (and 23%
in C, the code before this benchmark's session, on another day). So read
each column against its own phase 1 (the floor of the same run), not
across columns. F2, an hour before F3 (before the events were encoded once
and the timers became one watch), had a floor of 34% and a CPU ratio of
3.4 at 10 claims/s, its 20 claims/s phase queued for 9-16 s. Times in ms,
CPU in % of one core (the machine has 200%).

=============================================  ==============  ==============  ==============  ==========
figure                                             G (as now,    F3 (morning)   C (before, 2nd  target
                                                   afternoon)                             day)
=============================================  ==============  ==============  ==============  ==========
1. no stream, 10 claims/s: claim p50 / p99        15.0 / 29.4     21.6 / 39.8     16.2 / 23.2
   bare write p50 / p99                            6.7 / 9.9      10.0 / 16.0      6.2 / 10.2
   server CPU (the run's floor)                           23%             32%             23%
2. 2,512 streams open, first events in                  3.0 s           5.9 s           3.5 s
   idle 20 s: server CPU (master + 4 workers)            1.5%            1.8%            2.3%
   workers' RSS before -> with streams, MB         364 -> 448      363 -> 716      357 -> 799
   RSS per stream                                       34 KB          144 KB          180 KB
3. 10 claims/s, streams open: claim p50 / p99     15.4 / 57.4      27.4 / 114      19.0 / 130
   bare write p50 / p99 (same run)                11.3 / 49.9      20.7 / 117     10.8 / 87.2
   claim p99 / bare p99, same streams                    1.15            0.98            1.49  < 1.5
   claim p99 / bare p99 with no stream open               5.8             7.1            12.8
   other tablet (seq + fetch) p50 / p99            27.7 / 81.4      48.7 / 158      32.7 / 156  p99 < 150
   - its seq event alone p50 / p99                 13.6 / 54.6     23.2 / 98.7      16.9 / 123
   scoreboards p50 / p99 (1.2 M pairs)              185 / 348       219 / 455       262 / 459  p99 < 500
   missed seqs / entries / scoreboard pairs         0 / 0 / 0       0 / 0 / 0       0 / 0 / 0  0
   stream drops / failures; request failures         0 / 0; 0        0 / 0; 0        0 / 0; 0  0
   CPU: server / PostgreSQL / clients                57/7/21%        90/9/35%        79/7/20%
   server CPU with streams / phase 1 (floor)             2.5x            2.8x            3.4x
4. 20 claims/s: claim p99 / bare p99                47.7 / 43.3     1252 / 1312       138 / 115
   other tablet p50 / p99                          23.5 / 75.5      205 / 1850      48.4 / 187  p99 < 250
   scoreboards p50 / p99 (2.4 M pairs)              180 / 336       377 / 1538        252 / 490  p99 < 1000
   drops, failures, missed                                  0               0               0  0
   CPU: server / clients                             70 / 22%       122 / 39%       108 / 25%
5. restart: all streams back (from SIGTERM)             6.0 s          10.2 s           7.1 s  < 10 s
   - gunicorn stopped / answering again           3.4 / 5.8 s    3.4 / 10.3 s     3.4 / 5.5 s
   - from the moment it stopped                         2.6 s           6.8 s           3.7 s
6. polling, 128 tablets: other tablet p50/p99     525 / 1035      739 / 1987      521 / 1007
   poll p99; claim p99; server CPU              120; 60; 100%  953; 958; 161%    32; 31; 95%
   256 tablets: other tablet p50 / p99           1141 / 2361     2708 / 6459       543 / 1070
   poll p99; claim p99; server CPU             954; 972; 162% 3156; 3208; 166%  134; 139; 154%
=============================================  ==============  ==============  ==============  ==========

G met every target, the stress's too, in a full run (and in a short run
half an hour before it: ``--time 40 --idle 10 --skip-polling``, floor 22.5%,
other tablet p99 74.9 ms, scoreboards 343, at 20 claims/s 88.0 / 352,
restart 6.4 s). F3 missed three by a little at 10 claims/s, and the stress
by far: on that machine, at that hour, 20 claims/s filled both cores.

How much slower may the machine get? Two more short runs of G's code,
with a busy loop in another process beside it (busy 60% and 100% of each
tenth of a second: a core's worth taken from the two), met every target
too. At 10 claims/s: other tablet p99 106.9 and 115.9 ms, scoreboards
377 and 390 ms, claim / bare p99 1.03 and 1.23; at 20 claims/s: other
tablet 173.9 and 128.9 ms, scoreboards 412 and 402 ms; all streams back
7.4 and 7.8 s after SIGTERM; nothing failed or was missed. Their floors
were G's (22.7 and 22.9% of a core): a core taken away is not what made
F3's morning slow, where every request cost 40% more CPU.

Short runs of each change (``--time 30`` or ``40 --idle 10``, no stress,
no polling), the same morning, in the order made; the CPU ratio is the
server's at 10 claims/s with the streams open over its own phase 1:

=============================================  ======  =========  ===========  ===========  ==========
change (cumulative, but for those dropped)     ratio   claim /    other tablet scoreboards  streams back
                                                       bare p99   p99          p99          (SIGTERM)
=============================================  ======  =========  ===========  ===========  ==========
before (C's code)                              2.99    886 / 954  1506         1318         10.9 s
uvloop + httptools, boards in slices of 50     2.57    267 / 248  397          672          9.6 s
a timeout scope for wait_for (a task a wait)*  2.40    180 / 155  228          580          8.3 s
GIL switch interval 1 ms (dropped)             2.93    244 / 223  361          767          9.5 s
a fixed beat per process (replaced)            2.78    142 / 147  221          395          8.0 s
same + switch interval 1 ms (dropped)          2.89    540 / 483  896          893          11.0 s
lag + rest, encoded once, one watch (as now)   2.37    180 / 163  271          537          8.7 s
as now, 2 workers instead of 4                 2.06    115 / 120  169          474          9.2 s
as now, 2 workers + 2 on a streams' server**   1.98    83 / 69    137          544          12.4 s
=============================================  ======  =========  ===========  ===========  ==========

(*: py-spy was sampling one worker during that run. **: ``--workers 2
--stream-workers 2``, the streams on a second gunicorn (``STREAMS_URL``);
that run stopped the two servers one after the other, which the restart's
figure shows, and each client's refused retries meanwhile counted as
failed reconnections; they now stop and start together.) The fixed beat (each process's batches at a fixed phase) held at 10
claims/s but, with no rest between batches, let them run back to back
when they grew long: the first full run's 20 claims/s phase went to 16 s
(p99) before it was replaced by a random first wait and a whole batch of
rest after each (``streams/hub.py``).

What the figures say
--------------------
* Delivery holds: no stream failed or dropped and every seq and every row
  arrived, in every run, at 10 and 20 claims/s, and every stream came back
  after each restart, with no failed reconnection.
* At 10 claims/s the claim endpoint stays within its bare write's p99
  (1.15 in G, 0.98 in F3), and the scoreboards meet their target in both.
  The other tablet's figure is the claim itself (the clock starts when the
  first tablet posts it), the seq's trip, then a second request, so its
  p99 is bound to exceed the bare write's p99 under the same load plus the
  push: 81 ms in G, but 158 ms in F3, whose bare write's p99 alone was
  117 ms. What the machine gives at that hour decides that target.
* At 20 claims/s G's server took 70% (F3's 122%, with the load generator
  at 39% and PostgreSQL at 13% of the 200%: both cores full, so requests
  queued for a second or more, though nothing failed or was lost). Where
  the cores go: 8,000 board events a second (2,000 scoreboards, a batch
  every 250 ms), whatever the claims' rate. py-spy on the four workers at
  10 claims/s, before F3, counted 22% of their samples in Django's views,
  12% in the socket writes themselves, 9% rendering each batch's rows
  (once per worker), 7% encoding the rows' JSON once per board and 8% in
  the timers around each wait and write: those last two are gone (the
  ratio to the floor went from 2.8-3.4 to 2.4-2.8).
* The restart: 3.4 s of the workers' graceful shutdown
  (``config.serving.SHUTDOWN_SECONDS``), then gunicorn's own start (four
  workers loading Django on two cores while 2,512 clients retry each
  second): the streams were back 2.6 s after it stopped in G, 6.8 s in F3.
* Polling once a second costs more than all the streams: 128 polling
  tablets took 100% of the server's CPU in G (161% in F3) and their other
  tablet waited 0.5-1 s (F3: 0.7-2 s), where 2,512 streams took 57% (F3:
  90%) with the other tablet at 28 ms (p50).
* Two workers instead of four (one per core) cost less with these streams
  (each worker renders every batch once, and two share the cores better
  with the load generator): the ratio fell from 2.37 to 2.06 and every
  tail with it. The claims benchmark found two and four workers alike
  (``benchmarks/claims/run.py``); a championship whose server mostly
  carries streams can set ``WEB_CONCURRENCY`` to the number of cores.
* With the streams on a server of their own (``STREAMS_URL``; 2 workers
  for the pages and the API, 2 for the streams) no claim is served on a
  loop that hands out events: in the short run the claim's p99 was 83 ms
  against 115 (one server, 2 workers) and 180 (4 workers), and the other
  tablet met its target (137 ms); the scoreboards missed theirs (544 ms),
  each of the two stream workers holding some 1,250 boards. A full run of
  that set-up (``--workers 2 --stream-workers 2 --skip-polling``, 20
  minutes after F3): phase 1 claim / bare p99 52.1 / 20.2 ms, server 38%;
  streams open in 7.7 s, idle 2.1%, 144 KB a stream; at 10 claims/s claim
  / bare p99 81.9 / 64.6 ms (**1.27**; 4.0 against phase 1's bare write),
  other tablet p50 / p99 56.6 / **141.5 ms** (its seq 91.7), scoreboards
  p50 / p99 290 / **576 ms**, server 90%; at 20 claims/s claim p99 980,
  other tablet p99 1,799, scoreboards p99 1,395 ms, server 122%; restart:
  all back **9.7 s** after SIGTERM (6.3 s after it stopped); no failure,
  drop or missed event anywhere. So it meets every target of the 10
  claims/s phase but the scoreboards', which one server meets.
* The memory per stream: 144 KB in F3, 34 KB in G. F3 encoded each
  board's first event, the snapshot of the 256 rows (~140 kB of JSON), for
  that board, and the workers' heaps kept room for them; since F3 those
  bytes are made once per change and shared by every board that opens
  meanwhile (``streams.app.Streams.snapshot``).
"""

import argparse
import atexit
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import live_clients  # noqa: E402
from benchmarks.claims.run import (  # noqa: E402
    BIN,
    cpu_seconds,
    fresh_database,
    percentile,
    seed,
    server_environment,
    wait_until_up,
    warm_up,
)

HOST = "127.0.0.1"
LANGUAGE = "es-ec"  # the site's Spanish (settings.LANGUAGES); "es" alone is a 400


class Server:
    """gunicorn with the production settings, started and restarted on demand, stopped at exit."""

    def __init__(self, env, port, workers):
        self.env, self.port, self.count, self.process, self.ps = env, port, workers, None, None
        self.log_path = Path(tempfile.gettempdir()) / f"live-bench-gunicorn-{os.getpid()}-{port}.log"
        self.log = open(self.log_path, "ab")
        atexit.register(self.kill)

    def alive(self):
        """Raise if gunicorn died (its log's tail says why)."""
        if self.process.poll() is not None:
            tail = self.log_path.read_text(errors="replace").splitlines()[-30:]
            raise SystemExit(f"gunicorn exited ({self.process.returncode}) mid-phase; its log:\n" + "\n".join(tail))

    def start(self):
        self.launch()
        self.wait_up()

    def launch(self):
        import psutil

        self.process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "-c",
                "config/gunicorn.py",
                "config.asgi:application",
                "-b",
                f"{HOST}:{self.port}",
                "-w",
                str(self.count),
                "--backlog",
                "4096",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stderr=self.log,
            start_new_session=True,  # its own process group: killed whole at exit
        )
        self.ps = psutil.Process(self.process.pid)

    def wait_up(self):
        wait_until_up(f"http://{HOST}:{self.port}/", seconds=60)

    def stop(self):
        self.terminate()
        self.wait_stopped()

    def terminate(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def wait_stopped(self):
        if self.process and self.process.poll() is None:
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self):
        if self.process and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()

    def cpu(self):
        return cpu_seconds(self.ps)

    def workers(self):
        return self.ps.children(recursive=True)

    def connections(self):
        """Each worker's open client connections (how the kernel spread the streams over the workers)."""
        counts = []
        for p in self.workers():
            try:
                counts.append(
                    sum(c.status == "ESTABLISHED" and c.laddr.port == self.port for c in p.net_connections("tcp"))
                )
            except Exception:  # noqa: BLE001  (a worker gone meanwhile)
                counts.append(0)
        return counts

    def rss(self):
        import psutil

        total = 0
        for p in self.workers():
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total


class Servers:
    """The app server, and with ``--stream-workers`` a second one on the next port that serves the streams."""

    def __init__(self, args, env):
        self.all = [Server(env, args.port, args.workers)]
        if args.stream_workers:
            self.all.append(Server(env, args.port + 1, args.stream_workers))
        self.stream_port = self.all[-1].port
        self.log_path = " ".join(str(server.log_path) for server in self.all)

    def start(self):  # both at once, as two pools restarted together would
        for server in self.all:
            server.launch()
        for server in self.all:
            server.wait_up()

    def stop(self):
        for server in self.all:
            server.terminate()
        for server in self.all:
            server.wait_stopped()

    def alive(self):
        for server in self.all:
            server.alive()

    def cpu(self):
        return sum(server.cpu() for server in self.all)

    def rss(self):
        return sum(server.rss() for server in self.all)

    def workers(self):
        return [p for server in self.all for p in server.workers()]

    def connections(self):
        return [n for server in self.all for n in server.connections()]


def named_cpu(prefix):
    """CPU seconds of every process whose name starts with ``prefix`` (redis-server, postgres)."""
    import psutil

    total = 0.0
    for p in psutil.process_iter(["name"]):
        if (p.info["name"] or "").startswith(prefix):
            try:
                times = p.cpu_times()
                total += times.user + times.system
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
    return total


class Meter:
    """CPU of the server, Redis, PostgreSQL and the load generator over a stretch of time, in % of one core."""

    def __init__(self, server, generator):
        self.server, self.generator = server, generator
        self.started = time.monotonic()
        self.before = self.read()

    def read(self):
        return (self.server.cpu(), named_cpu("redis-server"), named_cpu("postgres"), self.generator.cpu())

    def percents(self):
        after, elapsed = self.read(), time.monotonic() - self.started
        return {
            name: 100 * (a - b) / elapsed
            for name, a, b in zip(("server CPU %", "redis CPU %", "postgres CPU %", "client CPU %"), after, self.before)
        }


class Generator:
    """The load-generator processes and the pipes to them."""

    def __init__(self, args, tablets, championship, stream_port, poll=False):
        context = multiprocessing.get_context("spawn")
        self.pipes, self.processes = {}, []
        roles = [("tablets", {"tablets": tablets, "poll": poll, "stream_port": stream_port})]
        if not poll:
            n = args.spectator_processes
            for k in range(n):
                count = args.spectators // n + (k < args.spectators % n)
                roles.append(
                    (
                        "spectators",
                        {"championship": championship, "count": count, "language": LANGUAGE, "port": stream_port},
                    )
                )
        for n, (role, kwargs) in enumerate(roles):
            ours, theirs = context.Pipe()
            process = context.Process(
                target=live_clients.serve, args=(theirs, role, HOST), kwargs={"port": args.port} | kwargs, daemon=True
            )
            process.start()
            self.pipes[f"{role}{n}"] = ours
            self.processes.append(process)

    def ask(self, command, *args, only=None):
        targets = {name: pipe for name, pipe in self.pipes.items() if only is None or name.startswith(only)}
        for pipe in targets.values():
            pipe.send((command, args))
        return {name: pipe.recv() for name, pipe in targets.items()}

    def streams(self, since=0.0):
        reports = self.ask("streams", since).values()
        return {key: sum(r[key] for r in reports) for key in ("streams", "open", "reopened", "drops", "failures")} | {
            "last_opened": max(r["last_opened"] for r in reports),
            "cpu": sum(r["cpu"] for r in reports),
        }

    def cpu(self):
        return self.streams()["cpu"]

    def wait_open(self, seconds, since=0.0):
        """Wait until every stream has had its first event (since ``since``, epoch); the counts then."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            counts = self.streams(since)
            if counts["reopened"] == counts["streams"]:
                return counts
            time.sleep(0.1)
        counts = self.streams(since)
        raise SystemExit(
            f"only {counts['reopened']} of {counts['streams']} streams had their first event in {seconds} s"
        )

    def stop(self):
        self.ask("stop")
        for process in self.processes:
            process.join(10)


def pct(values):
    return (percentile(values, 50), percentile(values, 99)) if len(values) else (float("nan"), float("nan"))


def show(figures):
    for name, value in figures.items():
        print(f"  {name:<32} {value:>10.1f}" if isinstance(value, float) else f"  {name:<32} {value!s:>10}")


def claims_phase(generator, server, rate, seconds, label, streams=True):
    """Claims at ``rate`` for ``seconds``, and every figure about them."""
    print(f"\n{label} ...", flush=True)
    generator.ask("reset")
    meter = Meter(server, generator)
    tablets = generator.ask("claims", rate, seconds, only="tablets")["tablets0"]
    time.sleep(1 if streams else 0)  # the last batch of rows reaches the scoreboards (1.5 s after the last claim)
    cpu = meter.percents()
    server.alive()
    posted = [(m, s, at) for m, s, at, _ in tablets["claims"]]
    claim_ms = [ms for *_, ms in tablets["claims"]]
    figures = {
        "claims posted": len(tablets["claims"]) + tablets["request_failures"],
        "claims acknowledged": len(tablets["claims"]),
        "claim p50": pct(claim_ms)[0],
        "claim p99": pct(claim_ms)[1],
        "bare p50": pct(tablets["bare"])[0],
        "bare p99": pct(tablets["bare"])[1],
    }
    figures["claim/bare p99"] = figures["claim p99"] / figures["bare p99"]
    figures["request failures"] = tablets["request_failures"]
    if tablets["failure_kinds"]:
        figures["failure kinds"] = tablets["failure_kinds"]
    if streams:
        other = [1000 * (tablets["delivered"][m, s] - at) for m, s, at in posted if (m, s) in tablets["delivered"]]
        pushes = [tablets["pushed"].get((m, s), [None, None]) for m, s, _ in posted]
        seq_ms = [1000 * (p[1] - at) for p, (_, _, at) in zip(pushes, posted) if p[1] is not None]
        answers = generator.ask("latencies", posted, only="spectators")
        boards = array("f")
        for answer in answers.values():
            boards.frombytes(answer["ms"])
        boards = sorted(boards)
        counts = generator.streams()
        figures |= {
            "other tablet p50": pct(other)[0],
            "other tablet p99": pct(other)[1],
            "  its seq event p50": pct(seq_ms)[0],
            "  its seq event p99": pct(seq_ms)[1],
            "  its fetch p99": pct(tablets["fetch_ms"])[1],
            "seqs missed by tablet streams": sum((p[0] is None) + (p[1] is None) for p in pushes),
            "entries missed by other tablet": len(posted) - len(other),
            "scoreboards p50": pct(boards)[0],
            "scoreboards p99": pct(boards)[1],
            "scoreboards max": boards[-1] if boards else float("nan"),
            "(claim, spectator) pairs": len(boards),
            "pairs missed by scoreboards": sum(a["missing"] for a in answers.values()),
            "stream drops": counts["drops"],
            "stream failures": counts["failures"],
            "streams open at the end": f"{counts['open']}/{counts['streams']}",
        }
    figures |= cpu | {"load average (1 min)": os.getloadavg()[0]}
    show(figures)
    return figures


def check_services(args):
    """PostgreSQL and Redis must answer before anything starts."""
    import psycopg
    import redis

    try:
        psycopg.connect(args.database_url.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
    except psycopg.Error as error:
        raise SystemExit(f"PostgreSQL does not answer at {args.database_url.rsplit('/', 1)[0]}: {error}") from None
    try:
        redis.Redis.from_url(args.redis_url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        raise SystemExit(f"Redis does not answer at {args.redis_url}: {error}") from None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mesas", type=int, default=256)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--spectator-processes", type=int, default=2)
    parser.add_argument("--rate", type=float, default=10, help="claims a second")
    parser.add_argument("--stress-rate", type=float, default=20, help="claims a second in the stress phase")
    parser.add_argument("--time", type=int, default=60, help="seconds of claims in each phase")
    parser.add_argument("--idle", type=int, default=20, help="seconds the open streams sit idle, measured")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (production: 2 per core)")
    parser.add_argument(
        "--stream-workers",
        type=int,
        default=0,
        help="workers of a second gunicorn, on --port + 1, that serves the streams (0: the one server serves all)",
    )
    parser.add_argument(
        "--poll-mesas",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[64, 128],
        help="mesas whose two tablets poll in phase 6; several, separated by commas, for a run each",
    )
    parser.add_argument("--skip-stress", action="store_true")
    parser.add_argument("--skip-polling", action="store_true")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/mesa_live_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/4")
    args = parser.parse_args()
    for signum in (signal.SIGTERM, signal.SIGHUP):  # atexit then stops gunicorn
        signal.signal(signum, lambda number, frame: sys.exit(f"stopped by signal {number}"))

    env = server_environment(args.database_url, args.redis_url)
    check_services(args)
    import django

    django.setup()
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    fresh_database(args.database_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--run-syncdb", "-v", "0"], cwd=ROOT, env=env, check=True)
    from django.db import connections

    from tournament.models import Championship

    tablets = seed(2, 2 * args.mesas)
    championship = Championship.objects.get().pk
    connections.close_all()
    connections["default"].close_pool()
    tempfile.tempdir = tempfile.mkdtemp(prefix="live-bench-")
    total = 2 * args.mesas + args.spectators

    server = Servers(args, env)
    server.start()
    results = {}
    load = os.getloadavg()[0]
    print(
        f"{args.mesas} mesas, {2 * args.mesas} tablet streams, {args.spectators} scoreboards "
        f"({args.spectator_processes} client processes + 1 for the tablets), gunicorn -w {args.workers}, "
        f"{os.cpu_count()} cores, load average before {load:.1f}; gunicorn's log: {server.log_path}",
        flush=True,
    )
    try:
        warm_up(f"http://{HOST}:{args.port}", tablets[0], rounds=8 * args.workers)

        generator = Generator(args, tablets, championship, server.stream_port, poll=True)  # the tablets without streams
        results["none"] = claims_phase(
            generator, server, args.rate, args.time, f"1. claims at {args.rate:g}/s, no stream open", streams=False
        )
        generator.stop()

        rss_before = server.rss()
        started = time.time()
        generator = Generator(args, tablets, championship, server.stream_port)
        counts = generator.wait_open(180, since=started)
        print(f"\n2. {total} streams open, each with its first event, in {counts['last_opened'] - started:.1f} s")
        time.sleep(5)
        meter = Meter(server, generator)
        time.sleep(args.idle)
        rss_after = server.rss()
        idle = meter.percents() | {
            "load average (1 min)": os.getloadavg()[0],
            "worker RSS before, MB": rss_before / 2**20,
            "worker RSS with streams, MB": rss_after / 2**20,
            "KB per stream": (rss_after - rss_before) / total / 1024,
            "RSS per worker, MB": " ".join(f"{p.memory_info().rss / 2**20:.0f}" for p in server.workers()),
            "connections per worker": " ".join(map(str, server.connections())),
        }
        server.alive()
        print(f"  idle for {args.idle} s:")
        show(idle)
        results["idle"] = idle

        results["rate"] = claims_phase(
            generator, server, args.rate, args.time, f"3. claims at {args.rate:g}/s, {total} streams open"
        )
        if not args.skip_stress:
            results["stress"] = claims_phase(
                generator, server, args.stress_rate, args.time, f"4. claims at {args.stress_rate:g}/s, streams open"
            )

        print("\n5. restart: SIGTERM to gunicorn, then started again ...", flush=True)
        generator.ask("reset")
        stopping = time.time()
        server.stop()
        stopped = time.time()
        server.start()
        up = time.time()
        counts = generator.wait_open(120, since=stopped)
        restart = {
            "gunicorn stopped after, s": stopped - stopping,
            "answering again after, s": up - stopping,
            "all streams back after, s": counts["last_opened"] - stopping,
            "  of which since it stopped": counts["last_opened"] - stopped,
            "streams dropped": counts["drops"],
            "failed reconnections": counts["failures"],
        }
        show(restart)
        results["restart"] = restart
        generator.stop()

        for poll_mesas in [] if args.skip_polling else args.poll_mesas:
            generator = Generator(args, tablets[: 2 * poll_mesas], championship, server.stream_port, poll=True)
            label = (
                f"6. polling as before: {2 * poll_mesas} tablets ({poll_mesas} mesas) poll once a second, "
                f"claims at {args.rate:g}/s, no stream"
            )
            print(f"\n{label} ...", flush=True)
            generator.ask("reset")
            meter = Meter(server, generator)
            report = generator.ask("poll", args.rate, args.time)["tablets0"]
            cpu = meter.percents()
            posted = [(m, s, at) for m, s, at, _ in report["claims"]]
            other = [1000 * (report["delivered"][m, s] - at) for m, s, at in posted if (m, s) in report["delivered"]]
            polling = (
                {
                    "claims acknowledged": len(posted),
                    "other tablet p50": pct(other)[0],
                    "other tablet p99": pct(other)[1],
                    "entries missed": len(posted) - len(other),
                    "poll p50": pct(report["fetch_ms"])[0],
                    "poll p99": pct(report["fetch_ms"])[1],
                    "claim p99": pct([ms for *_, ms in report["claims"]])[1],
                    "bare p99": pct(report["bare"])[1],
                    "request failures": report["request_failures"],
                }
                | cpu
                | {"load average (1 min)": os.getloadavg()[0]}
            )
            if report["failure_kinds"]:
                polling["failure kinds"] = report["failure_kinds"]
            show(polling)
            generator.stop()
            results.setdefault("polling", {})[2 * poll_mesas] = polling
    finally:
        server.stop()

    summary(args, results, total)
    return 0 if all(ok for _, ok in checks(results)) else 1


def checks(results):
    rate, restart = results["rate"], results["restart"]
    found = [
        ("no stream failed or dropped", rate["stream drops"] + rate["stream failures"] == 0),
        (
            "every event delivered",
            rate["seqs missed by tablet streams"]
            + rate["entries missed by other tablet"]
            + rate["pairs missed by scoreboards"]
            + rate["request failures"]
            == 0,
        ),
        ("other tablet p99 < 150 ms", rate["other tablet p99"] < 150),
        ("scoreboards p99 < 500 ms", rate["scoreboards p99"] < 500),
        ("claim p99 < 1.5 x bare p99 (same streams)", rate["claim/bare p99"] < 1.5),
        ("all streams back within 10 s of a restart", restart["all streams back after, s"] < 10),
    ]
    if "stress" in results:
        stress = results["stress"]
        found += [
            ("stress: other tablet p99 < 250 ms", stress["other tablet p99"] < 250),
            ("stress: scoreboards p99 < 1 s", stress["scoreboards p99"] < 1000),
            (
                "stress: no failure",
                stress["request failures"]
                + stress["stream drops"]
                + stress["stream failures"]
                + stress["seqs missed by tablet streams"]
                + stress["entries missed by other tablet"]
                + stress["pairs missed by scoreboards"]
                == 0,
            ),
        ]
    return found


def summary(args, results, total):
    none, rate, idle = results["none"], results["rate"], results["idle"]
    print("\nComparisons")
    print(
        f"  claim p99 with {total} streams / bare p99, same run:     "
        f"{rate['claim p99']:.1f} / {rate['bare p99']:.1f} = {rate['claim/bare p99']:.2f}"
    )
    print(
        f"  claim p99 with streams / bare p99 with no stream:      "
        f"{rate['claim p99']:.1f} / {none['bare p99']:.1f} = {rate['claim p99'] / none['bare p99']:.2f}"
    )
    print(
        f"  claim p99 with streams / claim p99 with no stream:     "
        f"{rate['claim p99']:.1f} / {none['claim p99']:.1f} = {rate['claim p99'] / none['claim p99']:.2f}"
    )
    print(
        f"  server CPU at {args.rate:g}/s, streams / no stream:            "
        f"{rate['server CPU %']:.0f}% / {none['server CPU %']:.0f}%; idle with streams {idle['server CPU %']:.0f}%"
    )
    print(
        f"  load generator CPU at {args.rate:g}/s with streams:             {rate['client CPU %']:.0f}% "
        f"(of {100 * os.cpu_count()}%; idle {idle['client CPU %']:.0f}%)"
    )
    for pollers, polling in results.get("polling", {}).items():
        print(
            f"  other tablet p99, stream / {pollers} polling tablets:        "
            f"{rate['other tablet p99']:.0f} / {polling['other tablet p99']:.0f} ms "
            f"(p50 {rate['other tablet p50']:.0f} / {polling['other tablet p50']:.0f})"
        )
        print(
            f"  server CPU, {total} streams / {pollers} polling tablets, {args.rate:g} claims/s: "
            f"{rate['server CPU %']:.0f}% / {polling['server CPU %']:.0f}%"
        )
    print("\nTargets")
    for name, ok in checks(results):
        print(f"  {'met   ' if ok else 'MISSED'}  {name}")


if __name__ == "__main__":
    sys.exit(main())
