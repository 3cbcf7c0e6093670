"""Many devices at one mesa at once: no claim lost, none applied twice.

These tests commit for real (``transaction=True``) and write from several
threads, each with its own database connection, as gunicorn's workers do.
"""

import uuid

import pytest

from refereeing.claimlog.log import record_claim
from refereeing.models import ClaimEntry
from tests.support.claims import ajuste
from tests.support.threads import run_at_once
from tournament.models import Mesa

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

THREADS = 8
CLAIMS_PER_THREAD = 5


def test_concurrent_writers_lose_no_claim_and_leave_no_gap(mesa):
    director = mesa.championship.director  # the Director adjusts (Art. 18): any points, quickly

    def writer(pair):
        def job():
            return [
                record_claim(mesa, ajuste(pair, 1), uuid.uuid4(), user=director).entry.seq
                for _ in range(CLAIMS_PER_THREAD)
            ]

        return job

    results = run_at_once([writer("AB"[i % 2]) for i in range(THREADS)])
    total = THREADS * CLAIMS_PER_THREAD
    seqs = sorted(seq for seqs in results for seq in seqs)
    assert seqs == list(range(1, total + 1))
    assert list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("seq", flat=True)) == seqs
    mesa.refresh_from_db()
    assert mesa.last_seq == total
    # Every claim went into the state: the points add up.
    assert mesa.state["scores"]["A"] + mesa.state["scores"]["B"] == total


def test_concurrent_retries_of_one_client_id_make_exactly_one_entry(mesa):
    client_id = uuid.uuid4()
    claim = {"kind": "caida", "pair": "A", "player": 1}
    answers = run_at_once([lambda: record_claim(mesa, claim, client_id)] * THREADS)
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 1
    assert sum(not a.replayed for a in answers) == 1
    assert all(a.as_dict() == answers[0].as_dict() for a in answers)
    assert Mesa.objects.get(pk=mesa.pk).last_seq == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_rule_change_racing_a_first_claim_never_leaves_them_apart(mesa, people, attempt):
    """Either the change comes first (the mesa starts with the new rules) or it is refused:
    never a championship on new rules with a mesa started on the old ones unnoticed."""
    from tournament.models import Championship, RulesFrozen

    def change():
        championship = Championship.objects.get(pk=mesa.championship_id)
        championship.ruleset_overrides = {"caida_limpia_points": 4}
        try:
            championship.save()
        except RulesFrozen:
            return "refused"
        return "saved"

    def first_claim():
        return record_claim(mesa, {"kind": "mano"}, uuid.uuid4(), user=people["juez"]).entry.seq

    outcome, seq = run_at_once([change, first_claim])
    assert seq == 1
    started = Mesa.objects.get(pk=mesa.pk)
    rules = Championship.objects.get(pk=mesa.championship_id).ruleset
    assert started.ruleset == rules
    assert rules.caida_limpia_points == (4 if outcome == "saved" else 2)
