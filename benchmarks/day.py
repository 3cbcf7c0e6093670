"""The organiser's morning and a championship day, through the site's own HTTP endpoints, on the production set-up
(issues #23 and #35).

    .venv/bin/python benchmarks/day.py [--pairs 64] [--sedes 2] [--tables 5] [--jueces 10] [--workers 4]
                                       [--compress 150] [--port 23100] [--smoke]
                                       [--database-url postgres://postgres@127.0.0.1:5432/mesa_day_bench | sqlite:///FILE]
                                       [--redis-url redis://127.0.0.1:6379/5 | --redis-url '']

A fresh database (PostgreSQL, or a SQLite file) and an emptied Redis database (none with ``--redis-url ''``);
gunicorn with ``config/gunicorn.py`` (the helpers of ``benchmarks/claims/run.py``). Seeded directly: the organiser's
account alone (the Comité makes it). Everything else is the organiser's morning, over HTTP through the desk's own
pages, as a browser sends them: sign in; ``--sedes`` sedes of ``--tables`` tables each; ``--jueces`` new jueces
through the import (its preview, then its confirmation: available today as they are made); one championship a sede,
the ``--pairs`` pairs shared out among them, each seating itself (``auto_seating``), each mesa started by its juez's
first claim, pairs checking themselves in; each championship's pairs through the import (preview, confirmation).
Then the pairs arrive: every pair but three a championship checks itself in from its own page (its card's QR code:
the benchmark reads each pair's private link from the database, as the card holds it); of the three, the desk checks
in one (no phone), marks one withdrawn (it called), and one is late. The desk draws: the draw's page lists the late
pair, still expected, and the desk draws without it; the pair arrives and the desk adds it to the draw from the
correction's preview. Every request of the desk that changes something, and every preview it sends on the way, is
a desk action, counted (the goal, issue #35: at most 40 for the morning of 64 pairs, two sedes and ten new jueces).

Then the day: one simulated tablet per table (a thread with its own session, never signed in) opens its table with
the PIN, as a table card's QR code does, and follows its table as the juez's screen does
(``/acceso/mesa-fisica/<id>/estado/``): it plays each mesa seated there with a scripted claim log
(``demo.scripted``) through ``POST /api/mesas/<id>/claims/``, one claim every 30 s of the venue's time, signs
the planilla (three signatures through the API) and asks its table again every 10 s of the venue's time;
``--compress`` divides both. The run ends at every championship's champion.

Reported:
- the morning's desk actions, each named, and the page loads on the way; the pairs' own check-ins;
- desk actions during the day: the organiser's and the Director's requests that changed something, per round and
  per mesa (the goal: none);
- the call: from the claim that ends a mesa (sent by its tablet) to its winner's next mesa called (seated: table and
  juez known), for the results that made that mesa playable while a table and a juez were free (by the database's
  times: no other mesa held them); p50 and p99 (the goal: under 2 s);
- table utilisation: the share of table-time (tables x the day, first call to last result) that a table was idle
  while a mesa could play (both pairs known, not yet called); and the share busy;
- the log check of ``benchmarks/claims/run.py`` (no claim lost or doubled, seqs 1..n, states = replays), and every
  finished mesa's planilla verified at ``/planilla/verificar/<code>/``.

It exits 1 when the morning takes more than 40 desk actions, the log check finds a problem or a planilla does not
verify (the call's latency is reported, not enforced: it follows the machine's load).

``--smoke``: the smallest day (8 pairs over two sedes of two tables, four jueces, time compressed 3000 times, one
worker), seconds long, for the test suite (``tests/benchmarks/``), so that a benchmark that no longer runs fails CI.
With ``STATIC_COLLECTED=1`` the ``STATIC_ROOT`` given is taken as collected already.

Figures: ``benchmarks/RESULTS.md`` ("A championship day", "The organiser's morning").
"""

