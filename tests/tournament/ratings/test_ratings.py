"""Every decided mesa rates its players in the order the mesas ended; a rating is derived, never edited: the
claim that ends a mesa rates it on top, a rebuild from the results gives the same figures, a correction
rebuilds what follows it (docs/ratings.md)."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from tests.support import factories
from tournament.draws import draws
from tournament.models import Mesa, Person, Player, Rating, RatingChange
from tournament.ratings import ratings, skill
from tournament.results import results

from .conftest import edition, figures, play_all, roster, walkover

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_rating_each_mesa_as_it_ends_gives_what_a_rebuild_from_scratch_gives(two_editions):
    first, second = two_editions
    played = Mesa.objects.filter(status=Mesa.Status.FINISHED).count()
    assert RatingChange.objects.count() == 4 * played
    assert Rating.objects.count() == Person.objects.count() == 16
    as_played = figures()
    assert ratings.rebuild() == played
    assert figures() == as_played
    ratings.rebuild()
    assert figures() == as_played


@pytest.mark.slow
def test_each_mesa_rates_its_four_players_from_their_ratings_before_it(two_editions):
    first, second = two_editions
    mesa = second.mesas.filter(status=Mesa.Status.FINISHED).order_by("finished_at", "pk").first()
    before = {}
    for change in RatingChange.objects.filter(at__lt=mesa.finished_at).order_by("at", "mesa_id"):
        before[change.person_id] = (change.mu, change.sigma)
    team = {
        side: list(
            Player.objects.filter(pair=getattr(mesa, f"pair_{side}"))
            .order_by("number")
            .values_list("person_id", flat=True)
        )
        for side in ("a", "b")
    }
    winners, losers = (team["a"], team["b"]) if mesa.winner_id == mesa.pair_a_id else (team["b"], team["a"])
    expected = skill.rate([before[p] for p in winners], [before[p] for p in losers])
    got = {c.person_id: (c.mu, c.sigma, c.won) for c in RatingChange.objects.filter(mesa=mesa)}
    assert [got[p] for p in winners] == [(*r, True) for r in expected[0]]
    assert [got[p] for p in losers] == [(*r, False) for r in expected[1]]


def test_a_walkover_rates_no_one(db):
    champ = walkover(edition(2026, roster(4))).championship
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    other = champ.mesas.get(bracket="W", round=1, position=2)
    factories.play(other, "B")
    assert set(RatingChange.objects.values_list("mesa_id", flat=True)) == {other.pk}


def test_a_zapateria_is_a_win_like_any_other_art_3g6(db):
    """Art. 3g.6: a zapatería ends the mesa; it rates as the win it is, the chicas not weighing."""
    by_zapateria = edition(2026, roster(2, prefix="Zapatero"), bracket_format="single")
    by_chicas = edition(2026, roster(2, prefix="Ganador"), bracket_format="single")
    factories.jueces(2)
    for champ, zapateria in ((by_zapateria, True), (by_chicas, False)):
        draws.draw_bracket(champ, seed=1, by=None)
        factories.play(champ.mesas.get(), "A", chicas=(2, 1), zapateria=zapateria)
    mesa = by_zapateria.mesas.get()
    assert mesa.zapateria and (mesa.chicas_a, mesa.chicas_b) == (1, 0)
    per_championship = [
        sorted(RatingChange.objects.filter(mesa__championship=c).values_list("mu", "sigma", "won"))
        for c in (by_zapateria, by_chicas)
    ]
    assert per_championship[0] == per_championship[1] and len(per_championship[0]) == 4


def test_a_mesa_with_a_player_who_is_no_person_rates_no_one(db):
    champ = factories.championship(bracket_format="single")
    factories.pairs(champ, 2)  # players made outside the pair form and the import: no person
    factories.jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    factories.play(champ.mesas.get(), "A")
    assert not RatingChange.objects.exists()


@pytest.mark.slow
def test_one_vs_one_rates_one_player_a_side(db):
    champ = edition(2026, roster(4, players=1), players_per_pair=1)
    mesas = play_all(champ)
    assert RatingChange.objects.count() == 2 * len(mesas)
    first = mesas[0]
    got = sorted(RatingChange.objects.filter(mesa=first).values_list("won", "mu", "sigma"))
    (winner,), (loser,) = skill.rate([skill.NEW], [skill.NEW])
    assert got == [(False, *loser), (True, *winner)]


@pytest.mark.slow
def test_a_correction_in_the_first_edition_changes_the_seconds_as_a_rebuild_does(two_editions):
    """The first edition is over, and its Director's reach with it (issue #33): its result is corrected by the
    Comité's emergency override (Art. 18), as ``manage.py emergency_result`` does."""
    first, second = two_editions
    comite = get_user_model().objects.create_superuser("comite")
    mesa = first.mesas.filter(bracket="W", round=1).order_by("position").first()
    later = [p for p in Player.objects.filter(pair__championship=second).values_list("person_id", flat=True)]
    before = dict(Rating.objects.filter(person_id__in=later).values_list("person_id", "mu"))
    results.correct_result(
        mesa, "B", 1, 2, by=comite, override=True, emergency=True, reason="La planilla decía otra cosa."
    )
    corrected = figures()
    assert dict(Rating.objects.filter(person_id__in=later).values_list("person_id", "mu")) != before
    ratings.rebuild()
    assert figures() == corrected
    loser_now = RatingChange.objects.filter(mesa=mesa, won=False).values_list("person_id", flat=True)
    assert set(loser_now) == set(mesa.pair_a.players.values_list("person_id", flat=True))


