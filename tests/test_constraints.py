"""Every model constraint speaks plain words, in Spanish and English: no constraint name reaches a person.

Each constraint of the project's models carries its own message; the forms
that can break one show it (``validate_constraints`` runs in every
``ModelForm``, the admin's too). The generic test checks every constraint's
message; the others break each constraint a form can reach, through that
form (a mesa's, which no form edits, through its validation).
"""

import datetime

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tests.support.factories import championship, organiser, pairs
from tournament.draws import draws
from tournament.pairs.forms import PairForm

PROJECT_APPS = {"tournament", "refereeing", "resolutions", "audit", "backup"}
CONSTRAINTS = [
    (model, constraint)
    for model in apps.get_models()
    if model._meta.app_label in PROJECT_APPS
    for constraint in model._meta.constraints
]


def test_the_project_has_its_constraints():
    assert len(CONSTRAINTS) >= 25


@pytest.mark.parametrize("model, constraint", CONSTRAINTS, ids=[c.name for _m, c in CONSTRAINTS])
def test_every_constraint_has_a_plain_message_in_both_languages(model, constraint):
    messages = {}
    for language in ("es", "en"):
        with translation.override(language):
            messages[language] = str(constraint.get_violation_error_message())
    for message in messages.values():
        assert constraint.name not in message and "“" not in message and message.endswith(".")
    assert messages["es"] != messages["en"], "no Spanish translation"


CHAMPIONSHIP = {
    "name": "Copa Chimborazo",
    "start_date": "2026-11-22",
    "end_date": "2026-11-21",
    "ruleset_profile": "riobamba",
    "players_per_pair": 2,
    "bracket_format": "double",
    "group_size": 4,
    "advance_per_group": 0,
    "appeal_window_minutes": 10,
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, change, message",
    [
        ("en", {}, "The end date cannot be before the start date."),
        ("es", {}, "La fecha de fin no puede ser anterior a la de inicio."),
    ],
)
@pytest.mark.slow
def test_the_championship_form_says_what_is_wrong(client, language, change, message):
    client.force_login(organiser())
    response = client.post(reverse("tournament:new"), {**CHAMPIONSHIP, **change}, HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 200 and message in page
    assert "championship_dates" not in page and "championship_has" not in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data, message",
    [
        ({"seed": "1"}, "Seed 1 is already taken."),
        ({"seed": "0"}, "The seed is a whole number from 1."),
    ],
)
def test_the_pair_form_says_what_is_wrong(data, message):
    champ = championship()
    first = pairs(champ, 1)[0]
    first.seed = 1
    first.save()
    with translation.override("en"):
        form = PairForm(
            {"name": "Nueva", "player1_name": "Ana", "player2_name": "Luis", "representative": "1", **data},
            championship=champ,
        )
        assert not form.is_valid()
        assert message in str(form.errors)
        assert "pair_seed" not in str(form.errors)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m: {"pair_b_id": m.pair_a_id}, "A mesa is played by two different pairs."),
        (
            lambda m: {"pair_b_id": None, "status": "ready"},
            "A mesa can be ready or played only once both its pairs are known.",
        ),
        (lambda m: {"status": "finished"}, "A decided mesa (finished or walkover) has a winner"),
        (lambda m: {"table_number": 0}, "Tables are numbered from 1."),
    ],
)
@pytest.mark.slow
def test_a_mesa_s_validation_says_what_is_wrong(change, message):
    """The admin shows mesas read-only (tests/tournament/test_guards.py); whoever validates one
    (``full_clean``, as a form does) still reads plain words."""
    champ = championship()
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    mesa = champ.mesas.get(bracket="W", round=1, position=1)
    for name, value in change(mesa).items():
        setattr(mesa, name, value)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        mesa.full_clean()
    assert message in str(refused.value), refused.value
    assert "mesa_" not in str(refused.value)


@pytest.mark.django_db
def test_start_after_end_is_a_date_not_a_constraint_name_in_the_model_too():
    champ = championship()
    champ.end_date = champ.start_date - datetime.timedelta(days=1)
    with translation.override("es"), pytest.raises(Exception) as refused:
        champ.full_clean()
    assert "La fecha de fin no puede ser anterior a la de inicio." in str(refused.value)
