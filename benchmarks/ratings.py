"""What the ratings cost: a rebuild of a federation's whole record, and the claim that ends a mesa.

    .venv/bin/python benchmarks/ratings.py [--mesas 20000] [--persons 4000] [--endings 32] [--smoke]

On a throw-away database (a SQLite file in a temporary folder; with
``--database-url`` PostgreSQL or another, whose test database Django makes
and drops) it writes a record of ``--mesas`` finished mesas between pairs of
``--persons`` persons (50 championships, a pair's players drawn from the
persons, the stronger pair winning more often), in bulk, then:

1. rebuilds every rating from it (``ratings.rebuild``, what ``manage.py
   rebuild_ratings`` does), twice, checking that the figures are the same,
   and prints the wall and CPU time of each; then once more under
   ``tracemalloc`` for the peak of Python's allocations (slower: not timed),
   with the process's peak resident size (``ru_maxrss``) at the end;
2. plays ``--endings`` mesas of a new championship, whose players have
   their ratings in that record, through the claim log (``record_claim``)
   to the claim before the last; then logs the last claim, the one that
   ends the mesa, three times with its rating (``ratings.mesa_decided``,
   the normal case: on top) and three times with the rating switched off,
   alternately, each rolled back to a savepoint, and times their CPU; and
   ``mesa_decided`` alone. A focused micro-benchmark in one run, not
   ``benchmarks/claims/run.py`` (HTTP, a load generator, many minutes).

``--smoke`` runs it small (2,000 mesas, 400 persons, 8 endings) for a quick
check that it works. Figures: ``benchmarks/RESULTS.md`` ("Ratings").
"""

import argparse
import datetime
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mesas", type=int, default=20000)
    parser.add_argument("--persons", type=int, default=4000)
    parser.add_argument("--endings", type=int, default=32, help="mesas played to their ending claim (a power of two)")
    parser.add_argument("--database-url", default="", help="default: a SQLite file in a temporary folder")
    parser.add_argument("--smoke", action="store_true", help="2,000 mesas, 400 persons, 8 endings")
    args = parser.parse_args()
    if args.smoke:
        args.mesas, args.persons, args.endings = 2000, 400, 8
    return args


ARGS = arguments()
os.environ["DATABASE_URL"] = ARGS.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='ratings-bench-')}/db.sqlite3"

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment  # noqa: E402

CHAMPIONSHIPS = 50
PER_ROUND = 64


def cpu():
    return time.process_time()