import argparse
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from datetime import date
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.claims.run import (  # noqa: E402
    check_database,
    collect_static,
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
# Issue #35: the organiser's morning for 64 pairs, two sedes and ten new jueces in at most this many desk actions.
MORNING_GOAL = 40
# A championship's pairs that do not check themselves in: the desk checks in one, one withdrew, one is late.
BY_THE_DESK, WITHDRAWN, LATE = 0, 1, 2


def seed_organiser():
    """The organiser's account, as the Comité makes it: the one thing the morning does not make itself."""
    from django.contrib.auth.models import Group, User

    from tournament.accounts import accounts

    organiser = User.objects.create_user("organizador", password=PASSWORD, is_staff=True)
    organiser.groups.add(Group.objects.get(name=accounts.ORGANISERS_GROUP))


class Desk:
    """The organiser's browser: every request that changes something, and every preview, is a desk action, counted;
    page loads are counted apart."""

    def __init__(self, host):
        import requests

        self.host, self.http, self.actions, self.loads = host, requests.Session(), [], 0

    def get(self, path, **params):
        response = self.http.get(self.host + path, params=params, allow_redirects=False)
        self.loads += 1
        if response.status_code != 200:
            raise SystemExit(f"GET {path}: HTTP {response.status_code}")
        return response.text

    def post(self, path, data, what, done=302, files=None):
        """Send a form as the browser does; ``done``: the answer that says it was done (302: it redirects on;
        200: a page comes back, a preview)."""
        response = self.http.post(
            self.host + path,
            data={**data, "csrfmiddlewaretoken": self.http.cookies["csrftoken"]},
            files=files,
            headers={"Referer": self.host + path},
            allow_redirects=False,
        )
        if response.status_code != done:
            raise SystemExit(f"{what}: HTTP {response.status_code}, not {done}: {response.text[:300]!r}")
        self.actions.append((time.time(), what))
        return response

    def sign_in(self):
        self.get("/cuenta/entrar/")
        self.post("/cuenta/entrar/", {"username": "organizador", "password": PASSWORD}, "sign-in")


def option(html, name, label):
    """The value of the option labelled ``label`` of the select ``name`` in a page."""
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S).group(0)
    return re.search(rf'<option value="(\d+)"[^>]*>{re.escape(label)}</option>', select).group(1)


def hidden(html, name):
    return unescape(re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html).group(1))


def csv_file(rows):
    return "\n".join(";".join(row) for row in rows).encode()


