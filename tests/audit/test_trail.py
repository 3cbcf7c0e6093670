"""The audit trail (issue 11 item 5): every act on a championship outside the claim log, with who, when,
from where, what changed and why; in the act's own transaction; read on a page, edited nowhere."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from audit.context import acting
from audit.models import AuditEntry
from refereeing.access.permissions import reissue_pin
from refereeing.appeals import procedure as appeals
from refereeing.claimlog import urls_juez as api_urls
from tests.support.claims import CAIDA_A, MANO, SIGNED, api_client, claim_body, post_json
from tests.support.factories import jueces, organiser
from tests.support.rows import force
from tournament.draws import advancement
from tournament.models import Mesa, Pair
from tournament.seating import seating

pytestmark = pytest.mark.usefixtures("english")

ADDRESS = "10.0.0.7"


@pytest.fixture
def org(people):
    client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=ADDRESS)
    client.force_login(people["staff"])
    return client


def entries_for(instance):
    return AuditEntry.objects.get_for_object(instance).order_by("pk")


def changes_of(instance):
    """The entries of changes to ``instance`` (its creation by the fixtures left aside)."""
    return entries_for(instance).exclude(action=AuditEntry.Action.CREATE)


def test_a_check_in_records_who_when_where_and_what(org, championship, mesa, people):
    pair = mesa.pair_a
    response = org.post(reverse("tournament:pair_check_in", args=[championship.pk, pair.pk]), {"arrival": "present"})
    assert response.status_code == 302
    entry = entries_for(pair).last()
    assert entry.actor == people["staff"] and entry.actor_name == "organizador"
    assert entry.remote_addr == ADDRESS and entry.timestamp is not None
    assert entry.changes == {"arrival": ["expected", "present"]}
    assert (entry.championship_id, entry.mesa_id) == (championship.pk, None)


def test_a_repeated_check_in_stays_present_and_is_one_act(org, championship, mesa):
    pair = mesa.pair_a
    url = reverse("tournament:pair_check_in", args=[championship.pk, pair.pk])
    for _ in range(2):  # the double tap, or the retry of a lost answer
        assert org.post(url, {"arrival": "present"}).status_code == 302
    pair.refresh_from_db()
    assert pair.arrival == "present" and changes_of(pair).count() == 1
    assert org.post(url, {"arrival": "withdrawn"}).status_code == 302  # withdrawn is its own intent
    pair.refresh_from_db()
    assert pair.arrival == "withdrawn" and changes_of(pair).count() == 2
    for bad in ({}, {"arrival": "yes"}, {"present": "1"}):
        assert org.post(url, bad).status_code == 400
    pair.refresh_from_db()
    assert pair.arrival == "withdrawn" and changes_of(pair).count() == 2


def test_a_table_and_juez_assignment_is_recorded_on_the_mesa(org, championship, mesa, people):
    new_juez = jueces(1)[0]
    response = org.post(
        reverse("tournament:mesa_table", args=[championship.pk, mesa.pk]), {"table_number": 5, "juez": new_juez.pk}
    )
    assert response.status_code == 302
    entry = entries_for(mesa).last()
    assert entry.mesa_id == mesa.pk and entry.actor == people["staff"]
    assert entry.changes["table_number"] == ["3", "5"]
    assert entry.changes["juez"] == ["juez", "juez1"]


def test_a_walkover_records_its_reason(org, championship, mesa):
    response = org.post(
        reverse("tournament:mesa_result", args=[championship.pk, mesa.pk]),
        {"winner": "B", "reason": "Pair A did not come back after the break."},
    )
    assert response.status_code == 302
    entry = entries_for(mesa).last()
    assert entry.changes["status"] == ["ready", "walkover"]
    assert entry.reason == "Pair A did not come back after the break."


def test_a_reason_with_a_nul_or_too_long_is_refused_and_nothing_changes(org, championship, mesa):
    url = reverse("tournament:mesa_result", args=[championship.pk, mesa.pk])
    for reason in ("no\x00show", "x" * 501, "bell\x07"):
        response = org.post(url, {"winner": "B", "reason": reason})
        assert response.status_code == 200
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.READY and not changes_of(mesa).exists()


def test_a_round_start_is_recorded_though_it_is_a_bulk_update(org, championship, mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    response = org.post(reverse("tournament:start_round", args=[championship.pk, "W", 1]))
    assert response.status_code == 302
    entry = entries_for(championship).get(act="round_started")
    assert entry.changes == {"round": ["", "W 1"], "mesas": ["", "1"]} and entry.remote_addr == ADDRESS


def test_a_pin_reissue_is_recorded_without_the_pin(championship, mesa, table, people):
    reissue_pin(table, by=people["staff"])
    entry = entries_for(table).last()
    assert entry.actor == people["staff"]
    assert entry.changes["pin"] == ["••••••", "••••••"]
    table.refresh_from_db()
    assert "482913" not in str(entry.changes) and table.pin not in str(entry.changes)


def test_rule_changes_and_accounts_are_recorded_and_passwords_never_shown(org, championship, people):
    form = org.get(reverse("tournament:edit", args=[championship.pk])).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    with acting(people["staff"], ADDRESS):
        championship.ruleset_overrides = {"caida_limpia_points": 4}
        championship.save()
        juez = jueces(1)[0]
        juez.set_password("una-clave-nueva")
        juez.save()
    assert entries_for(championship).last().changes["ruleset_overrides"] == ["{}", '{"caida_limpia_points": 4}']
    password_change = entries_for(juez).filter(changes__has_key="password").last()
    assert password_change.changes["password"] == ["••••••", "••••••"]
    groups = entries_for(juez).filter(changes__has_key="groups").get()
    assert groups.changes["groups"]["objects"] == ["Jueces"]
    assert data  # the edit page still renders for the organiser


def test_every_appeal_step_is_recorded(championship, played, people):
    appeal = appeals.file_appeal(played, "B", 2, "No fue caída.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    with acting(people["director"], ADDRESS):
        appeals.admit(appeal, by=people["director"])
        appeals.rule(appeal, True, "Con lugar.", undo=True, by=people["director"])
    steps = entries_for(appeal)
    assert steps[0].action == AuditEntry.Action.CREATE
    assert [e.changes["status"] for e in steps.filter(act="appeal_step")] == [
        ["filed", "admitted"],
        ["admitted", "upheld"],
    ]
    assert all(e.actor == people["director"] and e.mesa_id == played.pk for e in steps.filter(act="appeal_step"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_an_act_that_fails_after_its_write_leaves_neither_change_nor_entry(championship, mesa, people, monkeypatch):
    """The entry is written in the act's transaction: a walkover whose advance fails is undone whole,
    and so is a check-in whose page fails after the save (the middleware's transaction)."""
    client = Client(REMOTE_ADDR=ADDRESS, raise_request_exception=False)
    client.force_login(people["staff"])

    def broken(*args, **kwargs):
        raise RuntimeError("after the write")

    monkeypatch.setattr(advancement, "settle", broken)
    response = client.post(reverse("tournament:mesa_result", args=[championship.pk, mesa.pk]), {"winner": "A"})
    assert response.status_code == 500
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.READY and not changes_of(mesa).exists()

    monkeypatch.setattr("tournament.pairs.views.redirect", broken)  # the page fails after the save
    pair = mesa.pair_a
    response = client.post(reverse("tournament:pair_check_in", args=[championship.pk, pair.pk]), {"arrival": "present"})
    pair.refresh_from_db()
    assert pair.arrival == "expected" and not changes_of(pair).exists()

    with pytest.raises(RuntimeError), transaction.atomic(), acting(people["staff"]):
        Pair.objects.filter(pk=pair.pk).first().save()
        pair.arrival = "present"
        pair.save()
        broken()
    assert Pair.objects.get(pk=pair.pk).arrival == "expected" and not changes_of(pair).exists()


def test_claims_stay_in_the_claim_log_and_leave_the_trail_alone(mesa, people):
    client = api_client(people["juez"])
    for claim in (MANO, CAIDA_A):
        assert post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(claim)).status_code == 201
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.IN_PLAY and not changes_of(mesa).exists()


