"""A championship day through the site's own HTTP endpoints, on the production set-up (issue #23).

    .venv/bin/python benchmarks/day.py [--pairs 64] [--tables 16] [--workers 4] [--compress 100] [--port 23100]
                                       [--database-url postgres://postgres@127.0.0.1:5432/mesa_day_bench]
                                       [--redis-url redis://127.0.0.1:6379/5]

A fresh PostgreSQL database and an emptied Redis database; gunicorn with ``config/gunicorn.py`` (the helpers
of ``benchmarks/claims/run.py``). Seeded directly: a sede with ``--tables`` tables, as many jueces available
today, an organiser, and a double-elimination championship of ``--pairs`` pairs checked in, seating itself
(``auto_seating``), each mesa started by its juez's first claim. Then, over HTTP only: the organiser signs in
and draws; one simulated tablet per table (a thread with its own session, never signed in) opens its table
with the PIN, as a table card's QR code does, and follows its table as the juez's screen does
(``/acceso/mesa-fisica/<id>/estado/``): it plays each mesa seated there with a scripted claim log
(``tournament.scripted``) through ``POST /api/mesas/<id>/claims/``, one claim every 30 s of the venue's time,
signs the planilla (three signatures through the API) and asks its table again every 10 s of the venue's time;
``--compress`` divides both. The run ends at the champion.

Reported:
- desk actions: the organiser's and the Director's requests that changed something, for the day, per round
  and per mesa (the goal: none per mesa, the draw alone);
- the call: from the claim that ends a mesa (sent by its tablet) to its winner's next mesa called (seated:
  table and juez known), for the results that made that mesa playable while a table and a juez were free
  (by the database's times: no other mesa held them); p50 and p99 (the goal: under 2 s);
- table utilisation: the share of table-time (tables x the day, first call to last result) that a table was
  idle while a mesa could play (both pairs known, not yet called); and the share busy;
- the log check of ``benchmarks/claims/run.py`` (no claim lost or doubled, seqs 1..n, states = replays), and
  every finished mesa's planilla verified at ``/planilla/verificar/<code>/``.

Figures: ``benchmarks/RESULTS.md`` ("A championship day").
"""

import argparse
import os
import subprocess
import sys
import threading
import time
import uuid
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.claims.run import (  # noqa: E402
    check_database,
    cpu_seconds,
    fresh_database,
    gunicorn_command,
    percentile,
    server_environment,
    wait_until_up,
)

CLAIM_SECONDS = 30  # a juez logs a claim every 30 s or so at the table (a mesa of ~25 claims: ~12 min)
FOLLOW_SECONDS = 10  # the juez's screen asks its table every 10 s (static/refereeing/mesa/follow.js)
PASSWORD = "benchmark-day-0"
# A tiny real PNG with ink, as the tablets' signature pad sends (refereeing/signatures.py checks it whole).
SIGNATURE = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAAAAABawyK/AAAAEElEQVR4nGNg+P//PwOIAAAa7wX7oBo/HgAAAABJRU5ErkJggg=="


def seed(pairs, tables):
    """The sede, its jueces available today, the organiser and the championship with its pairs checked in."""
    from django.contrib.auth.models import Group, User

    from tournament.accounts import accounts
    from tournament.models import Championship, Pair, Player
    from tournament.seating import sedes

    today = date.today()
    sede = sedes.create_sede("Coliseo del día", tables, by=None)
    organiser = User.objects.create_user("organizador", password=PASSWORD, is_staff=True)
    organiser.groups.add(Group.objects.get(name=accounts.ORGANISERS_GROUP))
    jueces = Group.objects.get(name=accounts.JUECES_GROUP)
    for n in range(1, tables + 1):
        juez = User.objects.create_user(f"juez{n}", password=None)
        juez.groups.add(jueces)
        sedes.mark_available(juez, True, by=None)
    championship = Championship.objects.create(
        name="Copa del día",
        start_date=today,
        end_date=today,
        sede=sede,
        bracket_format=Championship.Format.DOUBLE,
        auto_seating=True,
        start_mode=Championship.Start.FIRST_CLAIM,
    )
    for n in range(1, pairs + 1):
        pair = Pair.objects.create(championship=championship, name=f"Pareja {n:03d}", checked_in=True)
        Player.objects.create(pair=pair, number=1, full_name=f"Jugador {n} uno", is_representative=True)
        Player.objects.create(pair=pair, number=2, full_name=f"Jugador {n} dos")
    return championship, [(t.pk, t.number, t.pin) for t in sede.tables.order_by("number")]


