"""Rounds that seat and call themselves (#23.3), and acts that own their audit entry (#25.1).

A championship may seat its mesas automatically: a mesa whose two pairs
are known gets a table and a juez as soon as both are free, after the draw
and after every result, in the same transaction. How a seated mesa starts
is the championship's: the desk starts its round, the juez taps "Start
mesa", or the juez's first claim starts it; a claim on a mesa that has not
started says what to do. The control board flags mesas overdue against the
championship's own pace, mesas waiting for a table or a juez, and idle
tables.
"""

import datetime
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from audit.models import AuditEntry
from refereeing.claimlog import log as claimlog
from tests.support.factories import championship, group, jueces, organiser, pairs, start
from tests.support.rows import force
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.errors import ActionRefused
from tournament.models import Championship, Mesa
from tournament.results import results
from tournament.seating import seating

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def auto(count=4, tables=8, judges=2, **fields):
    """A championship that seats automatically, ``count`` pairs drawn, ``judges`` jueces."""
    champ = championship(tables=tables, auto_seating=True, **fields)
    pairs(champ, count)
    jueces(judges)
    draws.draw_bracket(champ, seed=1, by=None)
    return champ


def mesa(champ, bracket="W", round_=1, position=1):
    return champ.mesas.select_related("championship").get(bracket=bracket, round=round_, position=position)


def holders():
    """(table numbers, juez ids) of every undecided mesa holding them: each must appear once."""
    held = list(seating.holding())
    return [m.table_number for m in held if m.table_number], [m.juez_id for m in held if m.juez_id]


# --- automatic seating ----------------------------------------------------------


def test_the_draw_seats_and_calls_the_first_mesas_at_free_tables_with_free_jueces():
    champ = auto(count=4, judges=2)
    first, second = mesa(champ, position=1), mesa(champ, position=2)
    assert (first.table_number, second.table_number) == (1, 2)
    assert first.juez_id != second.juez_id and None not in (first.juez_id, second.juez_id)
    # Called, and waiting from that moment; still waiting to start.
    assert first.seated_at is not None and first.status == Mesa.Status.WAITING
    assert not Mesa.objects.filter(championship=champ, seated_at__isnull=False, bracket="L").exists()


def test_without_the_setting_nothing_is_seated():
    champ = championship()
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    assert not champ.mesas.exclude(table_number=None).exists()


def test_a_mesa_waits_for_a_juez_and_is_seated_by_the_result_that_frees_one():
    champ = auto(count=4, judges=1)
    first, second = mesa(champ, position=1), mesa(champ, position=2)
    # No table without a juez: the second mesa is not called to a table nobody referees.
    assert first.table_number == 1 and first.juez_id is not None
    assert (second.table_number, second.juez_id, second.seated_at) == (None, None, None)
    results.record_walkover(first, "A", by=None)
    second.refresh_from_db()
    assert second.table_number is not None and second.juez_id == first.juez_id
    assert second.seated_at is not None


def test_a_result_seats_the_mesas_it_makes_playable_with_an_entry_saying_so():
    champ = auto(count=4, judges=2)
    results.record_walkover(mesa(champ, position=1), "A", by=None)
    final, losers = mesa(champ, round_=2), mesa(champ, "L")
    assert final.table_number is None  # one pair still unknown
    results.record_walkover(mesa(champ, position=2), "B", by=None)
    final.refresh_from_db()
    losers.refresh_from_db()
    assert final.table_number and losers.table_number and final.table_number != losers.table_number
    assert {final.juez_id, losers.juez_id} == set(holders()[1]) and final.juez_id != losers.juez_id
    entry = AuditEntry.objects.filter(mesa_id=final.pk, changes__has_key="juez").get()
    assert entry.reason == "Seated automatically"


def test_a_claim_that_ends_a_mesa_seats_the_next_one_and_records_it_although_the_api_records_nothing():
    from auditlog.context import disable_auditlog

    champ = auto(count=4, judges=2, start_mode=Championship.Start.FIRST_CLAIM)
    for position in (1, 2):
        played = mesa(champ, position=position)
        start(played)
        played.state = {"finished": True, "winner": "A", "chicas": {"A": 2, "B": 0}}
        with disable_auditlog():  # as the tablets' API runs
            results.record_result(played)
    final = mesa(champ, round_=2)
    assert final.seated_at is not None
    assert AuditEntry.objects.filter(mesa_id=final.pk, reason="Seated automatically").exists()


