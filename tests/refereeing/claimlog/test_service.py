"""The claim log service: append-only, idempotent, and the mesa follows the engine."""

import uuid

import pytest

from refereeing.claimlog import log as claimlog
from refereeing.claimlog.log import Conflict, MalformedClaim, MesaClosed, record_claim
from refereeing.models import ClaimEntry
from tests.support import factories
from tests.support.claims import CAIDA_A, CAIDA_B, MANO, ajuste
from tests.support.rows import force
from tournament.draws import draws
from tournament.models import Mesa

pytestmark = pytest.mark.django_db


def claims_at(mesa):
    return list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("seq", "kind"))


@pytest.mark.slow
def test_a_claim_is_logged_with_its_decision_and_the_mesa_keeps_the_state(mesa, people):
    record_claim(mesa, MANO, uuid.uuid4(), user=people["juez"])
    answer = record_claim(mesa, CAIDA_A, uuid.uuid4(), user=people["juez"], address="10.0.0.7")
    entry = answer.entry
    assert not answer.replayed
    assert (entry.seq, entry.kind, entry.accepted) == (2, "caida", True)
    assert entry.juez == people["juez"] and entry.address == "10.0.0.7"
    # The engine's own decision for the claim (Art. 6: a caída is 2 points).
    assert entry.decision["points"] == {"A": 2, "B": 0}
    assert entry.decision == answer.decision
    mesa.refresh_from_db()
    assert mesa.last_seq == 2 == answer.last_seq
    assert mesa.state == answer.state == claimlog.state_dict(claimlog.mesa_replay(mesa))


@pytest.mark.slow
def test_the_same_client_id_twice_is_one_entry_and_the_same_answer(mesa):
    client_id = uuid.uuid4()
    first = record_claim(mesa, CAIDA_A, client_id)
    again = record_claim(mesa, CAIDA_A, str(client_id))
    assert again.replayed
    assert again.as_dict() == first.as_dict()
    assert claims_at(mesa) == [(1, "caida")]


def test_a_retry_after_other_claims_gives_the_first_answer_not_a_new_one(mesa):
    client_id = uuid.uuid4()
    record_claim(mesa, MANO, uuid.uuid4())
    first = record_claim(mesa, CAIDA_A, client_id)
    record_claim(mesa, CAIDA_B, uuid.uuid4())
    again = record_claim(mesa, CAIDA_A, client_id)
    assert again.as_dict() == first.as_dict()
    assert again.last_seq == 2 and again.state["scores"] == {"A": 2, "B": 0}
    assert claims_at(mesa) == [(1, "mano"), (2, "caida"), (3, "caida")]


def test_a_client_id_of_another_mesa_is_refused(mesa, other_mesa):
    client_id = uuid.uuid4()
    record_claim(mesa, CAIDA_A, client_id)
    with pytest.raises(MalformedClaim):
        record_claim(other_mesa, CAIDA_A, client_id)
    assert claims_at(other_mesa) == []


@pytest.mark.parametrize("claim", [None, [], "caida", {}, {"kind": "trampa"}, {"kind": "caida", "pair": "C"}])
def test_a_malformed_claim_saves_nothing(mesa, claim):
    with pytest.raises(MalformedClaim):
        record_claim(mesa, claim, uuid.uuid4())
    mesa.refresh_from_db()
    assert (mesa.last_seq, mesa.status, claims_at(mesa)) == (0, Mesa.Status.READY, [])


@pytest.mark.parametrize("client_id", [None, "", "abc", 12, "1234-5678"])
def test_a_bad_client_id_saves_nothing(mesa, client_id):
    with pytest.raises(MalformedClaim):
        record_claim(mesa, CAIDA_A, client_id)
    assert claims_at(mesa) == []


