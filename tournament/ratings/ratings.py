"""Ratings from the record: every decided mesa rates its players, in the order the mesas ended.

Rules (``docs/ratings.md``)
-----
rated mesa
    A mesa finished at the table (by its claim log, or brought in with a
    past championship), with both pairs known and every player linked to a
    person. A walkover rates no one (nothing was played). A zapatería is a
    win like any other (Art. 3g.6: the mesa ends there); the chicas do not
    weigh, only who won.
order
    By the moment the mesa ended (``Mesa.finished_at``), then the mesa's id.
    Each person's rating depends only on the mesas that person played, in
    this order, so rating a mesa on top of the ratings its players have, or
    rebuilding everything from scratch, gives the same figures.
derived
    Ratings are never edited. The claim that ends a mesa rates it on top
    (:func:`mesa_decided`: the normal case, the mesa just ended is its
    players' latest); anything that changes the record before a rated mesa
    (a Director's correction, a merge of persons, a past championship
    brought in) rebuilds from that point on (:func:`rebuild`), and
    ``manage.py rebuild_ratings`` rebuilds all.

Writers take turns: on PostgreSQL a transaction-scoped advisory lock
(SQLite's write lock is the database's already), so that a rebuild and a
mesa ending at once never interleave their rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TypeAlias, cast

from django.db import connection, transaction
from django.db.models import Q, QuerySet

from tournament.models import Mesa, Player

from . import skill
from .models import Rating, RatingChange

# pg_advisory_xact_lock's key for the ratings' writers: "ratings" in ASCII.
LOCK_KEY = 0x7261_7469_6E67_73
# How many changes a rebuild writes at once (its memory stays flat whatever the record's size).
CHUNK = 5000


# A rated mesa's place in the order: (finished_at, mesa id).
Place: TypeAlias = tuple[datetime, int]
# A person's rating as a rebuild carries it: (mu, sigma, mesas, last_at, last_mesa).
Standing: TypeAlias = tuple[float, float, int, datetime, int]


@dataclass(frozen=True)
class Game:
    mesa: int
    at: datetime
    winners: tuple[int, ...]
    losers: tuple[int, ...]

    @property
    def key(self) -> Place:
        return (self.at, self.mesa)


def _serialised() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def _rated_mesas() -> QuerySet[Mesa]:
    return Mesa.objects.filter(
        status=Mesa.Status.FINISHED,
        winner__isnull=False,
        pair_a__isnull=False,
        pair_b__isnull=False,
        finished_at__isnull=False,
    )


def _after(key: Place, at: str = "finished_at", pk: str = "pk") -> Q:
    """The rows at ``key``'s place in the order or later."""
    moment, mesa = key
    return Q(**{f"{at}__gt": moment}) | Q(**{at: moment, f"{pk}__gte": mesa})


def _teams(players: Iterable[tuple[int, int | None]]) -> dict[int, tuple[int, ...]]:
    """{pair id: (person ids in player order)} of the pairs whose every player is a person."""
    teams: dict[int, list[int]] = {}
    unknown: set[int] = set()
    for pair, person in players:
        if person is None:
            unknown.add(pair)
        else:
            teams.setdefault(pair, []).append(person)
    return {pair: tuple(people) for pair, people in teams.items() if pair not in unknown}


def _game(
    mesa: int,
    at: datetime | None,
    a: int | None,
    b: int | None,
    winner: int | None,
    teams: dict[int, tuple[int, ...]],
) -> Game | None:
    if at is None or a not in teams or b not in teams or set(teams[a]) & set(teams[b]):
        return None
    winners, losers = (teams[a], teams[b]) if winner == a else (teams[b], teams[a])
    return Game(mesa, at, winners, losers)


def games(since: Place | None = None) -> Iterator[Game]:
    """The rated mesas as :class:`Game`, in order; ``since``: from that place of the order on."""
    mesas = _rated_mesas()
    if since is not None:
        mesas = mesas.filter(_after(since))
    players = Player.objects.order_by("pair_id", "number").values_list("pair_id", "person_id")
    if since is not None:
        players = players.filter(Q(pair_id__in=mesas.values("pair_a_id")) | Q(pair_id__in=mesas.values("pair_b_id")))
    teams = _teams(players)
    rows = mesas.order_by("finished_at", "pk").values_list("pk", "finished_at", "pair_a_id", "pair_b_id", "winner_id")
    for row in rows.iterator(chunk_size=2000):
        game = _game(*row, teams)
        if game is not None:
            yield game