def two_at_one_sede(second_seats_itself):
    """Two championships of 4 pairs drawn at one sede, two jueces in the pool: the first seats itself, so the
    draw gives both jueces to its mesas; the second seats itself or is left to its desk."""
    jueces(2)
    first = championship(name="Copa A", tables=8, auto_seating=True)
    second = championship(name="Copa B", sede=first.sede, auto_seating=second_seats_itself)
    pairs(first, 4)
    pairs(second, 4)
    draws.draw_bracket(first, seed=1, by=None)
    draws.draw_bracket(second, seed=1, by=None)
    return first, second


def test_a_result_seats_its_own_mesas_first_and_then_those_of_others_waiting_at_the_sede(
    django_capture_on_commit_callbacks,
):
    """Two championships seating themselves at one sede, two jueces in the pool: a result of the first frees a
    table and a juez; its own next mesas take them in the result's transaction, and once it commits the
    second's waiting mesa takes what is left, recorded as seated automatically."""
    first, second = two_at_one_sede(second_seats_itself=True)
    waiting = list(second.mesas.filter(bracket="W", round=1).order_by("position"))
    assert [(m.table_number, m.juez_id) for m in waiting] == [(None, None)] * 2  # both jueces at the first's
    with django_capture_on_commit_callbacks(execute=True):
        results.record_walkover(mesa(first, position=1), "A", by=None)
    # Nothing of the first's is playable yet: the freed juez goes to the second's first mesa.
    seated = second.mesas.exclude(seated_at=None)
    assert [m.pk for m in seated] == [waiting[0].pk]
    assert AuditEntry.objects.filter(mesa_id=waiting[0].pk, reason="Seated automatically").exists()
    assert seating.free_jueces() == []
    with django_capture_on_commit_callbacks(execute=True):
        results.record_walkover(mesa(first, position=2), "A", by=None)
    # Its own next mesa in play order (the losers' first round) takes the juez it freed, first; the second's
    # other mesa still waits for one.
    assert [(m.bracket, m.round) for m in first.mesas.filter(status=Mesa.Status.WAITING).exclude(seated_at=None)] == [
        ("L", 1)
    ]
    assert not second.mesas.filter(pk=waiting[1].pk).exclude(seated_at=None).exists()
    table_numbers, juez_ids = holders()
    assert len(table_numbers) == len(set(table_numbers)) and len(juez_ids) == len(set(juez_ids))


@pytest.mark.slow
def test_a_championship_that_seats_by_hand_is_left_to_its_desk(django_capture_on_commit_callbacks):
    first, second = two_at_one_sede(second_seats_itself=False)
    with django_capture_on_commit_callbacks(execute=True):
        results.record_walkover(mesa(first, position=1), "A", by=None)
    assert not second.mesas.exclude(table_number=None).exists()
    assert len(seating.free_jueces()) == 1


# --- concurrent results ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_results_at_once_in_two_championships_never_give_a_table_or_a_juez_twice(monkeypatch):
    """Two walkovers at once, each seating what waits in its championship: they share the
    venue's tables and the jueces' pool (a juez free before either), so only the row locks
    keep them from taking the same. Each reads what is free slowly, so both would read it
    before either commits."""
    import time

    from tests.support.threads import run_at_once

    jueces(2)
    first = championship(name="Copa A", tables=8, auto_seating=True, bracket_format="single")
    # At the same sede on the same days: they share its tables.
    second = championship(name="Copa B", sede=first.sede, auto_seating=True, bracket_format="single")
    pairs(first, 8)
    pairs(second, 8)
    draws.draw_bracket(first, seed=1, by=None)
    draws.draw_bracket(second, seed=1, by=None)
    assert first.mesas.exclude(juez=None).count() == 2 and not second.mesas.exclude(juez=None).exists()
    idle = User.objects.create_user("juez3")  # free, and nothing has seated since
    idle.groups.add(group(accounts.JUECES_GROUP))
    accounts.mark_available(idle, True, by=None)
    reads = seating.free_jueces

    def slow_read():
        free = reads()
        time.sleep(0.5)
        return free

    monkeypatch.setattr(seating, "free_jueces", slow_read)

    run_at_once(
        [
            lambda: results.record_walkover(mesa(first), "A", by=None),
            lambda: results.record_walkover(mesa(second), "A", by=None),
        ]
    )

    tables, people = holders()
    assert len(people) == 3 and len(set(people)) == 3, people
    assert len(set(tables)) == len(tables) == 3, tables


