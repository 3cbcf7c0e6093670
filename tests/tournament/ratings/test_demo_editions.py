"""The demo holds two editions of its championship: last year's brought in from the CSV of its results, this
year's drawn with the seeds its results give, its players linked to their persons with one uncertain match left
for the desk; rebuilding gives the same figures, and a Director's correction last year changes this year's
ratings as a rebuild from scratch does (issue #37)."""

import pytest
from django.core.management import call_command

from tests.support.factories import group
from tournament.accounts import accounts
from tournament.models import Championship, Mesa, Player, Rating, RatingChange
from tournament.ratings import identity, ratings, skill
from tournament.results import results

from .conftest import figures

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demos_two_editions_seeded_linked_and_rated():
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo")
    this_year, last_year = Championship.objects.all()
    assert int(last_year.edition) == int(this_year.edition) - 1 and last_year.start_date < this_year.start_date
    assert last_year.mesas.count() == last_year.mesas.filter(status=Mesa.Status.FINISHED).count() > 60
    # This year's draw took the seeds last year's results offered: the strongest pairs by those ratings.
    last = {}
    for change in RatingChange.objects.filter(mesa__championship=last_year).order_by("at", "mesa_id"):
        last[change.person_id] = (change.mu, change.sigma)
    strength = {}
    for pair in this_year.pairs.all():
        players = [last[p.person_id] for p in pair.players.all() if p.person_id in last]
        if players:
            strength[pair.pk] = skill.strength(*skill.pair(players + [skill.NEW] * (2 - len(players))))
    seeded = dict(this_year.pairs.exclude(seed=None).values_list("pk", "seed"))
    assert sorted(seeded, key=seeded.get) == sorted(strength, key=strength.get, reverse=True)[:8]
    assert this_year.draw_order[:8] == sorted(seeded, key=seeded.get)
    # Every player is a person; most played last year; one is a question for the desk.
    assert not Player.objects.filter(person=None).exists()
    returning = Player.objects.filter(pair__championship=this_year, person__players__pair__championship=last_year)
    assert returning.count() == 48
    [doubt] = identity.open_doubts(this_year)
    assert doubt.player.full_name == doubt.candidate.full_name and doubt.player.pair.club != doubt.candidate.club
    assert doubt.candidate.players.get().pair.championship == last_year
    # This year's mesas were rated as they ended, on top of last year's ratings: a rebuild gives the same.
    rated = figures()
    assert len(rated[1]) == 4 * Mesa.objects.filter(status=Mesa.Status.FINISHED).count()
    ratings.rebuild()
    assert figures() == rated
    ratings.rebuild()
    assert figures() == rated
    # The Director corrects a mesa of last year's: this year's ratings change, as a rebuild from scratch has them.
    this_years = list(Player.objects.filter(pair__championship=this_year).values_list("person_id", flat=True))
    before = dict(Rating.objects.filter(person_id__in=this_years).values_list("person_id", "mu"))
    mesa = last_year.mesas.order_by("finished_at").first()
    loser = "A" if mesa.winner_id == mesa.pair_b_id else "B"
    results.correct_result(
        mesa,
        loser,
        *((2, 0) if loser == "A" else (0, 2)),
        by=last_year.director,
        override=True,
        reason="Planilla mal copiada.",
    )
    corrected = figures()
    assert dict(Rating.objects.filter(person_id__in=this_years).values_list("person_id", "mu")) != before
    ratings.rebuild()
    assert figures() == corrected