def morning(desk, args):
    """The organiser's morning (see the module's docstring): the championships made and drawn, each with its
    tables' (id, number, PIN) and the pairs' own check-ins counted."""
    from django.urls import reverse

    from tournament.models import Championship, Pair

    today = date.today().isoformat()
    desk.sign_in()
    sedes = [f"Sede {n} del día" for n in range(1, args.sedes + 1)]
    for name in sedes:
        desk.get(reverse("tournament:sedes"))
        desk.post(reverse("tournament:sedes"), {"name": name, "tables": args.tables, "plan": ""}, f"sede {name}")

    rows = [("nombre", "apellido", "usuario")] + [
        (f"Juez {n}", "del Día", f"juezdia{n}") for n in range(1, args.jueces + 1)
    ]
    data = csv_file(rows)
    desk.get(reverse("jueces:import"))
    page = desk.post(reverse("jueces:import"), {"preview": ""}, "jueces: preview", 200, {"file": ("jueces.csv", data)})
    desk.post(
        reverse("jueces:import"), {"text": hidden(page.text, "text"), "confirm": ""}, f"jueces: import {args.jueces}"
    )

    championships, pair_count, self_check_ins = [], args.pairs // args.sedes, 0
    for number, sede in enumerate(sedes, 1):
        form = desk.get(reverse("tournament:new"))
        fields = {
            "name": f"Copa {number} del día",
            "edition": "",
            "sede": option(form, "sede", sede),
            "start_date": today,
            "end_date": today,
            "ruleset_profile": "riobamba",
            "players_per_pair": 2,
            "bracket_format": "double",
            "group_size": 4,
            "advance_per_group": 0,
            "auto_seating": "on",
            "start_mode": Championship.Start.FIRST_CLAIM,
            "appeal_window_minutes": 10,
            "self_check_in": "on",
        }
        made = desk.post(reverse("tournament:new"), fields, f"championship at {sede}")
        pk = int(re.search(r"/campeonatos/(\d+)/", made.headers["Location"]).group(1))
        championship = Championship.objects.get(pk=pk)
        names = [f"Pareja {number}-{n:03d}" for n in range(1, pair_count + 1)]
        rows = [("pareja", "jugador_1", "jugador_2")] + [(name, f"{name} uno", f"{name} dos") for name in names]
        url = reverse("tournament:pairs_import", args=[pk])
        desk.get(url)
        page = desk.post(
            url, {"preview": ""}, f"pairs of {championship}: preview", 200, {"file": ("parejas.csv", csv_file(rows))}
        )
        desk.post(
            url, {"text": hidden(page.text, "text"), "confirm": ""}, f"pairs of {championship}: import {pair_count}"
        )

        # The pairs arrive: each phone opens its card's link and says it is here, but three.
        import requests

        pairs = list(Pair.objects.filter(championship=championship).order_by("name"))
        for pair in pairs[3:]:
            phone = requests.Session()
            if phone.get(desk.host + reverse("public:pair", args=[pair.token])).status_code != 200:
                raise SystemExit(f"{pair}: its page did not open")
            here = phone.post(desk.host + reverse("public:pair_here", args=[pair.token]), allow_redirects=False)
            if here.status_code != 302:
                raise SystemExit(f"{pair}: its check-in answered HTTP {here.status_code}")
            self_check_ins += 1
        desk.get(reverse("tournament:pairs", args=[pk]))
        check_in = reverse("tournament:pair_check_in", args=[pk, pairs[BY_THE_DESK].pk])
        desk.post(check_in, {"arrival": "present"}, f"{pairs[BY_THE_DESK]}: present (no phone)")
        withdraw = reverse("tournament:pair_check_in", args=[pk, pairs[WITHDRAWN].pk])
        desk.post(withdraw, {"arrival": "withdrawn"}, f"{pairs[WITHDRAWN]}: withdrawn")

        # The draw: its page lists the late pair, still expected; the desk draws without it.
        draw = reverse("tournament:draw", args=[pk])
        page = desk.post(draw, {"seed": str(2300 + number)}, f"{championship}: draw (1 pair expected)", 200)
        if f"{pairs[LATE].name}" not in page.text:
            raise SystemExit(f"the draw's page does not list {pairs[LATE]}, still expected")
        desk.post(draw, {"seed": str(2300 + number), "confirm": "1"}, f"{championship}: draw without it")

        # The late pair arrives before play: added to the draw from its preview, which marks it present.
        correct = reverse("tournament:draw_correct", args=[pk])
        preview = desk.get(correct, action="add", pair=pairs[LATE].pk)
        confirm = {
            "action": "add",
            "pair": pairs[LATE].pk,
            "other": "",
            "seen": hidden(preview, "seen"),
            "confirm": "1",
        }
        desk.post(correct, confirm, f"{pairs[LATE]}: added to the draw")
        championships.append(championship)
    tables = {c.pk: [(t.pk, t.number, t.pin) for t in c.sede.tables.order_by("number")] for c in championships}
    return championships, tables, self_check_ins


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
        from demo import scripted

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


def held_at(mesas, called, moment):
    """How many mesas hold a table (seated, not yet decided) at ``moment`` (a mesa decided then holds none)."""
    return sum(1 for m in mesas if m.pk in called and called[m.pk] <= moment < _end(m) and m.pair_a_id and m.pair_b_id)


def _end(mesa):
    return mesa.finished_at.timestamp() if mesa.finished_at else float("inf")


def playable_since(mesa, feeders, began):
    """When both of ``mesa``'s pairs were known: its feeders' last result, or the day's start (None: never played)."""
    if not (mesa.pair_a_id and mesa.pair_b_id):
        return None
    fed = [f.finished_at.timestamp() for f in feeders.get(mesa.pk, []) if f.finished_at]
    return max(fed) if fed else began