class Desk:
    """The organiser's browser: every request that changes something is counted."""

    def __init__(self, host):
        import requests

        self.host, self.http, self.actions = host, requests.Session(), []

    def post(self, path, data, what):
        response = self.http.post(
            self.host + path,
            data={**data, "csrfmiddlewaretoken": self.http.cookies["csrftoken"]},
            headers={"Referer": self.host + path},
            allow_redirects=False,
        )
        # Done, the page redirects; a form with an error comes back with 200.
        if response.status_code != 302:
            raise SystemExit(f"{what}: HTTP {response.status_code}, not done")
        return response

    def sign_in(self):
        self.http.get(self.host + "/cuenta/entrar/")
        self.post("/cuenta/entrar/", {"username": "organizador", "password": PASSWORD}, "sign-in")

    def act(self, path, data, what):
        self.post(path, data, what)
        self.actions.append((time.time(), what))


class Tablet(threading.Thread):
    """A tablet opened once with its table's PIN, following its table: plays, signs, asks again."""

    def __init__(self, host, table, compress, stop, record):
        super().__init__(daemon=True)
        self.host, (self.table_id, self.number, self.pin) = host, table
        self.claim_gap, self.follow_gap = CLAIM_SECONDS / compress, FOLLOW_SECONDS / compress
        self.stop, self.record, self.error = stop, record, None

    def run(self):
        try:
            self._run()
        except Exception as error:  # reported by the main thread, which stops the run
            self.error = error
            self.stop.set()

    def _csrf(self):
        return {"X-CSRFToken": self.http.cookies["csrftoken"], "Referer": self.host + "/"}

    def _run(self):
        import requests

        self.http = requests.Session()
        pin_page = f"{self.host}/acceso/mesa-fisica/{self.table_id}/"
        self.http.get(pin_page)
        opened = self.http.post(
            pin_page,
            data={"pin": self.pin, "csrfmiddlewaretoken": self.http.cookies["csrftoken"]},
            headers={"Referer": pin_page},
            allow_redirects=False,
        )
        if opened.status_code != 302:
            raise RuntimeError(f"table {self.number}: the PIN did not open it (HTTP {opened.status_code})")
        shown = None
        while not self.stop.is_set():
            news = self.http.get(
                f"{self.host}/acceso/mesa-fisica/{self.table_id}/estado/", params={"shown": shown or ""}
            ).json()
            if news["mesa"] is not None and news["go"]:
                shown = news["mesa"]
                self.record.opened[shown] = time.time()
                self.play(shown)
            else:
                self.stop.wait(self.follow_gap)

    def play(self, mesa):
        from tournament import scripted

        api = f"{self.host}/api/mesas/{mesa}/"
        seq = self.http.get(api).json()["last_seq"]
        winner = "AB"[mesa % 2]
        for claim in scripted.claims(winner, mesa):
            client_id = str(uuid.uuid4())
            sent = time.time()
            response = self.http.post(
                api + "claims/",
                json={"client_id": client_id, "claim": claim, "expected_seq": seq + 1},
                headers=self._csrf(),
            )
            answered = time.time()
            if response.status_code not in (200, 201):
                raise RuntimeError(f"mesa {mesa}: claim answered HTTP {response.status_code}: {response.text[:200]}")
            body = response.json()
            seq = body["entry"]["seq"]
            self.record(mesa, client_id, seq, sent, answered, body["state"]["finished"])
            if body["state"]["finished"]:
                break
            self.stop.wait(self.claim_gap)
        for role in ("A", "B", "juez"):
            signed = self.http.post(
                api + "signatures/",
                json={"role": role, "name": f"Firma {role}", "image": SIGNATURE},
                headers=self._csrf(),
            )
            if signed.status_code not in (200, 201):
                raise RuntimeError(f"mesa {mesa}: signature answered HTTP {signed.status_code}")


class Log:
    """What the tablets saw: every acknowledged claim's seq, and when each mesa's last claim was sent."""

    def __init__(self):
        self.lock, self.acked, self.ended, self.times, self.opened = threading.Lock(), {}, {}, [], {}

    def __call__(self, mesa, client_id, seq, sent, answered, finished):
        with self.lock:
            self.acked[client_id] = seq
            if finished:
                self.ended[mesa] = (sent, answered)
            else:
                self.times.append(answered - sent)


def held_at(mesas, moment):
    """How many mesas hold a table (seated, not yet decided) at ``moment`` (a mesa decided then holds none)."""
    return sum(
        1 for m in mesas if m.seated_at and m.seated_at.timestamp() <= moment < _end(m) and m.pair_a_id and m.pair_b_id
    )


def _end(mesa):
    return mesa.finished_at.timestamp() if mesa.finished_at else float("inf")


def playable_since(mesa, feeders, drawn_at):
    """When both of ``mesa``'s pairs were known: its feeders' last result, or the draw (None: never played)."""
    if not (mesa.pair_a_id and mesa.pair_b_id):
        return None
    fed = [f.finished_at.timestamp() for f in feeders.get(mesa.pk, []) if f.finished_at]
    return max(fed) if fed else drawn_at


