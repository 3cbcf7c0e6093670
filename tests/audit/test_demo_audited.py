"""Issue #25 part 1: every act that changes a championship is one domain function taking ``by`` that
writes its audit entry; the demo calls the same acts as the screens, so its championship is audited
act by act."""

import inspect
import sys

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db.models import Max

from audit.models import AuditEntry
from refereeing.access import permissions
from refereeing.appeals import procedure as appeals
from refereeing.claimlog import log as claimlog
from refereeing.models import Appeal
from resolutions import register
from tests.support.factories import group
from tournament.accounts import accounts, lockouts
from tournament.championships import championships
from tournament.draws import draws
from tournament.models import Championship, Mesa, Sede
from tournament.pairs import checkin, pairs_csv, registration
from tournament.ratings import history, identity, merging, seeding
from tournament.results import results
from tournament.seating import seating, sedes

pytestmark = pytest.mark.django_db

# The acts the organisers', the Director's and the Comité's screens call, each a function of its domain
# module; a pair's own acts (checking itself in, filing an appeal at the table) name the signed-in user who
# sent them, or None for the pair's own device (the trail names it as such).
ACTS = [
    checkin.check_in_itself,
    appeals.file_appeal,
    championships.save_championship,
    registration.save_pair,
    registration.new_link,
    pairs_csv.save,
    history.save,
    seeding.accept,
    identity.resolve,
    merging.merge,
    merging.split,
    merging.undo,
    checkin.set_arrival,
    checkin.mark_all_present,
    draws.draw_bracket,
    draws.draw_knockout,
    draws.correct_draw,
    seating.start_round,
    seating.assign_tables,
    seating.assign_table,
    seating.auto_seat,
    seating.start_mesa,
    results.record_walkover,
    results.correct_result,
    sedes.create_sede,
    accounts.mark_available,
    accounts.open_account,
    accounts.set_password,
    accounts.set_juez_active,
    lockouts.unlock,
    permissions.reissue_pin,
    appeals.admit,
    appeals.dismiss,
    appeals.rule,
    appeals.acknowledge,
    register.resolve,
    register.import_precedents,
]


@pytest.mark.parametrize("act", ACTS, ids=lambda act: f"{act.__module__}.{act.__name__}")
def test_every_act_names_who_does_it(act):
    by = inspect.signature(act).parameters.get("by")
    assert by is not None and by.kind is inspect.Parameter.KEYWORD_ONLY


def entries(model, **filters):
    return AuditEntry.objects.filter(content_type=ContentType.objects.get_for_model(model), **filters)


@pytest.mark.slow
def test_the_demo_leaves_an_entry_for_each_of_its_acts():
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo")
    championship = Championship.objects.first()  # this year's edition (last year's is older)
    organiser, comite = (get_user_model().objects.get(username=name) for name in ("organizador", "comite"))
    mine = {"championship_id": championship.pk}

    # The sede by the Comité; the jueces, available on the day the organiser made them.
    assert entries(Sede, action=AuditEntry.Action.CREATE, actor=comite).count() == 1
    assert AuditEntry.objects.filter(act="juez_available", actor=organiser).count() == 16
    # The championship, its pairs, their check-in and the draw, by the organiser.
    assert entries(Championship, action=AuditEntry.Action.CREATE, actor=organiser, **mine).exists()
    [imported] = AuditEntry.objects.filter(act="pairs_imported", actor=organiser, **mine)
    assert imported.changes["pairs"][1].count(", ") == 31
    assert AuditEntry.objects.filter(act="all_checked_in", actor=organiser, **mine).count() == 1
    [drawn] = entries(Championship, action=AuditEntry.Action.UPDATE, actor=organiser, **mine).filter(
        changes__has_key="draw_seed"
    )
    assert drawn.changes["draw_seed"][1] == str(championship.draw_seed)
    # Each round the demo starts, and each of its mesas seated at a table.
    started = AuditEntry.objects.filter(act="round_started", actor=organiser, **mine)
    assert sorted(e.changes["round"][1] for e in started) == ["L 1", "W 1", "W 2"]
    seated = championship.mesas.exclude(table_number=None).exclude(status=Mesa.Status.WAITING)
    for mesa in seated:
        assert entries(Mesa, object_id=mesa.pk, changes__has_key="table_number").exists(), mesa
    # Each result the claim log wrote, and the appeal.
    finished = championship.mesas.filter(status=Mesa.Status.FINISHED)
    assert finished.count() == 16  # the winners' first round
    for mesa in finished:
        assert entries(Mesa, object_id=mesa.pk, changes__has_key="winner").exists(), mesa
    assert entries(Appeal, action=AuditEntry.Action.CREATE, object_id=Appeal.objects.get().pk).exists()


@pytest.mark.slow
def test_no_act_of_the_demo_escapes_the_trail(monkeypatch):
    """Each act the demo calls, watched as it runs: every entry written meanwhile names the act's ``by``
    (a claim's, its juez); an act that says it changed something wrote one at least; and no entry is written
    outside an act but the demo's own set-up."""
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    calls, depth = [], [0]

    def last_entry():
        return AuditEntry.objects.aggregate(last=Max("pk"))["last"] or 0

    def watched(act, actor_of):
        def call(*args, **kwargs):
            depth[0] += 1
            before, result = last_entry(), None
            try:
                result = act(*args, **kwargs)
                return result
            finally:
                depth[0] -= 1
                if not depth[0]:  # an act inside another is the outer act's
                    calls.append((act, actor_of(kwargs), result, before, last_entry()))

        return call

    for act in ACTS:
        monkeypatch.setattr(sys.modules[act.__module__], act.__name__, watched(act, lambda kwargs: kwargs["by"]))
    claim = claimlog.record_claim
    monkeypatch.setattr(claimlog, "record_claim", watched(claim, lambda kwargs: kwargs["user"]))
    call_command("demo")

    called = {act.__name__ for act, *_rest in calls}
    assert called == {
        "create_sede",
        "save_championship",
        "save",
        "mark_all_present",
        "accept",
        "draw_bracket",
        "start_round",
        "assign_tables",
        "record_claim",
        "file_appeal",
    }
    within = set()
    for act, by, result, before, after in calls:
        written = AuditEntry.objects.filter(pk__gt=before, pk__lte=after)
        # An act that says it changed something (most claims change nothing the trail records; a round's
        # mesas may all be seated already) wrote its entry.
        if act is not claim and result not in (None, False, 0, []):
            assert written.exists(), act.__name__
        for entry in written:
            assert (entry.actor, entry.actor_name) == (by, by.get_full_name()), (act.__name__, entry.changes)
        within |= set(written.values_list("pk", flat=True))
    outside = AuditEntry.objects.exclude(pk__in=within)
    # Only the demo's set-up of accounts: the Comité's administrator, made by the command itself (as
    # createsuperuser's); the organiser's and the Director's, by the Comité; the jueces', by the organiser.
    assert {e.content_type.model for e in outside} == {"user"}
    made_by = {e.object_repr: e.actor_name for e in outside.filter(action=AuditEntry.Action.CREATE)}
    assert made_by == {
        "comite": "manage.py demo",
        "organizador": "Comité Permanente",
        "director": "Comité Permanente",
        **{f"juez{n}": "Organización del Campeonato" for n in range(1, 17)},
    }
    assert all(e.actor_name == made_by[e.object_repr] for e in outside)
