"""The desk's pages for issue #23 points 4 and 5: the draw's correction previewed then confirmed once,
the pairs the bracket lacks named on the desk and on their own page, check-in in place with an undo."""

import json
from html import escape

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.support.factories import championship, jueces, pairs, start
from tournament.draws import draws
from tournament.models import Pair
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def drawn_with_a_late_pair(count=5):
    champ = championship()
    pairs(champ, count)
    draws.draw_bracket(champ, seed=7, by=None)
    late = Pair.objects.create(championship=champ, name="Los Tardíos", arrival="present")
    return champ, late


def test_the_desk_names_a_pair_checked_in_after_the_draw_and_offers_to_add_it(org_client):
    champ, late = drawn_with_a_late_pair()
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    row = page[page.index(f'id="pair-{late.pk}"') :].split("</tr>")[0]
    assert "Not in the bracket" in row and f"?action=add&amp;pair={late.pk}" in row
    assert page.count("Not in the bracket") == 1
    detail = org_client.get(reverse("tournament:detail", args=[champ.pk])).content.decode()
    assert reverse("tournament:draw_correct", args=[champ.pk]) in detail


@pytest.mark.slow
def test_a_correction_is_previewed_then_confirmed_once(org_client):
    champ, late = drawn_with_a_late_pair()
    url = reverse("tournament:draw_correct", args=[champ.pk])
    page = org_client.get(url, {"action": "add", "pair": late.pk}).content.decode()
    assert "2 mesas change" in page and "Los Tardíos" in page
    assert not champ.mesas.filter(pair_b=late).exists() and not champ.mesas.filter(pair_a=late).exists()
    seen = draws.plan_correction(champ, draws.ADD, late).seen
    confirm = {"action": "add", "pair": late.pk, "other": "", "seen": seen, "confirm": "1"}
    response = org_client.post(url, confirm, follow=True)
    assert "Draw corrected." in response.content.decode()
    assert late.pk in draws.drawn_pair_ids(champ)
    # The same confirmation again (a double tap): refused, nothing written twice.
    again = org_client.post(url, confirm).content.decode()
    assert "already in the bracket" in again
    assert AuditEntry.objects.filter(championship_id=champ.pk, act="draw_corrected").count() == 1


def test_a_swap_confirmed_twice_does_not_swap_back(org_client):
    champ = championship()
    made = pairs(champ, 4)
    draws.draw_bracket(champ, seed=7, by=None)
    url = reverse("tournament:draw_correct", args=[champ.pk])
    seen = draws.plan_correction(champ, draws.SWAP, made[0], made[3]).seen
    confirm = {"action": "swap", "pair": made[0].pk, "other": made[3].pk, "seen": seen, "confirm": "1"}
    org_client.post(url, confirm)
    order = list(Pair.objects.get(pk=made[0].pk).championship.draw_order)
    page = org_client.post(url, confirm).content.decode()
    assert "The draw has changed since this preview" in page
    champ.refresh_from_db()
    assert champ.draw_order == order


@pytest.mark.parametrize(
    "query",
    [
        {"action": "swap", "pair": "1"},
        {"action": "explode", "pair": "1"},
        {"action": "add", "pair": "999999"},
        {"action": "add", "pair": "x" * 5000},
        {"action": "add", "pair": "1", "seen": "s" * 500},
    ],
)
def test_bad_correction_input_is_a_form_error_never_a_500(org_client, query):
    champ, late = drawn_with_a_late_pair(count=2)
    response = org_client.post(reverse("tournament:draw_correct", args=[champ.pk]), {**query, "confirm": "1"})
    page = response.content.decode()
    assert response.status_code == 200 and ("is-invalid" in page or "correction-refused" in page)
    assert late.pk not in draws.drawn_pair_ids(champ)


@pytest.mark.slow
def test_after_play_started_the_desk_and_the_pair_page_say_it_did_not_enter(org_client, english_client):
    champ, late = drawn_with_a_late_pair(count=4)
    pair_page = reverse("public:pair", args=[late.token])
    assert "the control desk can still add it" in english_client.get(pair_page + "?part=1").content.decode()
    jueces(2)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    start(champ.mesas.filter(bracket="W", round=1).first())
    assert "This pair did not enter the draw." in english_client.get(pair_page).content.decode()
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    assert "Did not enter the draw" in page and "Add to the draw" not in page
    correction = org_client.get(reverse("tournament:draw_correct", args=[champ.pk])).content.decode()
    assert "the draw can no longer be corrected" in correction


