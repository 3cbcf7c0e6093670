"""Builders for the ratings' tests: championships whose players are persons, played to their results."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from tests.support import factories
from tournament.draws import draws
from tournament.models import Mesa, Pair, Rating, RatingChange
from tournament.pairs import pairs_csv
from tournament.results import results


@pytest.fixture(autouse=True)
def english():
    """The refusals and pages in English, as the tests read them."""
    with translation.override("en"):
        yield


def edition(year, pairs, players_per_pair=2, **fields):
    """A championship of ``year`` with ``pairs`` ([(name, club, [(player, cédula), ...])]) imported as the
    desk imports them (each player linked to its person), every pair present."""
    champ = factories.championship(
        edition=str(year),
        start_date=datetime.date(year, 11, 21),
        end_date=datetime.date(year, 11, 22),
        players_per_pair=players_per_pair,
        **fields,
    )
    lines = ["pareja,club,jugador_1,cedula_1,jugador_2,cedula_2"]
    for name, club, players in pairs:
        cells = [name, club]
        for player, number in [*players, ("", "")][:2]:
            cells += [player, number]
        lines.append(",".join(cells))
    preview, count = pairs_csv.save(champ, "\n".join(lines), by=None)
    assert count == len(pairs), preview.errors
    champ.pairs.update(arrival=Pair.Arrival.PRESENT)
    return champ


def roster(count, club="Riobamba", prefix="Jugador", players=2):
    """``count`` pairs of ``players`` players with no cédula."""
    return [
        (f"Pareja {n:02d}", club, [(f"{prefix} {n}{side}", "") for side in "AB"[:players]]) for n in range(1, count + 1)
    ]


def drawn(champ):
    """``champ`` drawn (seed 1), with jueces at the venue."""
    if not User.objects.filter(username="juez1").exists():
        factories.jueces(4)
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


def walkover(champ):
    """The first mesa of ``champ``, drawn, won by walkover by its pair A."""
    mesa = drawn(champ).mesas.get(bracket="W", round=1, position=1)
    results.record_walkover(mesa, "A", by=None)
    return mesa


def play_all(champ, pick=lambda mesa: "A"):
    """Draw ``champ`` (seed 1) and play it to its champion through ``results.record_result``."""
    factories.play_to_the_end(drawn(champ), pick)
    return list(champ.mesas.filter(status=Mesa.Status.FINISHED).order_by("finished_at", "pk"))


def figures():
    """Every rating and rating change, to compare two ways of reaching them."""
    return (
        sorted(Rating.objects.values_list("person_id", "mu", "sigma", "strength", "mesas", "last_at", "last_mesa")),
        sorted(RatingChange.objects.values_list("person_id", "mesa_id", "at", "mu", "sigma", "won")),
    )


@pytest.fixture
def two_editions(db):
    """Eight pairs played in 2025 (slot A always winning), and the same players in 2026 (slot B)."""
    first = edition(2025, roster(8))
    play_all(first)
    second = edition(2026, roster(8))
    play_all(second, pick=lambda mesa: "B")
    return first, second