def figures(championship, tables, log, began):
    """The call's latencies, the utilisation and the mesas' count of one championship, from the database's times.
    The day begins when the tablets start (``began``): the mesas the draw seated in the morning are called then."""
    mesas = list(championship.mesas.all())
    called = {m.pk: max(m.seated_at.timestamp(), began) for m in mesas if m.seated_at}
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
    ready = {m.pk: playable_since(m, feeders, began) for m in mesas}
    by_pk = {m.pk: m for m in mesas}
    calls, own_transaction = [], 0
    for result in mesas:
        following = by_pk.get(result.winner_to_id)
        if following is None or result.pk not in log.ended or following.pk not in called:
            continue
        if ready[following.pk] is None or ready[following.pk] != result.finished_at.timestamp():
            continue  # the other pair came later: that result, not this one, made it playable
        moment = result.finished_at.timestamp()
        sent, answered = log.ended[result.pk]
        # The places the result found free, less those its request gave to mesas ahead in play order (the
        # loser's next mesa, made playable by the same result, often is): with none left, it waits for a place.
        along = sum(1 for m in mesas if m.pk != following.pk and m.pk in called and moment <= called[m.pk] <= answered)
        if tables - held_at(mesas, called, moment) - along < 1:
            continue
        calls.append(max(answered, called[following.pk]) - sent)
        own_transaction += called[following.pk] <= answered
    # From the call to the table's tablet opening the mesa: how long a tablet takes to follow its table (a
    # mesa called while its tablet still plays or signs the one before waits for that one to be done with).
    followed = [
        log.opened[m.pk] - called[m.pk]
        for m in mesas
        if m.pk in log.opened and m.pk in called and log.opened[m.pk] > called[m.pk]
    ]
    played = [m for m in mesas if m.pk in called and m.finished_at]
    start = min(called[m.pk] for m in played)
    end = max(m.finished_at.timestamp() for m in played)
    # Sweep the day: between two events the counts are constant.
    moments = sorted(
        {start, end}
        | {called[m.pk] for m in played}
        | {m.finished_at.timestamp() for m in played}
        | {r for r in ready.values() if r is not None and start < r < end}
    )
    idle_waiting = busy = 0.0
    for left, right in zip(moments, moments[1:]):
        held = held_at(played, called, left)
        waiting = sum(
            1
            for m in mesas
            if ready[m.pk] is not None and ready[m.pk] <= left and (m.pk not in called or called[m.pk] > left)
        )
        idle_waiting += min(tables - held, waiting) * (right - left)
        busy += held * (right - left)
    return {
        "mesas": len(played),
        "calls": calls,
        "followed": followed,
        "own_transaction": own_transaction,
        "idle_waiting": idle_waiting,
        "busy": busy,
        "table_time": tables * (end - start),
        "span": end - start,
    }


