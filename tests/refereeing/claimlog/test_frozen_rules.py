"""A mesa keeps the rule set it started with (ruling), and a championship's rules
are locked once any of its mesas has a claim."""

import importlib
import re
import uuid

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from engines.rules.rules import build_ruleset
from refereeing.claimlog.log import mesa_replay, record_claim
from refereeing.planilla import printed, verification
from refereeing.planilla import sheet as planilla
from tests.support.claims import MANO, api_client
from tests.support.planilla import text
from tests.support.rows import force
from tests.support.tablet import screen_config
from tournament.championships.forms import ChampionshipForm
from tournament.models import Championship, Mesa, RulesFrozen

pytestmark = pytest.mark.django_db

CAIDA_LIMPIA_A = {"kind": "caida_limpia", "pair": "A", "player": 1}
RIOBAMBA = build_ruleset("riobamba")


def start(mesa, user):
    record_claim(mesa, MANO, uuid.uuid4(), user=user)
    mesa.refresh_from_db()
    return mesa


def screen(client, mesa):
    """What the juez's screen is given of the rules: its config and its claim buttons."""
    response = client.get(f"/mesa/{mesa.pk}/")
    return screen_config(response)["rules"], re.findall(r'data-claim="(\w+)"', response.content.decode())


def form_data(championship, **changes):
    """The championship form as the organiser's browser sends it back, with ``changes``."""
    form = ChampionshipForm(instance=championship)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        data[name] = value.isoformat() if hasattr(value, "isoformat") else value
    data.update(changes)
    return data


def test_the_first_claim_stores_the_mesa_s_header(people, mesa):
    assert mesa.header is None
    start(mesa, people["juez"])
    assert mesa.header == {"ruleset": "riobamba", "settings": RIOBAMBA.settings(), "players": 4, "first_dealer": "A1"}
    # The header is the first line of `manage.py replay`: the log replays from it alone.
    assert mesa.ruleset == RIOBAMBA and mesa.players_at_table == 4


def test_rules_change_freely_until_a_mesa_has_a_claim(people, mesa):
    championship = mesa.championship
    championship.ruleset_overrides = {"caida_limpia_points": 4}
    championship.save()
    start(mesa, people["juez"])
    assert mesa.ruleset.caida_limpia_points == 4


@pytest.mark.parametrize(
    "change",
    [
        {"ruleset_profile": "pichincha"},
        {"ruleset_overrides": {"caida_limpia_points": 4}},
        {"players_per_pair": 1},
    ],
)
def test_the_model_refuses_a_change_of_rules_once_a_mesa_started(people, mesa, change):
    start(mesa, people["juez"])
    championship = Championship.objects.get(pk=mesa.championship_id)
    for name, value in change.items():
        setattr(championship, name, value)
    with pytest.raises(RulesFrozen, match="la mesa Cuadro de ganadores R1-1 ya empezó"):
        championship.save()
    with pytest.raises(ValidationError, match="Las reglas ya no pueden cambiar"):
        championship.full_clean()  # the admin's form
    championship.refresh_from_db()
    assert championship.ruleset == RIOBAMBA and championship.players_per_pair == 2


def test_what_is_not_a_rule_still_changes_and_an_equal_rule_set_is_no_change(people, mesa):
    start(mesa, people["juez"])
    championship = Championship.objects.get(pk=mesa.championship_id)
    championship.name = "Copa Chimborazo"
    # The profile's own value written out is the same rule set.
    championship.ruleset_overrides = {"caida_limpia_points": 2}
    championship.save()
    championship.refresh_from_db()
    assert championship.name == "Copa Chimborazo"


