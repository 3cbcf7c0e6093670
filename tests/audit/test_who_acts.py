"""Issue #25: every act names who did it, on the trail's page too. A pair acts with no account of its
own: checking itself in through its private link, or filing an appeal through the juez's tablet
(the juez signed in, or a tablet opened with the table's PIN)."""

import html
import re
import uuid

import pytest
from auditlog.context import disable_auditlog
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from refereeing.access.permissions import DIRECTOR
from refereeing.appeals import procedure as appeals
from refereeing.claimlog.log import record_claim
from refereeing.models import Appeal
from tests.support.claims import SIGNED, api_client, form_body, post_json
from tests.support.factories import pairs
from tests.support.rows import force
from tournament.draws import draws
from tournament.models import Mesa
from tournament.results import results

pytestmark = pytest.mark.usefixtures("english")


def who_on_the_trail(people, championship):
    """The "Who" cells of the trail's page, newest first, as the organiser reads them."""
    reader = Client(HTTP_ACCEPT_LANGUAGE="en")
    reader.force_login(people["staff"])
    page = reader.get(reverse("audit:trail"), {"campeonato": championship.pk}).content.decode()
    return [html.unescape(cell) for cell in re.findall(r'<td data-label="Who">([^<]*)</td>', page)]


def test_a_pair_that_checks_itself_in_is_named_as_acting_through_its_private_link(championship, mesa, people):
    championship.self_check_in = True
    championship.save()
    pair = mesa.pair_a
    Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("public:pair_here", args=[pair.token]), REMOTE_ADDR="10.0.0.9")
    entry = AuditEntry.objects.get_for_object(pair).get(action=AuditEntry.Action.UPDATE, changes__has_key="arrival")
    assert entry.actor is None and entry.remote_addr == "10.0.0.9"
    assert entry.actor_name == f"Pair {pair.name} (private link)"
    assert f"Pair {pair.name} (private link)" in who_on_the_trail(people, championship)


def test_an_appeal_filed_on_the_signed_in_juez_tablet_names_the_juez(played, people):
    juez = Client(HTTP_ACCEPT_LANGUAGE="en")
    juez.force_login(people["juez"])
    assert juez.post(reverse("refereeing:file_appeal", args=[played.pk]), form_body()).status_code == 302
    entry = AuditEntry.objects.get_for_object(Appeal.objects.get()).get()
    assert entry.action == AuditEntry.Action.CREATE and entry.actor == people["juez"]
    assert "Rosa Guamán" in who_on_the_trail(people, played.championship)


def pin_tablet():
    """A device opened with table 3's PIN, as its page does."""
    device = api_client()
    device.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    device.get("/acceso/")
    opened = device.post(
        "/acceso/", {"pin": "482913", "table": 3, "csrfmiddlewaretoken": device.cookies["csrftoken"].value}
    )
    assert opened.status_code == 302
    return device