# --- how a mesa starts --------------------------------------------------------------


def test_the_desk_starts_a_round_as_its_user_even_outside_a_request():
    champ = auto(count=4)
    desk = organiser()
    assert seating.start_round(champ, "W", 1, by=desk) == 2
    entry = AuditEntry.objects.get(championship_id=champ.pk, act="round_started")
    assert entry.actor == desk


def test_the_juez_taps_start_mesa_once_both_pairs_are_seated():
    champ = auto(start_mode=Championship.Start.TAP)
    seated = mesa(champ)
    seating.start_mesa(seated, by=seated.juez)
    seated.refresh_from_db()
    assert seated.status == Mesa.Status.READY
    entry = AuditEntry.objects.filter(mesa_id=seated.pk, changes__has_key="status").get()
    assert entry.actor == seated.juez
    with pytest.raises(ActionRefused, match="no longer waiting to start"):
        seating.start_mesa(seated, by=seated.juez)
    start(seated)  # the first claim puts it in play
    assert seated.status == Mesa.Status.IN_PLAY


def test_no_tap_starts_a_mesa_without_its_table_and_juez():
    champ = auto(start_mode=Championship.Start.TAP, judges=1)
    unseated = mesa(champ, position=2)
    with pytest.raises(ActionRefused, match="no table or no juez yet"):
        seating.start_mesa(unseated, by=None)
    assert mesa(champ, position=2).status == Mesa.Status.WAITING


def test_no_tap_starts_a_mesa_where_the_desk_starts_them():
    champ = auto()  # start_mode: the desk, by default
    with pytest.raises(ActionRefused, match="the control desk starts its round"):
        seating.start_mesa(mesa(champ), by=None)
    assert mesa(champ).status == Mesa.Status.WAITING


def test_the_first_claim_starts_a_seated_mesa_where_the_championship_says_so():
    champ = auto(start_mode=Championship.Start.FIRST_CLAIM)
    seated = mesa(champ)
    answer = claimlog.record_claim(seated, {"kind": "mano"}, uuid.uuid4(), user=seated.juez)
    assert answer.decision["accepted"]
    seated.refresh_from_db()
    assert seated.status == Mesa.Status.IN_PLAY and seated.started_at is not None and seated.header is not None


@pytest.mark.parametrize(
    ("mode", "says"),
    [
        (Championship.Start.DESK, "the control desk starts its round (Summary, “Start N mesas”). Ask the desk"),
        (Championship.Start.TAP, "once both pairs are seated, tap “Start mesa” on this screen"),
    ],
)
@pytest.mark.slow
def test_a_claim_on_a_mesa_not_started_tells_the_juez_what_to_do(mode, says):
    champ = auto(start_mode=mode)
    seated = mesa(champ)
    with pytest.raises(claimlog.MesaClosed) as refusal:
        claimlog.record_claim(seated, {"kind": "mano"}, uuid.uuid4(), user=seated.juez)
    assert says in refusal.value.message
    assert "status:" not in refusal.value.message
    assert mesa(champ).last_seq == 0