def test_the_page_filters_by_championship_mesa_and_person(org, championship, mesa, other_mesa, people):
    with acting(people["staff"], ADDRESS):
        seating.assign_table(mesa, 7, mesa.juez, by=people["staff"])
    with acting(people["director"], "10.0.0.9"):
        seating.assign_table(other_mesa, 8, other_mesa.juez, by=people["director"])
    url = reverse("audit:trail")
    page = org.get(url, {"campeonato": championship.pk, "mesa": mesa.pk}).content.decode()
    assert "R1-1" in page and "R1-2" not in page.split('id="audit"')[1]
    page = org.get(url, {"persona": people["director"].pk}).content.decode().split('id="audit"')[1]
    assert "10.0.0.9" in page and ADDRESS not in page
    assert org.get(url, {"mesa": "x", "persona": "-1"}).status_code == 200
    # A NUL is refused before the page reads it (``config.nul_in_url``).
    assert org.get(url, {"mesa": "x\x00", "persona": "-1"}).status_code == 400


@pytest.mark.slow
def test_a_director_reads_their_championships_only_and_a_juez_nothing(championship, mesa, people):
    from tests.support.factories import championship as another_championship

    other = another_championship(name="Otro")
    with acting(people["staff"]):
        seating.assign_table(mesa, 7, mesa.juez, by=people["staff"])
        other.edition = "Ambato"
        other.save()
    director = Client()
    director.force_login(people["director"])
    page = director.get(reverse("audit:trail")).content.decode().split('id="audit"')[1]
    assert "R1-1" in page and "Ambato" not in page
    juez = Client()
    juez.force_login(people["juez"])
    assert juez.get(reverse("audit:trail")).status_code == 403
    assert Client().get(reverse("audit:trail")).status_code == 302