@pytest.mark.parametrize(
    "language, reason",
    [
        ("es", "Las reglas ya no pueden cambiar: la mesa Cuadro de ganadores R1-1 ya empezó"),
        ("en", "The rules cannot change any more: mesa Winners&#x27; bracket R1-1 has started"),
    ],
)
@pytest.mark.slow
def test_the_championship_form_refuses_with_the_reason(people, mesa, language, reason):
    start(mesa, people["juez"])
    championship = mesa.championship
    client = Client()
    client.force_login(people["staff"])
    url = reverse("tournament:edit", args=[championship.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'id="rules-frozen"' in page  # said before the organiser tries
    response = client.post(
        url,
        form_data(championship, rule_caida_limpia_points="4", ruleset_profile="pichincha"),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    assert reason in response.content.decode()
    championship.refresh_from_db()
    assert championship.ruleset == RIOBAMBA
    # The rest of the form still saves.
    saved = client.post(url, form_data(championship, name="Copa Chimborazo"))
    assert saved.status_code == 302
    championship.refresh_from_db()
    assert championship.name == "Copa Chimborazo" and championship.ruleset == RIOBAMBA


@pytest.mark.slow
def test_a_mesa_s_decisions_never_change_when_something_tries(people, mesa, other_mesa):
    """Rules written past the model (a raw UPDATE) reach only the mesas not started yet."""
    start(mesa, people["juez"])
    record_claim(mesa, CAIDA_LIMPIA_A, uuid.uuid4(), user=people["juez"])
    mesa.refresh_from_db()
    juez = api_client(people["juez"])
    before = {
        "replay": mesa_replay(mesa).as_dict(),
        "api": juez.get(f"/api/mesas/{mesa.pk}/").json(),
        "screen": screen(juez, mesa),
        "code": verification.verification_code(mesa),
        "sheet": text(printed.pdf(planilla.build(mesa, "", "en"))),
    }
    assert before["replay"]["decisions"][1]["points"] == {"A": 2, "B": 0}  # riobamba: caída y limpia 2 (Art. 9a)

    Championship.objects.filter(pk=mesa.championship_id).update(
        ruleset_profile="a_todo_rigor", ruleset_overrides={"caida_limpia_points": 4, "chicas_to_win": 3}
    )
    mesa = Mesa.objects.get(pk=mesa.pk)
    assert mesa_replay(mesa).as_dict() == before["replay"]
    api = juez.get(f"/api/mesas/{mesa.pk}/").json()
    assert api["ruleset"] == before["api"]["ruleset"] and api["decisions"] == before["api"]["decisions"]
    assert screen(juez, mesa) == before["screen"]
    assert verification.verification_code(mesa) == before["code"]
    assert verification.mesa_for_code(before["code"]) == mesa
    sheet = text(printed.pdf(planilla.build(mesa, "", "en")))
    assert 'profile "Riobamba rulebook"' in sheet.replace("“", '"').replace("”", '"')  # by its human name
    assert "a_todo_rigor" not in sheet and "A todo rigor" not in sheet
    # A new claim is decided by the mesa's own rules too.
    record_claim(mesa, MANO, uuid.uuid4(), user=people["juez"])
    answer = record_claim(mesa, CAIDA_LIMPIA_A, uuid.uuid4(), user=people["juez"])
    assert answer.decision["points"] == {"A": 2, "B": 0}
    # The mesa that had not started plays the championship's rules as they are now.
    start(other_mesa, people["other_juez"])
    assert other_mesa.header["ruleset"] == "a_todo_rigor" and other_mesa.ruleset.caida_limpia_points == 4


def test_a_mesa_s_header_cannot_be_rewritten(people, mesa):
    start(mesa, people["juez"])
    mesa.header = {**mesa.header, "ruleset": "pichincha"}
    with pytest.raises(RulesFrozen):
        mesa.save()
    mesa.refresh_from_db()
    assert mesa.header["ruleset"] == "riobamba"
    mesa.table_number = 9  # anything else still saves
    mesa.save()


def test_the_verification_code_covers_the_header(people, mesa):
    start(mesa, people["juez"])
    code = verification.verification_code(mesa)
    force(Mesa.objects.filter(pk=mesa.pk), header={**mesa.header, "ruleset": "pichincha"})
    assert verification.mesa_for_code(code) is None
    # A code printed before mesas kept a header still verifies.
    force(Mesa.objects.filter(pk=mesa.pk), header=mesa.header)
    legacy = f"{mesa.pk}-" + verification._digest("x", b"")  # shape only
    assert verification.mesa_for_code(legacy) is None
    from django.conf import settings

    old = f"{mesa.pk}-{verification._digest(settings.SECRET_KEY, verification.canonical_record(mesa, header=False))}"
    assert old != code and verification.mesa_for_code(old) == mesa


def test_the_migration_gives_started_mesas_their_championship_s_rules(people, mesa, other_mesa):
    start(mesa, people["juez"])
    force(Mesa.objects.filter(pk=mesa.pk), header=None)
    Championship.objects.filter(pk=mesa.championship_id).update(ruleset_overrides={"caida_limpia_points": 4})
    migration = importlib.import_module("tournament.migrations.0004_mesa_header")
    migration.fill_headers(apps, None)
    mesa.refresh_from_db()
    other_mesa.refresh_from_db()
    assert mesa.header == {
        "ruleset": "riobamba",
        "settings": {**RIOBAMBA.settings(), "caida_limpia_points": 4},
        "players": 4,
        "first_dealer": "A1",
    }
    assert other_mesa.header is None  # no claim: it follows the championship until it starts