def figures(championship, tables, log, drawn_at):
    """The call's latencies, the utilisation and the mesas' count, from the database's times."""
    mesas = list(championship.mesas.all())
    feeders = {}
    for m in mesas:
        for target in (m.winner_to_id, m.loser_to_id):
            if target:
                feeders.setdefault(target, []).append(m)
    # The reset's pairs come from the grand final, which names no mesa to go to.
    final = [m for m in mesas if m.bracket == m.Bracket.GRAND_FINAL]
    for m in mesas:
        if m.bracket == m.Bracket.RESET:
            feeders[m.pk] = final
    ready = {m.pk: playable_since(m, feeders, drawn_at) for m in mesas}
    by_pk = {m.pk: m for m in mesas}
    calls, own_transaction = [], 0
    for result in mesas:
        following = by_pk.get(result.winner_to_id)
        if following is None or result.pk not in log.ended or not following.seated_at:
            continue
        if ready[following.pk] is None or ready[following.pk] != result.finished_at.timestamp():
            continue  # the other pair came later: that result, not this one, made it playable
        moment = result.finished_at.timestamp()
        sent, answered = log.ended[result.pk]
        # The places the result found free, less those its request gave to mesas ahead in play order (the
        # loser's next mesa, made playable by the same result, often is): with none left, it waits for a place.
        along = sum(
            1 for m in mesas if m.pk != following.pk and m.seated_at and moment <= m.seated_at.timestamp() <= answered
        )
        if tables - held_at(mesas, moment) - along < 1:
            continue
        calls.append(max(answered, following.seated_at.timestamp()) - sent)
        own_transaction += following.seated_at.timestamp() <= answered
    # From the call to the table's tablet opening the mesa: how long a tablet takes to follow its table (a
    # mesa called while its tablet still plays or signs the one before waits for that one to be done with).
    followed = [
        log.opened[m.pk] - m.seated_at.timestamp()
        for m in mesas
        if m.pk in log.opened and m.seated_at and log.opened[m.pk] > m.seated_at.timestamp()
    ]
    played = [m for m in mesas if m.seated_at and m.finished_at]
    start = min(m.seated_at.timestamp() for m in played)
    end = max(m.finished_at.timestamp() for m in played)
    # Sweep the day: between two events the counts are constant.
    moments = sorted(
        {start, end}
        | {m.seated_at.timestamp() for m in played}
        | {m.finished_at.timestamp() for m in played}
        | {r for r in ready.values() if r is not None and start < r < end}
    )
    idle_waiting = busy = 0.0
    for left, right in zip(moments, moments[1:]):
        held = held_at(played, left)
        waiting = sum(
            1
            for m in mesas
            if ready[m.pk] is not None
            and ready[m.pk] <= left
            and (m.seated_at is None or m.seated_at.timestamp() > left)
        )
        idle_waiting += min(tables - held, waiting) * (right - left)
        busy += held * (right - left)
    table_time = tables * (end - start)
    return {
        "mesas": len(played),
        "calls": calls,
        "followed": followed,
        "own_transaction": own_transaction,
        "idle_while_playable": idle_waiting / table_time,
        "busy": busy / table_time,
        "span": end - start,
    }


