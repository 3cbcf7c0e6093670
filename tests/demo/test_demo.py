"""``manage.py demo``: the championship ``make run`` shows."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db.models import Q

from refereeing.models import Appeal, ClaimEntry
from tests.support.factories import group
from tournament.access import is_organiser
from tournament.accounts import accounts
from tournament.models import Championship, Mesa

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demo_has_a_round_played_and_one_in_play_through_the_claim_log():
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo", "--if-empty")
    # This year's edition; last year's, older, came in from the CSV of its results (tests/tournament/ratings).
    championship = Championship.objects.first()
    assert championship.pairs.count() == 32 and championship.ruleset_profile == "riobamba"
    for username in ["organizador", "director"] + [f"juez{n}" for n in range(1, 17)]:
        assert authenticate(username=username, password="cuarenta") is not None, username
    assert championship.director.username == "director"
    # The demo's Director is a Director alone (issue 33): the Director's pages work without an organiser's rights.
    assert not championship.director.is_staff and not is_organiser(championship.director)
    first = championship.mesas.filter(bracket="W", round=1)
    assert {m.status for m in first} == {Mesa.Status.FINISHED}
    # Every result came from the engine's state through the claim log.
    for mesa in first:
        assert mesa.last_seq == ClaimEntry.objects.filter(mesa=mesa).count() > 0
        assert mesa.state["finished"] and mesa.winner == mesa.pair(mesa.state["winner"])
    second = championship.mesas.filter(Q(bracket="W", round=2) | Q(bracket="L", round=1))
    assert second.count() == 16 and all(m.last_seq > 0 and m.juez_id for m in second)
    assert championship.mesas.filter(status=Mesa.Status.IN_PLAY).exists()
    # One appeal waits for the Director (Art. 17): the other pair's, on a caída at a mesa in play.
    [appeal] = Appeal.objects.all()
    assert appeal.status == Appeal.Status.FILED and appeal.mesa.status == Mesa.Status.IN_PLAY
    caida = ClaimEntry.objects.get(mesa=appeal.mesa, seq=appeal.seq)
    assert caida.kind == "caida" and caida.accepted and caida.claim["pair"] != appeal.pair
    assert appeal.name == appeal.mesa.pair(appeal.pair).representative.full_name
    call_command("demo", "--if-empty")
    assert Championship.objects.count() == 2
