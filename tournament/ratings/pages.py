"""What a person's page and the ranking show, from the record and the ratings (names and clubs only).

Rules
-----
ranking
    Every person with at least :data:`RANKED_FROM` rated mesas, strongest
    first (the conservative estimate, ``skill.strength``), ties by name;
    filtered by club (compared by its key) when asked.
record
    A person's championships (the pair, the partner, mesas and chicas won
    and lost there), every decided mesa (a walkover counts as won or lost,
    with no chicas and no rating), and the totals.
chart
    The strength after each rated mesa, and the band up to the mean, drawn
    on the server as SVG coordinates (:func:`chart`): no script.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from django.db.models import Q, QuerySet

from tournament.models import Championship, Mesa, Pair

from . import skill
from .models import Person, Rating, RatingChange

RANKED_FROM = 3
PAGE = 100


def ranking(club: str = "") -> QuerySet[Rating]:
    """The ranked persons' ratings (see *ranking*), with their persons; ``club``: a club's key."""
    rows = Rating.objects.filter(mesas__gte=RANKED_FROM, person__merged_into=None).select_related("person")
    if club:
        rows = rows.filter(person__club_key=club)
    return rows.order_by("-strength", "person__full_name", "person_id")


def clubs() -> list[tuple[str, str]]:
    """[(key, club)] of the ranked persons, by name: the filter's choices."""
    found = (
        Rating.objects.filter(mesas__gte=RANKED_FROM, person__merged_into=None)
        .exclude(person__club_key="")
        .values_list("person__club_key", "person__club")
    )
    return sorted(dict(found).items(), key=lambda item: item[1].casefold())


def place(rating: Rating) -> int:
    """A ranked rating's place in the whole ranking (1: the strongest)."""
    above = Q(strength__gt=rating.strength) | Q(strength=rating.strength, person__full_name__lt=rating.person.full_name)
    return ranking().filter(above).count() + 1


@dataclass
class Played:
    """A person in one championship: its pair and what they did there."""

    championship: Championship
    pair: Pair
    partners: list[str]
    won: int = 0
    lost: int = 0
    chicas_won: int = 0
    chicas_lost: int = 0


@dataclass
class Record:
    person: Person
    rating: Rating | None
    championships: list[Played] = field(default_factory=list)
    mesas: list[PlayedMesa] = field(default_factory=list)  # latest first
    won: int = 0
    lost: int = 0
    chicas_won: int = 0
    chicas_lost: int = 0
    points: list[skill.MuSigma] = field(default_factory=list)  # from the start, after each rated mesa


class PlayedMesa(TypedDict):
    """A mesa of the person's record, as its page shows it."""

    mesa: Mesa
    championship: Championship
    opponent: Pair | None
    won: bool
    walkover: bool
    chicas: tuple[int, int]
    strength: float | None
    delta: float | None


def record(person: Person) -> Record:
    """The person's :class:`Record` (see *record*)."""
    rating = Rating.objects.filter(person=person).first()
    found = Record(person, rating)
    players = list(person.players.select_related("pair__championship").prefetch_related("pair__players"))
    played: dict[int, Played] = {}
    for player in players:
        pair = player.pair
        partners = [p.full_name for p in pair.players.all() if p.pk != player.pk]
        played[pair.pk] = Played(pair.championship, pair, partners)
    changes = {c.mesa_id: c for c in RatingChange.objects.filter(person=person)}
    mesas = (
        Mesa.objects.filter(status__in=Mesa.DECIDED)
        .filter(Q(pair_a__in=played) | Q(pair_b__in=played))
        .select_related("pair_a", "pair_b", "championship")
        .order_by("finished_at", "pk")
    )
    previous = skill.NEW
    for mesa in mesas:
        side = "a" if mesa.pair_a_id in played else "b"
        other = "b" if side == "a" else "a"
        there = played[getattr(mesa, f"pair_{side}_id")]
        won = mesa.winner_id == there.pair.pk
        walkover = mesa.status == Mesa.Status.WALKOVER
        chicas = (0, 0) if walkover else (getattr(mesa, f"chicas_{side}"), getattr(mesa, f"chicas_{other}"))
        change = changes.get(mesa.pk)
        delta = None
        if change is not None:
            delta = skill.strength(change.mu, change.sigma) - skill.strength(*previous)
            previous = (change.mu, change.sigma)
            found.points.append(previous)
        for holder in (there, found):
            holder.won += won
            holder.lost += not won
            holder.chicas_won += chicas[0]
            holder.chicas_lost += chicas[1]
        found.mesas.append(
            {
                "mesa": mesa,
                "championship": mesa.championship,
                "opponent": getattr(mesa, f"pair_{other}"),
                "won": won,
                "walkover": walkover,
                "chicas": chicas,
                "strength": skill.strength(change.mu, change.sigma) if change else None,
                "delta": delta,
            }
        )
    found.mesas.reverse()
    found.championships = sorted(
        played.values(), key=lambda p: (p.championship.start_date, p.championship.pk), reverse=True
    )
    return found


@dataclass
class Chart:
    width: int
    height: int
    line: str  # the strength's polyline points
    band: str  # the polygon between the strength and the mean
    dots: list[tuple[float, float]]
    ticks: list[tuple[float, str]]  # (y, label) of the vertical axis
    left: float
    right: float


def chart(points: Sequence[skill.MuSigma], width: int = 640, height: int = 220, margin: int = 36) -> Chart | None:
    """The SVG geometry of the strength over ``points`` (see *chart*), from the newcomer's rating; None
    without a rated mesa."""
    if not points:
        return None
    series = [skill.NEW, *points]
    lows = [skill.strength(mu, sigma) for mu, sigma in series]
    highs = [mu for mu, _sigma in series]
    top, bottom = _nice(max(highs), up=True), _nice(min(lows), up=False)
    # At most five lines, every 5 points or a multiple of 5, the top one at the top.
    step = 5 * max(1, math.ceil((top - bottom) / 25))
    span = step * max(1, math.ceil((top - bottom) / step))
    top = bottom + span

    def x(i: int) -> float:
        return margin + (width - 2 * margin) * i / (len(series) - 1)

    def y(value: float) -> float:
        return margin / 2 + (height - 1.5 * margin) * (top - value) / span

    line = [(round(x(i), 1), round(y(v), 1)) for i, v in enumerate(lows)]
    upper = [(round(x(i), 1), round(y(v), 1)) for i, v in enumerate(highs)]
    ticks = [(round(y(value), 1), str(value)) for value in range(bottom, top + 1, step)]
    return Chart(
        width=width,
        height=height,
        line=" ".join(f"{a},{b}" for a, b in line),
        band=" ".join(f"{a},{b}" for a, b in [*upper, *reversed(line)]),
        dots=line[1:],
        ticks=ticks,
        left=margin,
        right=width - margin,
    )


def _nice(value: float, up: bool) -> int:
    """``value`` rounded out to a multiple of 5, as a whole number."""
    return 5 * (math.ceil(value / 5) if up else math.floor(value / 5))