def test_a_correction_of_a_walkover_changes_no_rating(db):
    mesa = walkover(edition(2026, roster(4)))
    results.correct_result(mesa, "B", 0, 2, by=factories.organiser())
    assert not RatingChange.objects.exists()


@pytest.mark.slow
def test_a_mesa_that_ended_before_its_players_last_rated_one_is_rated_by_a_rebuild_from_its_place(two_editions):
    first, second = two_editions
    everything = figures()
    mesa = first.mesas.filter(status=Mesa.Status.FINISHED).order_by("finished_at", "pk")[3]
    # As if its rating had not been written when the later mesas were rated (two mesas ending at once).
    RatingChange.objects.filter(mesa=mesa).delete()
    assert Rating.objects.filter(last_at__gt=mesa.finished_at).exists()
    ratings.mesa_decided(mesa)
    assert figures() == everything


@pytest.mark.slow
def test_a_rebuild_from_a_place_keeps_what_came_before_it(two_editions):
    first, second = two_editions
    everything = figures()
    place = second.mesas.filter(status=Mesa.Status.FINISHED).order_by("finished_at", "pk").first()
    kept = list(RatingChange.objects.filter(at__lt=place.finished_at).values_list("pk", flat=True))
    ratings.rebuild(since=(place.finished_at, place.pk))
    assert figures() == everything
    assert set(kept) <= set(RatingChange.objects.values_list("pk", flat=True))


@pytest.mark.slow
def test_the_order_is_when_the_mesas_ended_not_when_they_were_recorded(two_editions):
    first, second = two_editions
    # A championship played earlier, brought in later: its mesas go first, and what follows is rated on top.
    earlier = edition(2024, roster(8))
    play_all(earlier)
    moment = timezone.make_aware(datetime.datetime(2024, 11, 21, 12))
    for n, mesa in enumerate(earlier.mesas.filter(status=Mesa.Status.FINISHED).order_by("finished_at", "pk")):
        Mesa.objects.filter(pk=mesa.pk).update(finished_at=moment + datetime.timedelta(minutes=n))
    ratings.rebuild()
    first_change = RatingChange.objects.order_by("at", "mesa_id").first()
    assert first_change.mesa.championship == earlier


@pytest.mark.slow
def test_the_command_rebuilds_every_rating_and_links_players_with_no_person(db):
    champ = factories.championship()
    factories.pairs(champ, 4)
    factories.jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    factories.play_to_the_end(champ)
    assert not Rating.objects.exists()
    out = io.StringIO()
    call_command("rebuild_ratings", "--link", stdout=out)
    assert "Players linked to their persons: 8." in out.getvalue()
    assert not Player.objects.filter(person=None).exists()
    assert Rating.objects.count() == 8
    as_linked = figures()
    call_command("rebuild_ratings", stdout=io.StringIO())
    assert figures() == as_linked