def test_a_stale_expected_seq_is_a_conflict_carrying_the_state_now(mesa):
    record_claim(mesa, MANO, uuid.uuid4(), expected_seq=1)
    with pytest.raises(Conflict) as conflict:
        record_claim(mesa, MANO, uuid.uuid4(), expected_seq=1)
    mesa.refresh_from_db()
    assert conflict.value.last_seq == 1
    assert conflict.value.state == mesa.state
    assert claims_at(mesa) == [(1, "mano")]
    # The device, caught up, claims again with the right seq.
    assert record_claim(mesa, CAIDA_A, uuid.uuid4(), expected_seq=2).entry.seq == 2


@pytest.mark.parametrize("expected_seq", [0, -1, "2", 1.5, True])
def test_a_bad_expected_seq_is_malformed(mesa, expected_seq):
    with pytest.raises(MalformedClaim):
        record_claim(mesa, CAIDA_A, uuid.uuid4(), expected_seq=expected_seq)


def test_a_correction_is_a_void_claim_and_the_voided_entry_stays(mesa):
    record_claim(mesa, MANO, uuid.uuid4())
    caida = record_claim(mesa, CAIDA_A, uuid.uuid4())
    assert caida.state["scores"]["A"] == 2
    void = record_claim(mesa, {"kind": "void", "target": 2}, uuid.uuid4())
    assert void.entry.seq == 3 and void.decision["accepted"]
    assert void.state["scores"]["A"] == 0
    entries = list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq"))
    # The log keeps both, and the caída's stored decision is unchanged.
    assert [e.kind for e in entries] == ["mano", "caida", "void"]
    assert entries[1].decision == caida.decision
    # The engine's replay shows who voided it.
    assert claimlog.mesa_replay(mesa).decisions[1].as_dict()["voided_by"] == 3


def test_first_claim_puts_the_mesa_in_play_and_suspender_suspends_it(mesa):
    record_claim(mesa, {"kind": "mano"}, uuid.uuid4())
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.IN_PLAY and mesa.started_at is not None
    started = mesa.started_at
    # Art. 16: the juez may suspend the mesa.
    record_claim(mesa, {"kind": "suspender"}, uuid.uuid4())
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.SUSPENDED
    refused = record_claim(mesa, CAIDA_A, uuid.uuid4())
    # Logged, and refused by the engine.
    assert (refused.entry.accepted, refused.decision["code"]) == (False, "mesa_suspendida")
    record_claim(mesa, {"kind": "reanudar"}, uuid.uuid4())
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.IN_PLAY and mesa.started_at == started
    assert mesa.last_seq == 4


def test_two_chicas_end_the_mesa_and_its_result_is_recorded(mesa):
    # Two chicas win the mesa (Art. 3g.7); B reaches 10, so no zapatería.
    for claim in (ajuste("B", 10), ajuste("A", 40), ajuste("A", 40)):
        record_claim(mesa, claim, uuid.uuid4(), user=mesa.championship.director)
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.FINISHED and mesa.finished_at is not None
    assert mesa.winner == mesa.pair_a and (mesa.chicas_a, mesa.chicas_b) == (2, 0)
    assert not mesa.zapateria
    with pytest.raises(MesaClosed):
        record_claim(mesa, CAIDA_A, uuid.uuid4())
    assert mesa.last_seq == 3


def test_a_zapateria_ends_the_mesa_after_the_first_chica(mesa):
    # Art. 3g.6, 12: the loser of the first chica has fewer than 10 points.
    record_claim(mesa, ajuste("B", 8), uuid.uuid4(), user=mesa.championship.director)
    record_claim(mesa, ajuste("A", 40), uuid.uuid4(), user=mesa.championship.director)
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.FINISHED and mesa.zapateria
    assert mesa.winner == mesa.pair_a and (mesa.chicas_a, mesa.chicas_b) == (1, 0)