def the_day(days):
    """The championships' figures as one day's: the lists joined, the times summed."""
    day = {
        "mesas": sum(d["mesas"] for d in days),
        "calls": [c for d in days for c in d["calls"]],
        "followed": [f for d in days for f in d["followed"]],
        "own_transaction": sum(d["own_transaction"] for d in days),
        "span": max(d["span"] for d in days),
    }
    table_time = sum(d["table_time"] for d in days)
    day["idle_while_playable"] = sum(d["idle_waiting"] for d in days) / table_time
    day["busy"] = sum(d["busy"] for d in days) / table_time
    return day


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
    parser.add_argument(
        "--pairs", type=int, default=64, help="the pairs of the day, shared out among the championships"
    )
    parser.add_argument("--sedes", type=int, default=2, help="sedes, each with a championship")
    parser.add_argument("--tables", type=int, default=5, help="each sede's tables")
    parser.add_argument("--jueces", type=int, default=10, help="new jueces, imported in the morning")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--compress", type=float, default=150, help="the venue's time divided by this")
    parser.add_argument("--port", type=int, default=23100)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before the run gives up")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/mesa_day_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/5", help="'' for none (one worker)")
    parser.add_argument("--smoke", action="store_true", help="the smallest day, seconds long, for the test suite")
    args = parser.parse_args()
    if args.smoke:
        args.pairs, args.sedes, args.tables, args.jueces, args.compress, args.workers = 8, 2, 2, 4, 3000, 1
        args.timeout = min(args.timeout, 600)

    env = server_environment(args.database_url, args.redis_url)
    import django

    django.setup()
    collect_static(env)
    fresh_database(args.database_url)
    if args.redis_url:
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
    subprocess.run([sys.executable, "manage.py", "migrate", "--run-syncdb", "-v", "0"], cwd=ROOT, env=env, check=True)
    from django.db import connections

    seed_organiser()
    connections.close_all()
    host = f"http://127.0.0.1:{args.port}"
    load_before = os.getloadavg()
    gunicorn = subprocess.Popen(gunicorn_command(args.port, args.workers), cwd=ROOT, env=env)
    stop, log = threading.Event(), Log()
    try:
        import psutil

        wait_until_up(host + "/")
        server = psutil.Process(gunicorn.pid)
        desk = Desk(host)
        dawn = time.time()
        championships, tables, self_check_ins = morning(desk, args)
        morning_seconds, morning_actions, morning_loads = time.time() - dawn, list(desk.actions), desk.loads
        cpu_before = cpu_seconds(server)
        began = time.time()
        tablets = [
            Tablet(host, table, args.compress, stop, log)
            for championship in championships
            for table in tables[championship.pk]
        ]
        for tablet in tablets:
            tablet.start()
        print(
            f"{args.pairs} pairs in {len(championships)} championships (double elimination), {args.sedes} sedes of "
            f"{args.tables} tables, {args.jueces} jueces, gunicorn -w {args.workers}, time compressed {args.compress:g}x"
            f" (a claim every {CLAIM_SECONDS / args.compress:.2f} s, the table asked every "
            f"{FOLLOW_SECONDS / args.compress:.2f} s); load average before "
            + " ".join(f"{x:.1f}" for x in load_before),
            flush=True,
        )
        while not stop.is_set() and time.time() - began < args.timeout:
            for championship in championships:
                championship.refresh_from_db(fields=["champion"])
            if all(c.champion_id for c in championships):
                break
            stop.wait(0.5)
        finished_in = time.time() - began
        stop.set()
        for tablet in tablets:
            tablet.join(timeout=30)
        cpu_used = cpu_seconds(server) - cpu_before
        load_after = os.getloadavg()
        errors = [t.error for t in tablets if t.error]
        if errors or not all(c.champion_id for c in championships):
            raise SystemExit(f"the day did not end: {errors[0] if errors else 'timed out'}")
        unverified = [m for c in championships for m in verify_planillas(host, c)]
    finally:
        stop.set()
        gunicorn.terminate()
        gunicorn.wait(timeout=30)

    from tournament.models import Mesa

    day = the_day([figures(c, args.tables, log, began) for c in championships])
    rounds = len(
        set(Mesa.objects.filter(championship__in=championships).values_list("championship", "bracket", "round"))
    )
    checked = check_database(log.acked)
    problems = checked["problems"]
    calls = day["calls"]
    ends = [answered - sent for sent, answered in log.ended.values()]
    during = [what for at, what in desk.actions if at >= began]
    rows = [
        (
            "the morning",
            f"{len(morning_actions)} desk actions ({', '.join(w for _t, w in morning_actions)}); {morning_loads} page "
            f"loads; {self_check_ins} pairs checked themselves in from their pages; {morning_seconds:.1f} s",
        ),
        ("wall time of the day", f"{finished_in:.1f} s ({day['span'] * args.compress / 3600:.1f} h at the venue)"),
        ("mesas played", f"{day['mesas']} in {rounds} rounds (championship, bracket, round)"),
        ("claims logged", f"{checked['logged']} ({checked['unacknowledged']} logged whose answer was not read)"),
        ("gunicorn CPU", f"{cpu_used:.1f} s"),
        (
            "desk actions during the day",
            f"{len(during)} ({', '.join(during) or 'none'}); {len(during) / rounds:.3f} per round, "
            f"{len(during) / day['mesas']:.3f} per mesa",
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
    early = len(morning_actions) <= MORNING_GOAL
    print(
        f"goals: the morning in at most {MORNING_GOAL} desk actions: {'met' if early else 'NOT met'}; "
        f"no desk action during the day: {'met' if not during else 'NOT met'}; "
        f"call p99 under 2 s: {'met' if goal else 'NOT met'}"
    )
    connections.close_all()
    return 1 if problems or unverified or not early or during else 0


if __name__ == "__main__":
    sys.exit(main())