def verify_planillas(host, championship):
    """The finished mesas whose planilla does not verify at its public page (empty: all do)."""
    import requests

    from refereeing.planilla.verification import verification_code
    from tournament.models import Mesa

    failed = []
    for mesa in championship.mesas.filter(status=Mesa.Status.FINISHED):
        code = verification_code(mesa)
        response = requests.get(f"{host}/planilla/verificar/{code}/", timeout=30)
        if response.status_code != 200 or "planilla" not in response.text:
            failed.append(mesa.pk)
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--tables", type=int, default=16, help="the sede's tables, and as many jueces")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--compress", type=float, default=150, help="the venue's time divided by this")
    parser.add_argument("--port", type=int, default=23100)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before the run gives up")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/mesa_day_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/5")
    args = parser.parse_args()

    env = server_environment(args.database_url, args.redis_url)
    import django

    django.setup()
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    fresh_database(args.database_url)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "--run-syncdb", "-v", "0"], cwd=ROOT, env=env, check=True)
    from django.db import connections

    championship, tables = seed(args.pairs, args.tables)
    connections.close_all()
    host = f"http://127.0.0.1:{args.port}"
    load_before = os.getloadavg()
    gunicorn = subprocess.Popen(gunicorn_command(args.port, args.workers), cwd=ROOT, env=env)
    stop, log = threading.Event(), Log()
    try:
        import psutil

        wait_until_up(host + "/")
        server = psutil.Process(gunicorn.pid)
        cpu_before = cpu_seconds(server)
        desk = Desk(host)
        desk.sign_in()
        began = time.time()
        desk.act(f"/campeonatos/{championship.pk}/sorteo/", {"seed": "2326"}, "the draw")
        drawn_at = time.time()
        tablets = [Tablet(host, table, args.compress, stop, log) for table in tables]
        for tablet in tablets:
            tablet.start()
        print(
            f"{args.pairs} pairs, double elimination, {args.tables} tables and jueces, gunicorn -w {args.workers}, "
            f"time compressed {args.compress:g}x (a claim every {CLAIM_SECONDS / args.compress:.2f} s, the table "
            f"asked every {FOLLOW_SECONDS / args.compress:.2f} s); load average before "
            + " ".join(f"{x:.1f}" for x in load_before),
            flush=True,
        )
        while not stop.is_set() and time.time() - began < args.timeout:
            championship.refresh_from_db(fields=["champion"])
            if championship.champion_id:
                break
            stop.wait(0.5)
        finished_in = time.time() - began
        stop.set()
        for tablet in tablets:
            tablet.join(timeout=30)
        cpu_used = cpu_seconds(server) - cpu_before
        load_after = os.getloadavg()
        errors = [t.error for t in tablets if t.error]
        if errors or not championship.champion_id:
            raise SystemExit(f"the day did not end: {errors[0] if errors else 'timed out'}")
        unverified = verify_planillas(host, championship)
    finally:
        stop.set()
        gunicorn.terminate()
        gunicorn.wait(timeout=30)

    from tournament.models import Mesa

    day = figures(championship, args.tables, log, drawn_at)
    rounds = len(set(Mesa.objects.filter(championship=championship).values_list("bracket", "round")))
    problems, logged, unacknowledged = check_database(log.acked)
    calls = day["calls"]
    ends = [answered - sent for sent, answered in log.ended.values()]
    actions = len(desk.actions)
    rows = [
        ("wall time of the day", f"{finished_in:.1f} s ({day['span'] * args.compress / 3600:.1f} h at the venue)"),
        ("mesas played", f"{day['mesas']} in {rounds} rounds (bracket, round)"),
        ("claims logged", f"{logged} ({unacknowledged} logged whose answer was not read)"),
        ("gunicorn CPU", f"{cpu_used:.1f} s"),
        (
            "desk actions",
            f"{actions} for the day ({', '.join(w for _t, w in desk.actions)}); "
            f"{actions / rounds:.3f} per round, {actions / day['mesas']:.3f} per mesa",
        ),
        (
            "result -> winner's next mesa called",
            f"p50 {1000 * percentile(calls, 50):.0f} ms, p99 {1000 * percentile(calls, 99):.0f} ms, "
            f"max {1000 * max(calls, default=float('nan')):.0f} ms over {len(calls)} results with a place free; "
            f"{day['own_transaction']} seated by the result's own request",
        ),
        (
            "call -> the table's tablet opens it",
            f"p50 {1000 * percentile(day['followed'], 50):.0f} ms, p99 {1000 * percentile(day['followed'], 99):.0f} ms"
            f" over {len(day['followed'])} mesas (the table asked every {FOLLOW_SECONDS / args.compress:.2f} s; those"
            " called while their tablet still played or signed the mesa before wait for it)",
        ),
        (
            "claim answered (in the same run)",
            f"any other claim p50 {1000 * percentile(log.times, 50):.0f} ms, p99 {1000 * percentile(log.times, 99):.0f} ms;"
            f" the claim that ends a mesa (its result, the bracket and the seating) p50 {1000 * percentile(ends, 50):.0f}"
            f" ms, p99 {1000 * percentile(ends, 99):.0f} ms",
        ),
        ("tables idle while a mesa could play", f"{100 * day['idle_while_playable']:.1f} % of table-time"),
        ("tables busy", f"{100 * day['busy']:.1f} % of table-time (first call to last result)"),
        (
            "log check",
            "no claim lost or doubled; seqs 1..n; states = replays" if not problems else "; ".join(problems),
        ),
        ("planillas", f"all {day['mesas']} verify" if not unverified else f"{len(unverified)} do NOT verify"),
        (
            "load average",
            "before "
            + " ".join(f"{x:.1f}" for x in load_before)
            + ", after "
            + " ".join(f"{x:.1f}" for x in load_after)
            + f" ({os.cpu_count()} cores)",
        ),
    ]
    width = max(len(name) for name, _value in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    goal = calls and percentile(calls, 99) < 2
    print(
        f"goals: no desk action per mesa: {'met' if actions == 1 else 'NOT met'}; "
        f"call p99 under 2 s: {'met' if goal else 'NOT met'}"
    )
    connections.close_all()
    return 1 if problems or unverified else 0


if __name__ == "__main__":
    sys.exit(main())