@pytest.mark.parametrize("status", [Mesa.Status.WAITING, Mesa.Status.FINISHED, Mesa.Status.WALKOVER])
def test_a_mesa_that_is_not_being_played_refuses_claims(mesa, status):
    # A decided mesa has a winner (a constraint of the tournament's data).
    decided = status in (Mesa.Status.FINISHED, Mesa.Status.WALKOVER)
    force(Mesa.objects.filter(pk=mesa.pk), status=status, winner=mesa.pair_a if decided else None)
    with pytest.raises(MesaClosed):
        record_claim(mesa, CAIDA_A, uuid.uuid4())
    assert claims_at(mesa) == []


def test_a_mesa_whose_pairs_are_unknown_refuses_claims(mesa):
    # Only a waiting mesa may lack a pair (a constraint of the tournament's data).
    force(Mesa.objects.filter(pk=mesa.pk), pair_b=None, status=Mesa.Status.WAITING)
    with pytest.raises(MesaClosed):
        record_claim(mesa, CAIDA_A, uuid.uuid4())


def test_a_mesa_cannot_start_at_a_table_still_in_use(mesa, other_mesa):
    force(Mesa.objects.filter(pk=other_mesa.pk), table_number=mesa.table_number, status=Mesa.Status.IN_PLAY)
    with pytest.raises(MesaClosed, match="3"):
        record_claim(mesa, CAIDA_A, uuid.uuid4())
    assert claims_at(mesa) == []


def test_a_juez_referees_one_mesa_at_a_time(mesa, other_mesa, people):
    force(Mesa.objects.filter(pk=other_mesa.pk), juez=people["juez"], status=Mesa.Status.IN_PLAY)
    with pytest.raises(MesaClosed, match="juez"):
        record_claim(mesa, MANO, uuid.uuid4())
    assert claims_at(mesa) == []


def test_the_winner_and_the_loser_go_on_to_their_next_mesas(mesa, championship):
    # Art. 12: in double elimination the loser goes on to the losers' bracket.
    final = Mesa.objects.create(championship=championship, round=2, position=1)
    losers = Mesa.objects.create(championship=championship, bracket=Mesa.Bracket.LOSERS, round=1, position=1)
    Mesa.objects.filter(pk=mesa.pk).update(winner_to=final, winner_to_slot="B", loser_to=losers, loser_to_slot="A")
    record_claim(mesa, ajuste("A", 12), uuid.uuid4(), user=mesa.championship.director)  # no zapatería
    record_claim(mesa, ajuste("B", 40), uuid.uuid4(), user=mesa.championship.director)
    record_claim(mesa, ajuste("B", 40), uuid.uuid4(), user=mesa.championship.director)
    final.refresh_from_db()
    losers.refresh_from_db()
    assert final.pair_b == mesa.pair_b and losers.pair_a == mesa.pair_a
    mesa.refresh_from_db()
    assert mesa.winner == mesa.pair_b and (mesa.chicas_a, mesa.chicas_b) == (0, 2)


def test_a_juez_busy_in_another_championship_is_told_which_mesa_and_where(english):
    judge = factories.jueces(1)[0]
    mesas = []
    for name in ("Copa de Quito", "Campeonato de Riobamba"):
        champ = factories.championship(name=name)
        factories.pairs(champ, 2)
        draws.draw_bracket(champ, seed=1, by=None)
        mesa = champ.mesas.get(bracket="W", round=1, position=1)
        force(Mesa.objects.filter(pk=mesa.pk), juez=judge, table_number=1, status=Mesa.Status.READY)
        mesas.append(Mesa.objects.get(pk=mesa.pk))
    factories.start(mesas[0])
    with pytest.raises(MesaClosed) as refused:
        record_claim(mesas[1], MANO, uuid.uuid4(), user=judge)
    assert str(refused.value) == (
        "The juez of this mesa is still refereeing Winners' bracket R1-1 (table 1) in Copa de Quito."
    )
    assert not ClaimEntry.objects.filter(mesa=mesas[1]).exists()