def rate(game: Game, current: dict[int, skill.MuSigma]) -> list[tuple[int, float, float, bool]]:
    """``current`` ({person: (mu, sigma)}) after ``game``, as [(person, mu, sigma, won)]."""
    sides = (game.winners, game.losers)
    after = skill.rate(*([current.get(person, skill.NEW) for person in side] for side in sides))
    return [
        (person, mu, sigma, side is game.winners)
        for side, ratings in zip(sides, after)
        for person, (mu, sigma) in zip(side, ratings)
    ]


def mesa_decided(mesa: Mesa) -> None:
    """Rate ``mesa``, just finished (``results.record_result``, in its transaction): on top of its players'
    ratings when it is each one's latest mesa, else by a rebuild from its place.

    The normal case runs inside the claim that ends the mesa, so it is plain SQL: one read and two writes
    (one statement on PostgreSQL, after its lock's): through the ORM the same work cost that claim a fifth
    more CPU (``benchmarks/ratings.py``)."""
    if mesa.status != Mesa.Status.FINISHED or mesa.finished_at is None:
        return
    _serialised()
    at = connection.ops.adapt_datetimefield_value(mesa.finished_at)
    with connection.cursor() as cursor:
        cursor.execute(ON_TOP["read"], [at, at, mesa.pk, mesa.pair_a_id, mesa.pair_b_id])
        rows = cursor.fetchall()
        game = _game(
            mesa.pk, mesa.finished_at, mesa.pair_a_id, mesa.pair_b_id, mesa.winner_id, _teams(r[:2] for r in rows)
        )
        if game is None:
            return
        held = {person: (mu, sigma, mesas) for _pair, person, mu, sigma, mesas, _later in rows if mu is not None}
        if any(later for *_rest, later in rows):
            rebuild(since=game.key)
            return
        changes = rate(game, {person: values[:2] for person, values in held.items()})
        written = [
            (
                ON_TOP["changes"] % ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(changes)),
                [value for person, mu, sigma, won in changes for value in (person, mesa.pk, at, mu, sigma, won)],
            ),
            (
                ON_TOP["ratings"] % ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(changes)),
                [
                    value
                    for person, mu, sigma, _won in changes
                    for value in (
                        person,
                        mu,
                        sigma,
                        skill.strength(mu, sigma),
                        (held[person][2] if person in held else 0) + 1,
                        at,
                        mesa.pk,
                    )
                ],
            ),
        ]
        if connection.vendor == "postgresql":
            # One statement for both writes (a data-modifying WITH): a round trip less, after the lock's.
            (changes_sql, changes_params), (ratings_sql, ratings_params) = written
            written = [(f"WITH changed AS ({changes_sql}) {ratings_sql}", changes_params + ratings_params)]
        for sql, params in written:
            cursor.execute(sql, params)


def _statements() -> dict[str, str]:
    """The SQL of :func:`mesa_decided`, the same on SQLite and PostgreSQL (both take ``ON CONFLICT ... DO
    UPDATE`` with ``excluded``), the tables' and columns' names from the models."""
    q = connection.ops.quote_name
    player, rating, change = (q(model._meta.db_table) for model in (Player, Rating, RatingChange))
    later = f"r.{q('last_at')} > %s OR (r.{q('last_at')} = %s AND r.{q('last_mesa')} > %s)"
    kept = ("mu", "sigma", "strength", "mesas", "last_at", "last_mesa")
    return {
        "read": (
            f"SELECT p.{q('pair_id')}, p.{q('person_id')}, r.{q('mu')}, r.{q('sigma')}, r.{q('mesas')}, "
            f"CASE WHEN {later} THEN 1 ELSE 0 END FROM {player} p LEFT JOIN {rating} r "
            f"ON r.{q('person_id')} = p.{q('person_id')} WHERE p.{q('pair_id')} IN (%s, %s) "
            f"ORDER BY p.{q('pair_id')}, p.{q('number')}"
        ),
        "changes": (
            f"INSERT INTO {change} ({q('person_id')}, {q('mesa_id')}, {q('at')}, {q('mu')}, {q('sigma')}, {q('won')}) "
            "VALUES %s"
        ),
        "ratings": (
            f"INSERT INTO {rating} ({q('person_id')}, {', '.join(q(name) for name in kept)}) VALUES %s "
            f"ON CONFLICT ({q('person_id')}) DO UPDATE SET "
            + ", ".join(f"{q(name)} = excluded.{q(name)}" for name in kept)
        ),
    }


class _Statements(dict[str, str]):
    """:func:`_statements`, made when first asked for (a process speaks to one database)."""

    def __missing__(self, name: str) -> str:
        self.update(_statements())
        return self[name]


ON_TOP = _Statements()


def mesa_changed(mesa: Mesa) -> None:
    """A decided mesa's result changed (a correction): rebuild from its place in the order."""
    if mesa.status == Mesa.Status.FINISHED and mesa.finished_at is not None:
        rebuild(since=(mesa.finished_at, mesa.pk))


