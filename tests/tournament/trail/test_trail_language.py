"""Issue #25: the audit trail reads in the page's language. Each field of every model the trail records
is named through gettext with a Spanish translation, so that a Spanish page never says "client id" or
"filed at"; and so do the names of what the acts with no field of their own record."""

import html
import re

import pytest
from auditlog.registry import auditlog
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from refereeing.appeals import procedure as appeals
from refereeing.models import Appeal
from resolutions import register
from tests.support.factories import group
from tournament.accounts import accounts
from tournament.models import Championship
from tournament.trail.reading import ACT_FIELDS

# Words Spanish and English write alike: game terms that stay Spanish, a role, a code.
ALIKE = {"ID", "PIN", "Director", "sede", "mesa", "mesas", "juez", "inspector", "zapatería"}


def shown_fields(model):
    """The fields of ``model`` the trail may name: what django-auditlog records of it."""
    config = auditlog.get_model_fields(model)
    for field in model._meta.get_fields():
        if field.many_to_many and field.concrete:
            yield field
        elif field.concrete and field.name not in config["exclude_fields"]:
            if not config["include_fields"] or field.name in config["include_fields"]:
                yield field


def in_both(label):
    with translation.override("en"):
        english = str(label)
    with translation.override("es"):
        return english, str(label)


def labels():
    """Every label the trail may show a change under: ``{(where, English): Spanish}``."""
    found = {}
    for model in auditlog.get_models():
        for field in shown_fields(model):
            english, spanish = in_both(field.verbose_name)
            found[(f"{model._meta.label}.{field.name}", english)] = spanish
    for name, label in ACT_FIELDS.items():
        english, spanish = in_both(label)
        found[(f"act field {name}", english)] = spanish
    return found


def test_every_field_of_every_audited_model_has_its_spanish_name():
    names = labels()
    assert {"refereeing.Appeal", "resolutions.Resolution", "tournament.Pair", "auth.User"} <= {
        where.rsplit(".", 1)[0] for where, _english in names
    }
    left_in_english = sorted(
        f"{where}: {english}"
        for (where, english), spanish in names.items()
        if spanish == english and english not in ALIKE
    )
    assert left_in_english == []


@pytest.mark.django_db
@pytest.mark.slow
def test_the_demos_trail_in_spanish_names_no_field_in_english():
    group(accounts.ORGANISERS_GROUP)
    group(accounts.JUECES_GROUP)
    call_command("demo")
    championship = Championship.objects.first()  # this year's edition (last year's is older)
    director = championship.director
    appeal = Appeal.objects.get()
    appeals.admit(appeal, by=director)
    appeals.rule(appeal, False, "Sin lugar: la carta no se había jugado.", by=director)
    register.resolve(championship, "Se cayó una carta.", "Se repite el reparto.", "Art. 18", [appeal.mesa], by=director)
    english = {english for (_where, english), spanish in labels().items() if english != spanish}

    reader = Client(HTTP_ACCEPT_LANGUAGE="es")
    reader.force_login(get_user_model().objects.get(username="organizador"))
    shown, number = set(), 1
    while True:
        page = reader.get(reverse("audit:trail"), {"pagina": number}).content.decode()
        shown |= {
            html.unescape(label) for label in re.findall(r'<span class="text-body-secondary">([^<]*):</span>', page)
        }
        if "pagina=%d" % (number + 1) not in page:
            break
        number += 1
    assert number > 1  # every page of the trail was read
    # What the demo's acts and the Director's changed, in Spanish: the appeal's, a mesa's, a sede's.
    assert {"presentada el", "estado", "resolución", "chicas de la pareja A", "mesas físicas", "disponible el"} <= shown
    assert sorted(shown & english) == []
