"""The draw's acts and its corrections before play (issue #23 point 4, #25): a late pair added, a pair
withdrawn, two swapped, each previewed, audited, and refused once a mesa has started."""

import pytest
from django.utils import translation

from audit.models import AuditEntry
from tests.support.factories import championship, jueces, organiser, pairs, start
from tournament import errors
from tournament.draws import draws
from tournament.models import Mesa, Pair
from tournament.pairs import checkin
from tournament.results import results
from tournament.seating import seating

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def first_round(champ):
    """{frozenset of the two pairs' ids} of every winners' first-round mesa."""
    return {frozenset((m.pair_a_id, m.pair_b_id)) for m in champ.mesas.filter(bracket="W", round=1)}


def drawn(champ, count=5, seed=7):
    champ_pairs = pairs(champ, count)
    draws.draw_bracket(champ, seed=seed, by=organiser())
    champ.refresh_from_db()
    return champ_pairs


def test_the_draw_keeps_its_order_and_is_audited_as_one_act_by_its_organiser():
    champ = championship()
    drawn(champ)
    assert sorted(champ.draw_order) == sorted(champ.pairs.values_list("pk", flat=True))
    # One entry, the championship's save of its seed (the order is ids, left out of the trail).
    entry = AuditEntry.objects.get(championship_id=champ.pk, changes__has_key="draw_seed")
    assert entry.actor.username == "org" and entry.changes == {"draw_seed": ["None", "7"]}


def test_mark_all_present_is_one_audited_act_and_a_second_one_writes_nothing():
    champ = championship()
    pairs(champ, 3, present=False)
    org = organiser()
    assert checkin.mark_all_present(champ, by=org) == ["Pareja 0001", "Pareja 0002", "Pareja 0003"]
    assert checkin.mark_all_present(champ, by=org) == []
    entry = AuditEntry.objects.get(championship_id=champ.pk, act="all_checked_in")
    assert entry.actor == org and entry.changes == {"present": ["", "Pareja 0001, Pareja 0002, Pareja 0003"]}
    assert not champ.pairs.exclude(arrival="present").exists()


@pytest.mark.slow
def test_the_knockout_draw_is_audited_by_the_act_itself():
    champ = championship(bracket_format="round_robin", group_size=4, advance_per_group=2)
    pairs(champ, 8)
    org = organiser()
    draws.draw_bracket(champ, seed=8, by=org)
    for mesa in champ.mesas.all():
        results.record_walkover(mesa, "A", by=org)
    draws.draw_knockout(champ, by=org)
    assert AuditEntry.objects.get(championship_id=champ.pk, act="knockout_drawn").actor == org


def test_a_late_pair_takes_the_bye_of_the_pair_it_now_meets_and_the_rest_stay_put():
    champ = championship()
    drawn(champ)  # 5 pairs in 8 places: the three first of the order have byes
    order = list(champ.draw_order)
    before = first_round(champ)
    late = Pair.objects.create(championship=champ, name="Los Tardíos")
    preview = draws.plan_correction(champ, draws.ADD, late)
    assert not champ.mesas.filter(pair_a=late).exists() and not champ.mesas.filter(pair_b=late).exists()
    draws.correct_draw(champ, draws.ADD, late, by=organiser("org2"))
    champ.refresh_from_db()
    # Seed 6 meets seed 3 (8 places: s meets 9 - s): the third pair's bye is replaced.
    assert champ.draw_order == [*order, late.pk]
    assert first_round(champ) == before | {frozenset((order[2], late.pk))}
    assert not champ.mesas.filter(bracket="W", round=2, pair_a=order[2]).exists()
    late.refresh_from_db()
    assert late.arrival == "present"
    third = Pair.objects.get(pk=order[2]).name
    assert [(c.mesa, c.before, c.after) for c in preview.changes] == [
        ("Winners' bracket R1-4", None, (third, "Los Tardíos")),
        (
            "Winners' bracket R2-2",
            (Pair.objects.get(pk=order[1]).name, third),
            (Pair.objects.get(pk=order[1]).name, ""),
        ),
    ]
    entry = AuditEntry.objects.get(championship_id=champ.pk, act="draw_corrected")
    assert entry.actor.username == "org2" and entry.changes["Add a late pair"] == ["", "Los Tardíos"]
    assert champ.mesas.count() == 2 * 6 - 1  # double elimination of 6 pairs, the reset included


