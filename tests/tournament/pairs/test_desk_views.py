"""The desk's pages for issue #23 points 4 and 5: the draw's correction previewed then confirmed once,
the pairs the bracket lacks named on the desk and on their own page, check-in in place with an undo."""

import json

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
    late = Pair.objects.create(championship=champ, name="Los Tardíos", checked_in=True)
    return champ, late


def test_the_desk_names_a_pair_checked_in_after_the_draw_and_offers_to_add_it(org_client):
    champ, late = drawn_with_a_late_pair()
    page = org_client.get(reverse("tournament:pairs", args=[champ.pk])).content.decode()
    row = page[page.index(f'id="pair-{late.pk}"') :].split("</tr>")[0]
    assert "Not in the bracket" in row and f"?action=add&amp;pair={late.pk}" in row
    assert page.count("Not in the bracket") == 1
    detail = org_client.get(reverse("tournament:detail", args=[champ.pk])).content.decode()
    assert reverse("tournament:draw_correct", args=[champ.pk]) in detail


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


def test_check_in_in_place_answers_the_row_with_an_undo_and_the_attendance(org_client):
    champ = championship()
    made = pairs(champ, 3, present=False)
    url = reverse("tournament:pair_check_in", args=[champ.pk, made[1].pk])
    response = org_client.post(url, {"present": "1"}, HTTP_X_REQUESTED_WITH="fetch")
    answer = json.loads(response.content)
    assert answer["attendance"].endswith("Present: 1 · absent: 2.</span>")
    assert f'id="pair-{made[1].pk}"' in answer["row"] and "Present" in answer["row"]
    assert 'value="0" class="btn btn-warning btn-sm undo">Undo' in answer["row"]
    # A second tap states the same intent: no change, so no undo offered, and one audited act.
    again = json.loads(org_client.post(url, {"present": "1"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert "undo" not in again["row"] and "Mark absent" in again["row"]
    undone = json.loads(org_client.post(url, {"present": "0"}, HTTP_X_REQUESTED_WITH="fetch").content)
    assert (
        "Present: 0 · absent: 3." in undone["attendance"]
        and 'value="1" class="btn btn-warning btn-sm undo"' in (undone["row"])
    )


def test_check_in_without_script_goes_back_to_the_row(org_client):
    champ = championship()
    made = pairs(champ, 2, present=False)
    response = org_client.post(reverse("tournament:pair_check_in", args=[champ.pk, made[0].pk]), {"present": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournament:pairs", args=[champ.pk]) + f"#pair-{made[0].pk}"
    made[0].refresh_from_db()
    assert made[0].checked_in


def test_a_pair_checks_itself_in_from_its_page_only_while_the_organiser_keeps_it_open(english_client):
    champ = championship()
    pair = pairs(champ, 2, present=False)[0]
    page_url = reverse("public:pair", args=[pair.token])
    here = reverse("public:pair_here", args=[pair.token])
    assert 'id="check-in-itself"' not in english_client.get(page_url).content.decode()
    english_client.post(here)
    pair.refresh_from_db()
    assert not pair.checked_in
    champ.self_check_in = True
    champ.save()
    assert "We are here" in english_client.get(page_url).content.decode()
    response = english_client.post(here)
    assert response.status_code == 302 and response["Location"] == page_url
    assert english_client.post(here).status_code == 302  # a second tap: already present, nothing written
    pair.refresh_from_db()
    assert pair.checked_in
    entries = [
        e
        for e in AuditEntry.objects.filter(content_type__model="pair", object_pk=str(pair.pk))
        if e.action == AuditEntry.Action.UPDATE and "checked_in" in (e.changes or {})
    ]
    assert len(entries) == 1 and entries[0].actor is None
    assert entries[0].reason == "The pair checked itself in from its own page."
    page = english_client.get(page_url).content.decode()
    assert 'id="check-in-itself"' not in page and 'id="checked-in"' in page
    assert english_client.get(here).status_code == 405
    assert english_client.post(reverse("public:pair_here", args=["x" * 30])).status_code == 404