def test_an_appeal_filed_on_a_tablet_opened_with_the_pin_names_that_tablet(played, table, people):
    device = pin_tablet()
    response = device.post(
        reverse("refereeing:file_appeal", args=[played.pk]),
        form_body(csrfmiddlewaretoken=device.cookies["csrftoken"].value),
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.get_for_object(Appeal.objects.get()).get()
    assert entry.actor is None and entry.actor_name == f"Tablet of mesa {played} (PIN)"
    assert f"Tablet of mesa {played} (PIN)" in who_on_the_trail(people, played.championship)


def test_the_pairs_reading_the_ruling_on_the_tablet_is_an_act_naming_the_tablet(played, table, people):
    appeal = appeals.file_appeal(played, "B", 2, "No fue caída.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    appeals.admit(appeal, by=people["director"])
    appeals.rule(appeal, False, "Sin lugar.", by=people["director"])
    device = pin_tablet()
    url = reverse("refereeing:mesa_appeals", args=[played.pk])
    for _twice in range(2):  # a retry of a lost answer reads it once
        assert post_json(device, url, {"appeal": appeal.pk}).status_code == 200
    [entry] = AuditEntry.objects.filter(act="appeal_acknowledged")
    assert entry.actor is None and entry.actor_name == f"Tablet of mesa {played} (PIN)"
    assert entry.mesa_id == played.pk and entry.changes["acknowledged_at"][1]


@pytest.mark.slow
def test_a_tablet_opened_with_the_pin_that_starts_the_mesa_is_named_not_the_juez(championship, played, table, people):
    """Issue 33: the tap on "Start mesa" of a tablet opened with the PIN was recorded as the mesa's juez."""
    championship.start_mode = championship.Start.TAP
    championship.save(update_fields=["start_mode"])
    force(Mesa.objects.filter(pk=played.pk), status=Mesa.Status.WAITING)
    device = pin_tablet()
    response = device.post(
        reverse("refereeing:mesa_start", args=[played.pk]), {"csrfmiddlewaretoken": device.cookies["csrftoken"].value}
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.get_for_object(played).filter(changes__has_key="status").latest("pk")
    assert entry.changes["status"] == ["waiting", "ready"]
    assert entry.actor is None and entry.actor_name == f"Tablet of mesa {played} (PIN)"


@pytest.mark.slow
def test_the_pairs_a_result_moves_on_are_an_entry_each_naming_who_decided_it(championship, people):
    """Issue 33: ``advancement.settle`` moved pairs into later mesas with a bare update and no entry."""
    pairs(championship, 4)
    draws.draw_bracket(championship, seed=1, by=None)
    first = championship.mesas.get(bracket="W", round=1, position=1)
    results.record_walkover(first, "A", by=people["staff"], reason="No se presentó.")
    later = championship.mesas.get(pk=first.winner_to_id)
    entry = AuditEntry.objects.get_for_object(later).get(act="pairs_settled")
    slot = f"pair_{first.winner_to_slot.lower()}"
    assert entry.actor == people["staff"] and entry.reason == "No se presentó."
    assert entry.changes[slot] == ["", str(first.pair_a)]
    assert entry.mesa_id == later.pk and entry.championship_id == championship.pk


def test_an_admitted_appeal_s_mark_on_its_mesa_is_an_entry(played, people):
    """Issue 33: admitting an appeal marked it as having suspended its mesa with a bare update."""
    appeal = appeals.file_appeal(played, "B", 2, "No fue caída.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    appeals.admit(appeal, by=people["director"])
    entry = AuditEntry.objects.get_for_object(appeal).get(act="appeal_suspended_mesa")
    assert entry.actor == people["director"] and entry.changes["suspended_mesa"] == ["False", "True"]
    assert entry.mesa_id == played.pk


@pytest.mark.slow
def test_a_claim_that_ends_a_mesa_names_its_logger_on_the_pairs_it_sends_on(championship, people):
    """Inside the tablets' API the trail is off (the claim log is the record), but the mesas a result changes are
    not in that mesa's log: their entries are written, naming who logged the claim."""
    pairs(championship, 4)
    draws.draw_bracket(championship, seed=1, by=None)
    first = championship.mesas.get(bracket="W", round=1, position=1)
    force(Mesa.objects.filter(pk=first.pk), status=Mesa.Status.READY, juez=people["juez"], table_number=1)
    with disable_auditlog():
        record_claim(first, {"kind": "mano"}, uuid.uuid4(), user=people["juez"])
        while Mesa.objects.get(pk=first.pk).status != Mesa.Status.FINISHED:
            ajuste = {"kind": "ajuste", "pair": "A", "points": 40, "reason": "fin"}
            record_claim(first, ajuste, uuid.uuid4(), user=people["director"], role=DIRECTOR)
    later = championship.mesas.get(pk=first.winner_to_id)
    entry = AuditEntry.objects.get_for_object(later).get(act="pairs_settled")
    assert entry.actor == people["director"]