@pytest.mark.slow
def test_no_screen_api_or_admin_page_edits_or_deletes_the_trail(org, championship, mesa, people):
    with acting(people["staff"]):
        seating.assign_table(mesa, 7, mesa.juez, by=people["staff"])
    entry = changes_of(mesa).get()
    before = (entry.changes, entry.actor_id, entry.timestamp)
    assert org.post(reverse("audit:trail"), {"campeonato": championship.pk}).status_code == 405
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("root", password=None))
    changelist = reverse("admin:audit_auditentry_changelist")
    assert admin.get(changelist).status_code == 200
    assert admin.get(reverse("admin:audit_auditentry_add")).status_code == 403
    change = reverse("admin:audit_auditentry_change", args=[entry.pk])
    assert admin.post(change, {"reason": "edited", "actor_name": "nobody"}).status_code == 403
    assert admin.post(reverse("admin:audit_auditentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    admin.post(changelist, {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
    entry.refresh_from_db()
    assert (entry.changes, entry.actor_id, entry.timestamp) == before and entry.reason == ""
    assert not any("audit" in str(p.pattern) for p in api_urls.urlpatterns)


def test_an_organiser_account_change_in_the_admin_is_recorded(people):
    admin = Client(REMOTE_ADDR=ADDRESS)
    root = get_user_model().objects.create_superuser("root", password=None)
    admin.force_login(root)
    juez = people["juez"]
    response = admin.post(
        reverse("admin:auth_user_change", args=[juez.pk]),
        {
            "username": "juez",
            "first_name": "Rosa",
            "last_name": "Guamán Paredes",
            "is_active": "on",
            "date_joined_0": "2026-11-20",
            "date_joined_1": "10:00:00",
        },
    )
    assert response.status_code == 302
    entry = entries_for(juez).last()
    assert entry.actor == root and entry.remote_addr == ADDRESS
    assert entry.changes["last_name"] == ["Guamán", "Guamán Paredes"]
    organiser("org2")  # made outside a request: recorded, with nobody as its actor
    assert entries_for(get_user_model().objects.get(username="org2")).first().actor is None


def test_the_draw_and_the_jueces_accounts_are_recorded(org, people):
    from tests.support.factories import championship as make_championship
    from tests.support.factories import pairs

    champ = make_championship()
    pairs(champ, 4)
    assert org.post(reverse("tournament:draw", args=[champ.pk]), {"seed": 7}).status_code == 302
    drawn = changes_of(champ).get()
    assert drawn.changes == {"draw_seed": ["None", "7"]} and drawn.actor == people["staff"]
    response = org.post(
        reverse("jueces:list"),
        {
            "first_name": "Ana",
            "last_name": "Ortiz",
            "username": "ana",
            "password1": "cuarenta-y-dos",
            "password2": "cuarenta-y-dos",
        },
    )
    assert response.status_code == 302
    ana = get_user_model().objects.get(username="ana")
    made = entries_for(ana)
    assert made[0].action == AuditEntry.Action.CREATE and "password" in made[0].changes  # masked
    assert made.filter(changes__has_key="groups").get().changes["groups"]["objects"] == ["Jueces"]
    assert org.post(reverse("jueces:active", args=[ana.pk]), {"active": "0"}).status_code == 302
    assert entries_for(ana).last().changes == {"is_active": ["True", "False"]}
    assert all(e.actor == people["staff"] and e.remote_addr == ADDRESS for e in entries_for(ana))
    assert "pbkdf2" not in str(list(entries_for(ana).values_list("changes", flat=True)))  # no hash, not half of one


def mesa_options(page):
    """The mesas the page's filter offers, as (id, label)."""
    select = page.split('name="mesa"')[1].split("</select>")[0]
    return re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', select)


def test_a_director_of_another_championship_is_offered_none_of_its_mesas(championship, mesa, other_mesa, people):
    """Issue 22 repro: a Director of another championship saw championship 1's mesas in the audit filter."""
    from tests.support.factories import championship as another_championship

    rival = get_user_model().objects.create_user("directora_ambato")
    another_championship(name="Otro", director=rival)
    director = Client(HTTP_ACCEPT_LANGUAGE="en")
    director.force_login(rival)
    page = director.get(reverse("audit:trail"), {"campeonato": championship.pk})
    assert page.status_code == 200
    assert mesa_options(page.content.decode()) == []
    # Its own Director, and the organisers, are offered them.
    own = Client(HTTP_ACCEPT_LANGUAGE="en")
    own.force_login(people["director"])
    offered = mesa_options(own.get(reverse("audit:trail"), {"campeonato": championship.pk}).content.decode())
    assert [pk for pk, _label in offered] == [str(mesa.pk), str(other_mesa.pk)]
