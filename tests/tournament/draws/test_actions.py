"""The draw's acts (``draws``): every mesa made, the seed recorded and replayed, a second draw refused, a
bracket run to its champion through the bracket adapter (``advancement``)."""

import pytest

from tests.support.factories import championship, jueces, pairs, play_to_the_end
from tournament import errors
from tournament.draws import draws
from tournament.models import Mesa, Pair

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.mark.slow
def test_double_elimination_draw_makes_every_mesa_and_records_the_seed():
    champ = championship()
    pairs(champ, 16)
    mesas = draws.draw_bracket(champ, seed=1234, by=None)
    champ.refresh_from_db()
    assert champ.draw_seed == 1234
    counts = {b: champ.mesas.filter(bracket=b).count() for b in ("W", "L", "GF", "GR")}
    assert counts == {"W": 15, "L": 14, "GF": 1, "GR": 1}
    assert len(mesas) == 31
    first_round = champ.mesas.filter(bracket="W", round=1)
    assert all(m.pair_a_id and m.pair_b_id for m in first_round)


def test_the_same_seed_draws_the_same_bracket():
    placements = []
    for name in ("Uno", "Dos"):
        champ = championship(name=name)
        for n in range(1, 17):
            Pair.objects.create(championship=champ, name=f"P{n}", arrival="present")
        draws.draw_bracket(champ, seed=99, by=None)
        placements.append(
            [
                (m.pair_a.name, m.pair_b.name)
                for m in champ.mesas.filter(bracket="W", round=1)
                .select_related("pair_a", "pair_b")
                .order_by("position")
            ]
        )
    assert placements[0] == placements[1]


def test_a_second_draw_is_refused():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1, by=None)
    with pytest.raises(errors.ActionRefused, match="already drawn"):
        draws.draw_bracket(champ, seed=2, by=None)
    assert champ.mesas.count() == 31


@pytest.mark.parametrize("count", [16, 20])
@pytest.mark.slow
def test_double_elimination_runs_to_a_champion(count):
    champ = championship()
    pairs(champ, count)
    jueces(4)
    draws.draw_bracket(champ, seed=7, by=None)
    winner = play_to_the_end(champ)
    # Slot A wins every mesa, so the winners' bracket champion wins the grand
    # final and the reset is not played.
    final = champ.mesas.get(bracket="GF")
    assert winner == final.pair_a
    assert champ.mesas.get(bracket="GR").status == Mesa.Status.WAITING
    losses = {}
    for mesa in champ.mesas.exclude(winner=None):
        loser = mesa.pair_b_id if mesa.winner_id == mesa.pair_a_id else mesa.pair_a_id
        losses[loser] = losses.get(loser, 0) + 1
    # Art. 12: everyone but the champion is out after exactly two defeats.
    assert sorted(losses.values()) == [2] * (count - 1)


@pytest.mark.slow
def test_the_reset_is_played_when_the_losers_bracket_champion_wins_the_grand_final():
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=7, by=None)
    winner = play_to_the_end(champ, pick=lambda mesa: "B" if mesa.bracket == "GF" else "A")
    reset = champ.mesas.get(bracket="GR")
    assert reset.status == Mesa.Status.FINISHED
    assert winner == reset.winner


@pytest.mark.slow
def test_a_1024_pair_draw_makes_every_mesa():
    champ = championship(tables=200)
    Pair.objects.bulk_create(
        Pair(championship=champ, name=f"P{n:04d}", name_key=f"p{n:04d}", arrival="present") for n in range(1, 1025)
    )
    draws.draw_bracket(champ, seed=42, by=None)
    # Double elimination: 2n - 2 mesas, plus the reset.
    assert champ.mesas.count() == 2 * 1024 - 1
    assert champ.mesas.filter(bracket="W", round=1, pair_a__isnull=False, pair_b__isnull=False).count() == 512


def test_a_draw_the_bracket_engine_refuses_is_a_clear_refusal():
    champ = championship(bracket_format="round_robin", group_size=1)
    pairs(champ, 4)
    with pytest.raises(errors.ActionRefused, match="A group needs room for at least two pairs"):
        draws.draw_bracket(champ, seed=1, by=None)
    champ.refresh_from_db()
    assert champ.draw_seed is None and not champ.mesas.exists()