@pytest.mark.slow
def test_the_refusal_reaches_the_tablet_in_spanish():
    champ = auto(start_mode=Championship.Start.TAP)
    seated = mesa(champ)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(seated.juez)
    response = client.post(
        reverse("api:claims", args=[seated.pk]),
        {"client_id": str(uuid.uuid4()), "claim": {"kind": "mano"}},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert "toque «Iniciar mesa»" in response.json()["detail"]


def test_a_first_claim_on_a_mesa_without_its_juez_is_refused_saying_so():
    champ = auto(start_mode=Championship.Start.FIRST_CLAIM, judges=1)
    unseated = mesa(champ, position=2)
    with pytest.raises(claimlog.MesaClosed, match="no table or no juez yet"):
        claimlog.record_claim(unseated, {"kind": "mano"}, uuid.uuid4())


def test_the_screen_offers_start_mesa_and_the_tap_starts_it():
    champ = auto(start_mode=Championship.Start.TAP)
    seated = mesa(champ)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(seated.juez)
    page = client.get(reverse("refereeing:mesa_screen", args=[seated.pk])).content.decode()
    assert "Start mesa" in page and 'id="start-notice"' in page
    response = client.post(reverse("refereeing:mesa_start", args=[seated.pk]), follow=True)
    assert "The mesa has started: log its claims." in response.content.decode()
    assert 'id="start-notice"' not in response.content.decode()
    assert mesa(champ).status == Mesa.Status.READY


def test_only_the_mesas_juez_taps_start():
    champ = auto(start_mode=Championship.Start.TAP)
    seated, other = mesa(champ), mesa(champ, position=2)
    client = Client()
    client.force_login(other.juez)
    assert client.post(reverse("refereeing:mesa_start", args=[seated.pk])).status_code == 403
    assert "Start mesa" not in client.get(reverse("refereeing:mesa_screen", args=[seated.pk])).content.decode()
    assert mesa(champ).status == Mesa.Status.WAITING


# --- the control board's flags --------------------------------------------------------


def finish(mesa_, minutes, now):
    force(
        Mesa.objects.filter(pk=mesa_.pk),
        status=Mesa.Status.FINISHED,
        winner=mesa_.pair_a,
        chicas_a=2,
        started_at=now - datetime.timedelta(minutes=minutes + 5),
        finished_at=now - datetime.timedelta(minutes=5),
    )


def playing_since(mesa_, minutes, now):
    force(
        Mesa.objects.filter(pk=mesa_.pk),
        status=Mesa.Status.IN_PLAY,
        started_at=now - datetime.timedelta(minutes=minutes),
    )


@pytest.mark.slow
def test_the_board_flags_overdue_mesas_against_the_championships_own_pace():
    champ = championship(tables=10)
    pairs(champ, 16)
    jueces(8)
    draws.draw_bracket(champ, seed=3, by=None)
    seating.assign_tables(champ, by=None)
    now = timezone.now()
    first_round = list(champ.mesas.filter(bracket="W", round=1).order_by("position"))
    for played, minutes in zip(first_round, (20, 30, 40)):
        finish(played, minutes, now)
    slow, usual = first_round[3], first_round[4]
    playing_since(slow, 50, now)  # over 1.5 × 30 minutes
    playing_since(usual, 40, now)
    mesas = list(champ.mesas.all())
    flags = seating.flags(champ, mesas, now)
    assert flags.pace == datetime.timedelta(minutes=30) and flags.pace_minutes == 30
    assert flags.overdue == {slow.pk}
    # The three finished mesas left their tables; 9 and 10 never had a mesa.
    assert flags.idle_tables == [1, 2, 3, 9, 10]
    assert flags.unseated == set()

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser())
    page = client.get(reverse("tournament:board", args=[champ.pk]) + "?rows=1").content.decode()
    assert page.count("overdue-badge") == 1
    assert "Pace: a mesa takes 30 min" in page and "Idle tables:" in page


def test_the_pace_needs_three_finished_mesas():
    champ = championship()
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=3, by=None)
    now = timezone.now()
    for played in champ.mesas.filter(bracket="W", round=1)[:2]:
        finish(played, 30, now)
    playing_since(champ.mesas.filter(bracket="W", round=1)[2], 500, now)
    flags = seating.flags(champ, list(champ.mesas.all()), now)
    assert flags.pace is None and flags.overdue == set()


def test_mesas_logged_after_the_fact_set_no_pace():
    """Mesas whose claims all came within a minute were not played at the table (the demo's, a sheet copied in):
    with them in the pace, every mesa in play was marked overdue."""
    champ = championship()
    pairs(champ, 8)
    draws.draw_bracket(champ, seed=3, by=None)
    now = timezone.now()
    first_round = list(champ.mesas.filter(bracket="W", round=1).order_by("position"))
    for played in first_round[:3]:
        force(
            Mesa.objects.filter(pk=played.pk),
            status=Mesa.Status.FINISHED,
            winner=played.pair_a,
            chicas_a=2,
            started_at=now,
            finished_at=now,
        )
    playing_since(first_round[3], 10, now)
    flags = seating.flags(champ, list(champ.mesas.all()), now)
    assert flags.pace is None and flags.overdue == set()
    finish(first_round[0], 30, now)  # one played at the table is not yet a pace either
    assert seating.flags(champ, list(champ.mesas.all()), now).pace is None
    # The board says why: not that too few mesas finished (three did), but that too few were played through.
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    client.force_login(organiser())
    page = client.get(reverse("tournament:board", args=[champ.pk]) + "?rows=1").content.decode()
    assert "hace falta que algunas mesas se jueguen de principio a fin" in page


