"""Appeals against the juez's decisions, and the Director's final ruling (Art. 17-18)."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from refereeing.appeals import procedure as appeals
from refereeing.appeals.procedure import AppealError
from refereeing.claimlog import log as claimlog
from refereeing.claimlog.log import MesaClosed, mesa_replay, record_claim
from refereeing.models import Appeal, ClaimEntry
from tests.support.claims import CAIDA_A, SIGNED, ajuste
from tournament.models import Championship, Mesa

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def file(mesa, pair="B", seq=2, client_id=None, **extra):
    values = dict(
        reason="The caída was made with a card already played.",
        name="Las Sotas uno",
        signature=SIGNED,
        client_id=client_id or uuid.uuid4(),
    )
    values.update(extra)
    return appeals.file_appeal(mesa, pair, seq, **values, by=None)


def kinds(mesa):
    return list(ClaimEntry.objects.filter(mesa=mesa).order_by("seq").values_list("kind", flat=True))


def test_an_appeal_is_filed_with_its_time_and_changes_nothing_yet_art_17(played):
    appeal = file(played)
    assert appeal.status == Appeal.Status.FILED and appeal.filed_at is not None
    assert (appeal.pair, appeal.seq, appeal.name) == ("B", 2, "Las Sotas uno")
    played.refresh_from_db()
    assert played.status == Mesa.Status.IN_PLAY and kinds(played) == ["mano", "caida"]


def test_the_window_closes_after_the_championship_s_minutes_art_17(played):
    decided = ClaimEntry.objects.get(mesa=played, seq=2).created_at
    assert file(played, now=decided + timedelta(minutes=10)).pk
    with pytest.raises(AppealError, match="Art. 17: decision #1 was made more than 10 minutes ago"):
        file(played, seq=1, now=decided + timedelta(minutes=10, seconds=1))
    # Written directly: the window cannot change once play started (tests/tournament/test_guards.py).
    Championship.objects.filter(pk=played.championship_id).update(appeal_window_minutes=30)
    played.championship.refresh_from_db()
    assert file(played, seq=1, now=decided + timedelta(minutes=29)).pk


def test_open_decisions_are_those_still_in_the_window_newest_first(played):
    # The mano (#1) decides nothing a pair could object to: not offered.
    record_claim(played, {"kind": "limpia", "pair": "B"}, uuid.uuid4(), user=played.juez)
    assert [e.seq for e in appeals.open_decisions(played)] == [3, 2]
    later = timezone.now() + timedelta(minutes=11)
    assert appeals.open_decisions(played, now=later) == []


@pytest.mark.parametrize(
    "change, message",
    [
        ({"pair": "C"}, "which pair files it"),
        ({"seq": 9}, "has no decision #9"),
        ({"seq": "2"}, "has no decision #2"),
        ({"reason": "  "}, "Say what the appeal objects to"),
        ({"name": ""}, "name of the representative"),
        ({"name": "x" * 151}, "too long"),
        ({"signature": "data:image/png;base64,bm90IGEgcG5n"}, "not a PNG"),
        ({"signature": None}, "must be a PNG image"),
        ({"client_id": "not-a-uuid"}, "client_id must be a UUID"),
    ],
)
def test_a_malformed_appeal_is_refused_and_nothing_is_saved(played, change, message):
    values = {"pair": "B", "seq": 2, **change}
    with pytest.raises(AppealError, match=message):
        file(played, **values)
    assert not Appeal.objects.exists()


def test_a_retry_files_the_appeal_once_and_a_pair_appeals_a_decision_once(played):
    client_id = uuid.uuid4()
    first = file(played, client_id=client_id)
    assert file(played, client_id=str(client_id)) == first
    with pytest.raises(AppealError, match="Pair B has already appealed decision #2"):
        file(played)
    assert file(played, pair="A").pk != first.pk  # the other pair may appeal it too
    assert Appeal.objects.count() == 2


def test_the_director_s_adjustments_are_not_appealable_art_18(played, people):
    record_claim(played, ajuste("A", 2), uuid.uuid4(), user=people["director"])
    with pytest.raises(AppealError, match="adjustments are final"):
        file(played, seq=3)


def test_admitting_suspends_the_mesa_until_the_ruling_art_17(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    assert appeal.status == Appeal.Status.ADMITTED and appeal.suspended_mesa
    played.refresh_from_db()
    assert played.status == Mesa.Status.SUSPENDED and played.state["suspended"]
    entry = ClaimEntry.objects.get(mesa=played, seq=3)
    assert entry.kind == "suspender" and entry.juez == people["director"]


def test_only_the_director_rules_on_appeals_art_17(played, people):
    appeal = file(played)
    for who in ("juez", "staff", "stranger"):
        with pytest.raises(AppealError, match="Only the championship's Director"):
            appeals.admit(appeal, by=people[who])
    with pytest.raises(AppealError, match="Only the championship's Director"):
        appeals.admit(appeal, by=None)
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.FILED and kinds(played) == ["mano", "caida"]


def test_an_appeal_not_admitted_leaves_the_mesa_as_it_was(played, people):
    appeal = appeals.dismiss(file(played), "The caída was legal.", by=people["director"])
    assert appeal.status == Appeal.Status.NOT_ADMITTED and appeal.ruling == "The caída was legal."
    assert kinds(played) == ["mano", "caida"]
    with pytest.raises(AppealError, match="already not admitted"):
        appeals.admit(appeal, by=people["director"])
    with pytest.raises(AppealError, match="Write the ruling"):
        appeals.dismiss(file(played, pair="A"), " ", by=people["director"])


def test_an_upheld_appeal_undoes_the_decision_adjusts_and_resumes_art_17_18(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    appeal = appeals.rule(
        appeal, upheld=True, ruling="The card had been played.", undo=True, adjustment=("B", 2), by=people["director"]
    )
    assert appeal.status == Appeal.Status.UPHELD and appeal.ruled_by == people["director"]
    assert kinds(played) == ["mano", "caida", "suspender", "void", "ajuste", "reanudar"]
    played.refresh_from_db()
    assert played.status == Mesa.Status.IN_PLAY and not played.state["suspended"]
    assert played.state["scores"] == {"A": 0, "B": 2}
    assert played.state == claimlog.state_dict(mesa_replay(played))
    ajuste_claim = ClaimEntry.objects.get(mesa=played, kind="ajuste").claim
    assert ajuste_claim["reason"] == "Appeal of pair B on #2"


def test_the_directors_acts_in_a_ruling_cite_the_directors_articles_art_17_18(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    appeals.rule(
        appeal, upheld=True, ruling="The card had been played.", undo=True, adjustment=("B", 2), by=people["director"]
    )
    articles = [d.article for d in mesa_replay(played).decisions[2:]]
    assert articles == ["Art. 17", "Art. 17", "Art. 18", "Art. 17"]  # suspender, void, ajuste, reanudar
    # The juez's own suspension and void stay the juez's (Art. 16).
    record_claim(played, {"kind": "suspender"}, uuid.uuid4(), user=played.juez)
    assert mesa_replay(played).decisions[-1].article == "Art. 16"


def test_nobody_but_the_director_logs_the_directors_mark_art_17(played):
    with pytest.raises(claimlog.NotAllowed, match="Art. 17"):
        record_claim(played, {"kind": "void", "target": 2, "director": True}, uuid.uuid4(), user=played.juez)
    assert kinds(played) == ["mano", "caida"]


def test_a_rejected_appeal_resumes_the_mesa_with_the_score_unchanged(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    appeal = appeals.rule(appeal, upheld=False, ruling="The caída stands.", by=people["director"])
    assert appeal.status == Appeal.Status.REJECTED
    played.refresh_from_db()
    assert played.status == Mesa.Status.IN_PLAY and played.state["scores"] == {"A": 2, "B": 0}
    with pytest.raises(AppealError, match="Only an upheld appeal changes the score"):
        appeals.rule(
            appeals.admit(file(played, pair="A"), by=people["director"]),
            upheld=False,
            ruling="No.",
            undo=True,
            by=people["director"],
        )


def test_the_ruling_is_final(played, people):
    appeal = appeals.rule(
        appeals.admit(file(played), by=people["director"]),
        upheld=False,
        ruling="The caída stands.",
        by=people["director"],
    )
    for step in (
        lambda: appeals.rule(appeal, upheld=True, ruling="Changed my mind.", by=people["director"]),
        lambda: appeals.admit(appeal, by=people["director"]),
        lambda: appeals.dismiss(appeal, "No.", by=people["director"]),
    ):
        with pytest.raises(AppealError, match="already rejected"):
            step()
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.REJECTED and appeal.ruling == "The caída stands."


def test_ruling_needs_an_admitted_appeal(played, people):
    with pytest.raises(AppealError, match="already filed"):
        appeals.rule(file(played), upheld=False, ruling="Too early.", by=people["director"])


@pytest.mark.parametrize("adjustment", [("C", 2), ("A", 0), ("A", 41), ("A", "2")])
def test_a_bad_adjustment_is_refused_and_the_appeal_stays_admitted(played, people, adjustment):
    appeal = appeals.admit(file(played), by=people["director"])
    with pytest.raises(AppealError, match="between -40 and 40"):
        appeals.rule(appeal, upheld=True, ruling="Yes.", adjustment=adjustment, by=people["director"])
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.ADMITTED and kinds(played)[-1] == "suspender"


def test_a_refused_undo_rolls_the_whole_ruling_back(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    record_claim(played, {"kind": "void", "target": 2, "director": True}, uuid.uuid4(), user=people["director"])
    with pytest.raises(AppealError):
        appeals.rule(appeal, upheld=True, ruling="Undo it.", undo=True, adjustment=("B", 2), by=people["director"])
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.ADMITTED
    assert kinds(played) == ["mano", "caida", "suspender", "void"]


def test_an_appeal_on_a_mesa_the_juez_had_suspended_does_not_resume_it_art_16(played, people):
    record_claim(played, {"kind": "suspender"}, uuid.uuid4(), user=people["juez"])
    appeal = appeals.admit(file(played), by=people["director"])
    assert not appeal.suspended_mesa
    appeals.rule(appeal, upheld=False, ruling="The caída stands.", by=people["director"])
    played.refresh_from_db()
    assert played.status == Mesa.Status.SUSPENDED
    assert kinds(played) == ["mano", "caida", "suspender"]


def test_on_a_decided_mesa_the_ruling_is_recorded_but_the_score_is_corrected_elsewhere(played, people):
    record_claim(played, ajuste("A", 38), uuid.uuid4(), user=people["director"])  # 40 to 0: zapatería
    played.refresh_from_db()
    assert played.status == Mesa.Status.FINISHED
    appeal = appeals.admit(file(played), by=people["director"])
    assert not appeal.suspended_mesa
    with pytest.raises(AppealError, match="already decided: correct its result instead"):
        appeals.rule(appeal, upheld=True, ruling="Yes.", adjustment=("B", 2), by=people["director"])
    appeal = appeals.rule(appeal, upheld=True, ruling="Noted; the result is corrected.", by=people["director"])
    assert appeal.status == Appeal.Status.UPHELD


@pytest.mark.slow
def test_while_the_director_holds_the_mesa_the_juez_cannot_resume_or_undo_art_17(played, people):
    appeal = appeals.admit(file(played), by=people["director"])
    for claim in ({"kind": "reanudar"}, {"kind": "void", "target": 3}, CAIDA_A):
        with pytest.raises(MesaClosed, match="suspended by an appeal until the Director's ruling"):
            record_claim(played, claim, uuid.uuid4(), user=people["juez"])
    # A device opened with the table's PIN logs as the juez: refused too.
    with pytest.raises(MesaClosed):
        record_claim(played, {"kind": "reanudar"}, uuid.uuid4())
    assert kinds(played) == ["mano", "caida", "suspender"]
    appeals.rule(appeal, upheld=True, ruling="Adjusted.", adjustment=("B", 2), by=people["director"])
    # After the ruling the juez plays on, but cannot undo what the Director logged.
    for target in (4, 5):
        with pytest.raises(MesaClosed, match="only the Director can undo it"):
            record_claim(played, {"kind": "void", "target": target}, uuid.uuid4(), user=people["juez"])
    assert record_claim(played, {"kind": "void", "target": 2}, uuid.uuid4(), user=people["juez"]).decision["accepted"]
    assert record_claim(played, {"kind": "void", "target": 4}, uuid.uuid4(), user=people["director"]).decision[
        "accepted"
    ]