@pytest.mark.slow
def test_check_in_in_place_answers_the_row_with_an_undo_and_the_attendance(org_client):
    champ = championship()
    made = pairs(champ, 3, present=False)
    url = reverse("tournament:pair_check_in", args=[champ.pk, made[1].pk])
    response = org_client.post(url, {"arrival": "present"}, HTTP_X_REQUESTED_WITH="fetch")
    answer = json.loads(response.content)
    assert answer["parts"]["attendance"].endswith("Present: 1 · expected: 2 · withdrawn: 0.</span>")
    assert f'id="pair-{made[1].pk}"' in answer["row"] and "Present" in answer["row"]
    assert 'value="expected" class="btn btn-warning btn-sm undo">Undo' in answer["row"]
    # A second tap states the same intent: no change, so no undo offered, and one audited act.
    again = json.loads(org_client.post(url, {"arrival": "present"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert "undo" not in again["row"] and "Not here yet" in again["row"] and "Check in" not in again["row"]
    undone = json.loads(org_client.post(url, {"arrival": "expected"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert (
        "Present: 0 · expected: 3 · withdrawn: 0." in undone["parts"]["attendance"]
        and 'value="present" class="btn btn-warning btn-sm undo"' in (undone["row"])
    )


def test_the_desk_tells_expected_present_and_withdrawn_apart(org_client):
    """A registered pair is expected (not absent): it is offered check-in and withdrawal at once, and each
    state has its own badge and its own way back."""
    champ = championship()
    expected, present, withdrawn = pairs(champ, 3, present=False)
    for pair, arrival in ((present, "present"), (withdrawn, "withdrawn")):
        org_client.post(reverse("tournament:pair_check_in", args=[champ.pk, pair.pk]), {"arrival": arrival})
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    rows = {
        pair: page[page.index(f'id="pair-{pair.pk}"') :].split("</tr>")[0] for pair in (expected, present, withdrawn)
    }
    assert 'data-arrival="expected"' in rows[expected] and ">Expected</span>" in rows[expected]
    assert 'value="present"' in rows[expected] and 'value="withdrawn"' in rows[expected]
    assert ">Present</span>" in rows[present] and 'value="present"' not in rows[present]
    assert 'value="expected"' in rows[present] and 'value="withdrawn"' in rows[present]
    assert ">Withdrawn</span>" in rows[withdrawn] and 'value="withdrawn"' not in rows[withdrawn]
    assert 'value="present"' in rows[withdrawn]
    assert "Present: 1 · expected: 1 · withdrawn: 1." in page
    # Everyone present at once: the withdrawn pair stays withdrawn.
    org_client.post(reverse("tournament:pairs_all_present", args=[champ.pk]))
    assert draws.attendance(champ) == {"expected": 0, "present": 2, "withdrawn": 1}


@pytest.mark.parametrize("body", [{}, {"arrival": "absent"}, {"present": "1"}, {"arrival": "x" * 5000}])
def test_an_unknown_arrival_is_refused_and_changes_nothing(org_client, body):
    champ = championship()
    pair = pairs(champ, 2, present=False)[0]
    response = org_client.post(reverse("tournament:pair_check_in", args=[champ.pk, pair.pk]), body)
    pair.refresh_from_db()
    assert response.status_code == 400 and pair.arrival == "expected"


def test_check_in_without_script_goes_back_to_the_row(org_client):
    champ = championship()
    made = pairs(champ, 2, present=False)
    url = reverse("tournament:pair_check_in", args=[champ.pk, made[0].pk])
    response = org_client.post(url, {"arrival": "present"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:pairs", args=[champ.pk]) + f"#pair-{made[0].pk}"
    made[0].refresh_from_db()
    assert made[0].arrival == "present"
    # From the draw's page, the plain form goes back there.
    response = org_client.post(url, {"arrival": "withdrawn", "next": "draw"})
    assert response["Location"] == reverse("tournament:draw", args=[champ.pk]) + f"#pair-{made[0].pk}"


def test_a_pair_checks_itself_in_from_its_page_only_while_the_organiser_keeps_it_open(english_client):
    champ = championship()
    pair = pairs(champ, 2, present=False)[0]
    page_url = reverse("public:pair", args=[pair.token])
    here = reverse("public:pair_here", args=[pair.token])
    page = english_client.get(page_url).content.decode()
    assert 'id="check-in-itself"' not in page and "The control desk expects you" in page
    english_client.post(here)
    pair.refresh_from_db()
    assert pair.arrival == "expected"
    champ.self_check_in = True
    champ.save()
    assert "We are here" in english_client.get(page_url).content.decode()
    response = english_client.post(here)
    assert response.status_code == 302 and response["Location"] == page_url
    assert english_client.post(here).status_code == 302  # a second tap: already present, nothing written
    pair.refresh_from_db()
    assert pair.arrival == "present"
    entries = [
        e
        for e in AuditEntry.objects.filter(content_type__model="pair", object_pk=str(pair.pk))
        if e.action == AuditEntry.Action.UPDATE and "arrival" in (e.changes or {})
    ]
    assert len(entries) == 1 and entries[0].actor is None
    assert entries[0].reason == "The pair checked itself in from its own page."
    page = english_client.get(page_url).content.decode()
    assert 'id="check-in-itself"' not in page and 'id="checked-in"' in page
    assert "You are checked in: you wait for the draw." in page
    assert english_client.get(here).status_code == 405
    assert english_client.post(reverse("public:pair_here", args=["x" * 30])).status_code == 404


def test_a_pair_outside_the_bracket_cannot_check_itself_in(english_client):
    """Once drawn, only a pair the bracket holds checks itself in: one the draw left out (before play, when
    the desk could still add it, and after) is not offered it, and its post changes nothing."""
    champ = championship(self_check_in=True)
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=7, by=None)
    outside = Pair.objects.create(championship=champ, name="Los de Afuera")
    here = reverse("public:pair_here", args=[outside.token])
    page = english_client.get(reverse("public:pair", args=[outside.token])).content.decode()
    assert 'id="check-in-itself"' not in page and "We are here" not in page
    assert "Known once the current mesa is decided" not in page
    english_client.post(here)
    jueces(2)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    start(champ.mesas.filter(bracket="W", round=1).first())
    english_client.post(here)
    outside.refresh_from_db()
    assert (
        outside.arrival == "expected"
        and not AuditEntry.objects.filter(object_pk=str(outside.pk)).exclude(action=AuditEntry.Action.CREATE).exists()
    )
    page = english_client.get(reverse("public:pair", args=[outside.token])).content.decode()
    assert "This pair did not enter the draw." in page and "Se sabrá" not in page and 'id="checked-in"' not in page


def test_a_pair_in_the_bracket_checks_itself_in_and_its_page_says_what_it_waits_for(english_client):
    champ = championship(self_check_in=True)
    pairs(champ, 3)
    draws.draw_bracket(champ, seed=7, by=None)
    Pair.objects.filter(championship=champ).update(arrival="expected")
    first = champ.mesas.get(bracket="W", round=1, pair_a__isnull=False, pair_b__isnull=False)
    bye = champ.mesas.get(bracket="W", round=2, position=1)
    waits_for_a_table, waits_for_an_opponent = first.pair_a, bye.pair_a or bye.pair_b
    for pair in (waits_for_a_table, waits_for_an_opponent):
        page_url = reverse("public:pair", args=[pair.token])
        assert "We are here" in english_client.get(page_url).content.decode()
        english_client.post(reverse("public:pair_here", args=[pair.token]))
        pair.refresh_from_db()
        assert pair.arrival == "present"
    page = english_client.get(reverse("public:pair", args=[waits_for_a_table.token]) + "?part=1").content.decode()
    assert "You wait for a free table and a juez" in page
    page = english_client.get(reverse("public:pair", args=[waits_for_an_opponent.token]) + "?part=1").content.decode()
    assert f"You wait for your opponent: the result of {escape(str(first))}." in page


def test_a_drawn_pair_marked_withdrawn_before_play_is_offered_out_of_the_draw(org_client):
    champ = championship()
    made = pairs(champ, 4)
    draws.draw_bracket(champ, seed=7, by=None)
    org_client.post(reverse("tournament:pair_check_in", args=[champ.pk, made[0].pk]), {"arrival": "withdrawn"})
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    row = page[page.index(f'id="pair-{made[0].pk}"') :].split("</tr>")[0]
    assert "Still in the bracket" in row and f"?action=withdraw&amp;pair={made[0].pk}" in row
    assert page.count("Still in the bracket") == 1