def test_mesas_seated_before_the_call_time_existed_show_no_call_and_keep_the_pace():
    """Mesas seated before migration 0017 have no ``seated_at``: the board says no call time for them (none
    is known) and neither flags them as waiting for a place nor lets them change the pace or the overdue mark."""
    champ = championship(tables=10)
    pairs(champ, 16)
    jueces(8)
    draws.draw_bracket(champ, seed=3, by=None)
    seating.assign_tables(champ, by=None)
    champ.mesas.update(seated_at=None)  # as every mesa of a championship played before the migration
    now = timezone.now()
    first_round = list(champ.mesas.filter(bracket="W", round=1).order_by("position"))
    for played, minutes in zip(first_round, (20, 30, 40)):
        finish(played, minutes, now)
    slow, usual, waiting = first_round[3], first_round[4], first_round[5]
    playing_since(slow, 50, now)
    playing_since(usual, 40, now)
    mesas = list(champ.mesas.all())
    flags = seating.flags(champ, mesas, now)
    assert flags.pace == datetime.timedelta(minutes=30) and flags.overdue == {slow.pk}
    assert waiting.pk not in flags.unseated and flags.unseated == set()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser())
    response = client.get(reverse("tournament:board", args=[champ.pk]) + "?rows=1")
    assert response.status_code == 200
    page = response.content.decode()
    assert "called" not in page and "unseated-badge" not in page
    assert page.count("overdue-badge") == 1 and "Pace: a mesa takes 30 min" in page
    # Called anew (another table by hand), such a mesa gets its call time from then on.
    seating.assign_table(waiting, seating.free_tables(champ)[0], waiting.juez, by=None)
    waiting.refresh_from_db()
    assert waiting.seated_at is not None
    page = client.get(reverse("tournament:board", args=[champ.pk]) + "?rows=1").content.decode()
    assert page.count("called ") == 1


def test_the_board_flags_mesas_waiting_for_a_table_or_a_juez():
    champ = championship(tables=3)
    pairs(champ, 8)
    jueces(2)
    draws.draw_bracket(champ, seed=3, by=None)
    seating.assign_tables(champ, by=None)  # 3 tables, 2 jueces, 4 playable mesas
    mesas = list(champ.mesas.all())
    flags = seating.flags(champ, mesas)
    without = {m.pk for m in mesas if m.pair_a_id and m.pair_b_id and (m.table_number is None or m.juez_id is None)}
    assert len(without) == 2 and flags.unseated == without
    assert flags.idle_tables == []
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser())
    page = client.get(reverse("tournament:board", args=[champ.pk])).content.decode()
    assert "2 mesas wait for a table or a juez." in page
    assert page.count("unseated-badge") == 2


def test_turning_automatic_seating_on_seats_what_waits_at_once():
    champ = championship(tables=4)
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    desk = organiser()
    client.force_login(desk)
    form = {
        "name": champ.name,
        "start_date": "2026-11-21",
        "end_date": "2026-11-22",
        "ruleset_profile": "riobamba",
        "players_per_pair": 2,
        "bracket_format": "double",
        "group_size": 4,
        "advance_per_group": 0,
        "sede": champ.sede_id,
        "appeal_window_minutes": 10,
        "auto_seating": "on",
        "start_mode": Championship.Start.FIRST_CLAIM,
    }
    assert client.post(reverse("tournament:edit", args=[champ.pk]), form).status_code == 302
    champ.refresh_from_db()
    assert champ.auto_seating and champ.start_mode == Championship.Start.FIRST_CLAIM
    assert champ.mesas.filter(seated_at__isnull=False).count() == 2
    assert AuditEntry.objects.filter(championship_id=champ.pk, reason="Seated automatically", actor=desk).count() == 2