def record(mesas, persons, rng):
    """``mesas`` finished mesas of 50 championships between pairs of ``persons`` persons, written in bulk."""
    from django.utils import timezone

    from engines.lookalikes import key
    from tests.support import factories
    from tournament.models import Championship, Mesa, Pair, Person, Player

    skill = [rng.gauss(0, 1) for _ in range(persons)]
    people = Person.objects.bulk_create(
        Person(full_name=f"Persona {n}", name_key=key(f"Persona {n}"), club=f"Club {n % 40}", club_key=f"club {n % 40}")
        for n in range(persons)
    )
    sede = factories.sede(tables=1)
    start = timezone.now() - datetime.timedelta(days=400)
    per_championship = mesas // CHAMPIONSHIPS
    pairs_each = min(128, persons // 2)
    for c in range(CHAMPIONSHIPS):
        day = (start + datetime.timedelta(days=7 * c)).date()
        champ = Championship.objects.create(
            name="Histórico", edition=str(c), sede=sede, start_date=day, end_date=day, bracket_format="single"
        )
        chosen = rng.sample(range(persons), 2 * pairs_each)
        pairs = Pair.objects.bulk_create(
            Pair(championship=champ, name=f"P{c}-{n}", name_key=f"p{c}-{n}", arrival=Pair.Arrival.PRESENT)
            for n in range(pairs_each)
        )
        Player.objects.bulk_create(
            Player(pair=pair, number=k + 1, full_name=f"J{chosen[2 * n + k]}", person=people[chosen[2 * n + k]])
            for n, pair in enumerate(pairs)
            for k in (0, 1)
        )
        strength = [skill[chosen[2 * n]] + skill[chosen[2 * n + 1]] for n in range(pairs_each)]
        made, moment = [], datetime.datetime.combine(day, datetime.time(9), tzinfo=datetime.UTC)
        for i in range(per_championship if c < CHAMPIONSHIPS - 1 else mesas - per_championship * c):
            a, b = rng.sample(range(pairs_each), 2)
            won = a if rng.random() < 1 / (1 + 2.718281828 ** (strength[b] - strength[a])) else b
            made.append(
                Mesa(
                    championship=champ,
                    round=i // PER_ROUND + 1,
                    position=i % PER_ROUND + 1,
                    pair_a=pairs[a],
                    pair_b=pairs[b],
                    status=Mesa.Status.FINISHED,
                    winner=pairs[won],
                    chicas_a=2 if won == a else 1,
                    chicas_b=2 if won == b else 1,
                    finished_at=moment + datetime.timedelta(minutes=i),
                )
            )
        Mesa.objects.bulk_create(made, batch_size=500)
    return people


def figures():
    from tournament.models import Rating, RatingChange

    return (
        list(Rating.objects.order_by("person_id").values_list("person_id", "mu", "sigma", "mesas")),
        list(RatingChange.objects.order_by("person_id", "mesa_id").values_list("person_id", "mesa_id", "mu", "sigma")),
    )


def rebuilds():
    from tournament.ratings import ratings

    seen = None
    for run in (1, 2):
        wall, started = time.perf_counter(), cpu()
        count = ratings.rebuild()
        print(
            f"  rebuild {run}: {count} mesas rated in {time.perf_counter() - wall:6.2f} s wall, {cpu() - started:6.2f} s CPU"
        )
        now = figures()
        assert seen is None or now == seen, "a rebuild gave other figures"
        seen = now
    print(f"  the two rebuilds gave the same {len(seen[0])} ratings and {len(seen[1])} changes")
    tracemalloc.start()
    ratings.rebuild()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  peak of Python's allocations during a rebuild (tracemalloc): {peak / 2**20:6.1f} MiB")


def endings(count, people, rng, repeats=3):
    """The CPU of the claim that ends each of ``count`` mesas, with and without its rating: each mesa is played
    to the claim before its last, then its last claim is logged ``repeats`` times each way, alternately, each
    time rolled back to a savepoint (the same claim on the same mesa, so only the rating differs)."""
    from django.db import transaction

    from demo import scripted
    from refereeing.claimlog import log as claimlog
    from tests.support import factories
    from tournament.draws import draws
    from tournament.models import Championship, Mesa, Pair, Player
    from tournament.ratings import ratings
    from tournament.seating import seating

    today = datetime.date.today()
    champ = factories.championship(tables=count, name="Nacional", start_date=today, end_date=today)
    chosen = rng.sample(people, 4 * count)
    pairs = Pair.objects.bulk_create(
        Pair(championship=champ, name=f"N{n}", name_key=f"n{n}", arrival=Pair.Arrival.PRESENT) for n in range(2 * count)
    )
    Player.objects.bulk_create(
        Player(pair=pair, number=k + 1, full_name=f"N{n}{k}", person=chosen[2 * n + k])
        for n, pair in enumerate(pairs)
        for k in (0, 1)
    )
    factories.jueces(count)
    draws.draw_bracket(Championship.objects.get(pk=champ.pk), seed=1, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    rate, times = ratings.mesa_decided, {"with": [], "without": [], "alone": []}

    def ending(mesa, claim, kind):
        ratings.mesa_decided = rate if kind == "with" else (lambda mesa: None)
        point = transaction.savepoint()
        started = cpu()
        claimlog.record_claim(mesa, claim, uuid.uuid4(), user=mesa.juez)
        times[kind].append(cpu() - started)
        if kind == "without":
            decided = Mesa.objects.get(pk=mesa.pk)
            started = cpu()
            rate(decided)
            times["alone"].append(cpu() - started)
        transaction.savepoint_rollback(point)

    with transaction.atomic():
        for n, mesa in enumerate(champ.mesas.filter(bracket="W", round=1).order_by("position")):
            for claim in scripted.claims(rng.choice("AB"), rng.random()):
                point = transaction.savepoint()
                if not claimlog.record_claim(mesa, claim, uuid.uuid4(), user=mesa.juez).state["finished"]:
                    transaction.savepoint_commit(point)
                    continue
                transaction.savepoint_rollback(point)
                for _repeat in range(repeats):
                    for kind in ("with", "without") if n % 2 == 0 else ("without", "with"):
                        ending(mesa, claim, kind)
                break
        transaction.set_rollback(True)
    ratings.mesa_decided = rate
    with_, without = statistics.median(times["with"]), statistics.median(times["without"])
    print(f"  the ending claim of {count} mesas, {repeats} times each way, alternately (median CPU):")
    print(f"    with its rating:    {with_ * 1000:6.2f} ms")
    print(f"    without its rating: {without * 1000:6.2f} ms")
    print(f"    added: {(with_ - without) * 1000:+6.2f} ms ({(with_ - without) / without:+.1%} of the claim)")
    print(f"  ratings.mesa_decided alone: {statistics.median(times['alone']) * 1000:6.2f} ms CPU (median)")


def main():
    # As production runs (DEBUG off): no query is logged, which would weigh on every statement.
    setup_test_environment(debug=False)
    setup_databases(verbosity=0, interactive=False)
    from django.db import connection

    rng = random.Random(2026)
    print(f"Database: {connection.vendor}; {ARGS.mesas} mesas, {ARGS.persons} persons, {CHAMPIONSHIPS} championships")
    wall = time.perf_counter()
    people = record(ARGS.mesas, ARGS.persons, rng)
    print(f"  the record written in {time.perf_counter() - wall:.1f} s")
    rebuilds()
    endings(ARGS.endings, people, rng)
    print(f"  peak resident size of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