def test_the_preview_names_each_mesa_that_changes_and_saves_nothing():
    champ = championship()
    made = drawn(champ, count=4)
    late = Pair.objects.create(championship=champ, name="Los Tardíos", arrival="present")
    mesas = list(champ.mesas.values_list("pk", "pair_a_id", "pair_b_id"))
    preview = draws.plan_correction(champ, draws.SWAP, made[0], made[3])
    assert list(champ.mesas.values_list("pk", "pair_a_id", "pair_b_id")) == mesas
    assert [c.mesa for c in preview.changes] == ["Winners' bracket R1-1", "Winners' bracket R1-2"]
    assert all(c.before != c.after for c in preview.changes)
    assert late.pk not in preview.order


def test_a_swap_exchanges_two_places_and_nothing_else():
    champ = championship()
    made = drawn(champ, count=8)
    one, other = made[0], made[5]
    places = {
        m.pk: (m.pair_a_id, m.pair_b_id) for m in champ.mesas.filter(bracket="W", round=1)
    }  # every mesa keeps its row
    draws.correct_draw(champ, draws.SWAP, one, other, by=None)
    swap = {one.pk: other.pk, other.pk: one.pk}
    after = {m.pk: (m.pair_a_id, m.pair_b_id) for m in champ.mesas.filter(bracket="W", round=1)}
    assert after == {pk: tuple(swap.get(p, p) for p in pair_ids) for pk, pair_ids in places.items()}


def test_a_withdrawn_pair_leaves_the_bracket_marked_absent_and_the_last_of_the_order_takes_its_place():
    champ = championship()
    drawn(champ, count=6)
    order = list(champ.draw_order)
    gone = Pair.objects.get(pk=order[1])
    draws.correct_draw(champ, draws.WITHDRAW, gone, by=None)
    champ.refresh_from_db()
    gone.refresh_from_db()
    assert gone.arrival == "withdrawn" and gone.pk not in draws.drawn_pair_ids(champ)
    assert champ.draw_order == [order[0], order[5], order[2], order[3], order[4]]
    assert champ.mesas.count() == 2 * 5 - 1


@pytest.mark.slow
def test_a_correction_keeps_the_table_and_juez_of_the_mesas_it_keeps():
    champ = championship()
    made = drawn(champ, count=8)
    jueces(4)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    # The PIN is the physical table's (its sede's), so a mesa that keeps its table keeps its PIN.
    kept = {m.pk: (m.table_number, m.juez_id) for m in champ.mesas.filter(bracket="W", round=1)}
    draws.correct_draw(champ, draws.SWAP, made[0], made[1], by=None)
    assert {m.pk: (m.table_number, m.juez_id) for m in champ.mesas.filter(bracket="W", round=1)} == kept
    assert set(champ.mesas.filter(bracket="W", round=1).values_list("status", flat=True)) == {Mesa.Status.READY}


@pytest.mark.parametrize(
    ("action", "message"),
    [(draws.ADD, "already in the bracket"), (draws.SWAP, "two different pairs"), (draws.WITHDRAW, None)],
)
def test_refusals_save_nothing(action, message):
    champ = championship()
    made = drawn(champ, count=2)
    mesas = list(champ.mesas.values_list("pk", "pair_a_id", "pair_b_id"))
    other = made[0] if action == draws.SWAP else None
    with pytest.raises(errors.ActionRefused, match=message or "at least two pairs"):
        draws.correct_draw(champ, action, made[0], other, by=None)
    assert list(champ.mesas.values_list("pk", "pair_a_id", "pair_b_id")) == mesas


@pytest.mark.slow
def test_once_a_mesa_has_started_the_draw_is_not_corrected_and_a_late_pair_did_not_enter():
    champ = championship()
    drawn(champ, count=4)
    jueces(2)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    start(champ.mesas.filter(bracket="W", round=1).first())
    late = Pair.objects.create(championship=champ, name="Los Tardíos", arrival="present")
    assert draws.play_started(champ)
    with pytest.raises(errors.ActionRefused, match="has started"):
        draws.correct_draw(champ, draws.ADD, late, by=None)
    assert late.pk not in draws.drawn_pair_ids(champ)
    assert not AuditEntry.objects.filter(championship_id=champ.pk, act="draw_corrected").exists()


def test_a_correction_before_any_draw_is_refused():
    champ = championship()
    made = pairs(champ, 3)
    with pytest.raises(errors.ActionRefused, match="not drawn yet"):
        draws.plan_correction(champ, draws.ADD, made[0])


def test_a_pair_of_another_championship_is_never_added():
    champ = championship()
    drawn(champ, count=3)
    stranger = pairs(championship(name="Otro"), 1)[0]
    with pytest.raises(errors.ActionRefused, match="another championship"):
        draws.correct_draw(champ, draws.ADD, stranger, by=None)
    assert stranger.pk not in draws.drawn_pair_ids(champ)