def rebuild(since: Place | None = None) -> int:
    """Write the ratings again from the record (see *derived* above): all of them, or from ``since``'s
    place in the order on (the ratings before it stand). Returns how many mesas it rated."""
    with transaction.atomic():
        _serialised()
        state, rewritten = _state_before(since)
        pending: list[RatingChange] = []
        count = 0
        for game in games(since):
            before = {p: state[p][:2] for p in (*game.winners, *game.losers) if p in state}
            for person, mu, sigma, won in rate(game, before):
                mesas = state[person][2] if person in state else 0
                state[person] = (mu, sigma, mesas + 1, game.at, game.mesa)
                rewritten.add(person)
                pending.append(
                    RatingChange(person_id=person, mesa_id=game.mesa, at=game.at, mu=mu, sigma=sigma, won=won)
                )
            count += 1
            if len(pending) >= CHUNK:
                RatingChange.objects.bulk_create(pending)
                pending = []
        RatingChange.objects.bulk_create(pending)
        _write(state, rewritten)
    return count


def _state_before(since: Place | None) -> tuple[dict[int, Standing], set[int]]:
    """``({person: (mu, sigma, mesas, last_at, last_mesa)}, persons)`` as the ratings stood before
    ``since``, once the later changes are deleted; ``persons``: those whose stored rating was deleted
    with them (to be written again)."""
    if since is None:
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        return {}, set()
    RatingChange.objects.filter(_after(since, "at", "mesa_id")).delete()
    stale = Rating.objects.filter(_after(since, "last_at", "last_mesa"))
    state: dict[int, Standing] = {}
    counts: dict[int, int] = {}
    for person, mu, sigma, mesas, at, mesa in Rating.objects.values_list(
        "person_id", "mu", "sigma", "mesas", "last_at", "last_mesa"
    ).iterator():
        if (at, mesa) < since:
            state[person] = (mu, sigma, mesas, at, mesa)
    remaining = RatingChange.objects.filter(person_id__in=stale.values("person_id")).order_by(
        "person_id", "at", "mesa_id"
    )
    rewritten: set[int] = set()
    for person, at, mesa, mu, sigma in remaining.values_list("person_id", "at", "mesa_id", "mu", "sigma").iterator():
        counts[person] = counts.get(person, 0) + 1
        state[person] = (mu, sigma, counts[person], at, mesa)
        rewritten.add(person)
    stale.delete()
    return state, rewritten


def _write(state: dict[int, Standing], persons: Iterable[int]) -> None:
    """Store the ratings of ``persons`` from ``state``, in place of any they have."""
    persons = sorted(persons)
    for start in range(0, len(persons), 500):
        Rating.objects.filter(person_id__in=persons[start : start + 500]).delete()
    Rating.objects.bulk_create(
        (
            Rating(
                person_id=person,
                mu=mu,
                sigma=sigma,
                strength=skill.strength(mu, sigma),
                mesas=mesas,
                last_at=at,
                last_mesa=mesa,
            )
            for person, (mu, sigma, mesas, at, mesa) in ((p, state[p]) for p in persons)
        ),
        batch_size=500,
    )


def earliest(persons: Iterable[int] = (), pairs: Iterable[int] = ()) -> Place | None:
    """The first place in the order where any of ``persons`` (or ``pairs``) played a rated mesa, or any of
    ``persons`` has a rating change; None when there is none."""
    players = Player.objects.filter(Q(pair_id__in=pairs) | Q(person_id__in=persons)).values("pair_id")
    found = [
        _rated_mesas()
        .filter(Q(pair_a_id__in=players) | Q(pair_b_id__in=players))
        .order_by("finished_at", "pk")
        .values_list("finished_at", "pk")
        .first(),
        RatingChange.objects.filter(person_id__in=persons)
        .order_by("at", "mesa_id")
        .values_list("at", "mesa_id")
        .first(),
    ]
    # A rated mesa has finished (``_rated_mesas``), and a rating change is of one.
    places = [cast(Place, tuple(p)) for p in found if p is not None]
    return min(places) if places else None


def persons_changed(persons: Iterable[int]) -> None:
    """Who a player is changed (a merge, a split, a doubt answered): rebuild from the first mesa it reaches."""
    place = earliest(persons=persons)
    if place is not None:
        rebuild(since=place)


def pairs_changed(pairs: Iterable[int]) -> None:
    """The pairs' players were linked to persons again: rebuild from the first rated mesa of those pairs."""
    place = earliest(pairs=pairs)
    if place is not None:
        rebuild(since=place)
