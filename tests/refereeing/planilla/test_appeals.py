"""Appeals on the planilla (Art. 17): filed with their time, signed, and the
Director's ruling; the verification code covers them."""

import uuid

import pytest
from django.utils import timezone

from refereeing.appeals import procedure as appeals
from refereeing.planilla import printed, verification
from refereeing.planilla import sheet as planilla
from tests.support import planilla_factories as factories
from tests.support.planilla import text

pytestmark = pytest.mark.django_db


def appealed_mesa():
    director = factories.user("director", first_name="Jorge", last_name="Vallejo")
    mesa = factories.mesa(factories.championship(director=director))
    log = factories.Log(mesa)
    log("mano")
    log("caida", pair="A", player=1)
    return mesa, director


def file(mesa):
    return appeals.file_appeal(
        mesa, "B", 2, "La carta ya se había jugado.", "María Cando", factories.signature_png(), uuid.uuid4(), by=None
    )


@pytest.mark.parametrize(
    "language, words",
    [
        ("es-ec", ["APELACIONES (ART. 17)", "firmada por María Cando", "Con lugar: Se anula la caída."]),
        ("en", ["APPEALS (ART. 17)", "signed by María Cando", "Upheld: Se anula la caída."]),
    ],
)
@pytest.mark.slow
def test_an_appeal_and_its_ruling_are_printed_with_the_filing_time(language, words):
    mesa, director = appealed_mesa()
    appeal = appeals.admit(file(mesa), by=director)
    appeals.rule(appeal, upheld=True, ruling="Se anula la caída.", undo=True, by=director)
    sheet = text(printed.pdf(planilla.build(mesa, "https://mesa.example", language)))
    filed_at = f"{timezone.localtime(appeal.filed_at):%H:%M}"
    for expected in [*words, filed_at, "#2", "La carta ya se había jugado."]:
        assert expected in sheet


@pytest.mark.slow
def test_the_directors_void_is_printed_with_the_directors_article_art_17():
    mesa, director = appealed_mesa()
    appeals.rule(
        appeals.admit(file(mesa), by=director), upheld=True, ruling="Se anula la caída.", undo=True, by=director
    )
    set_aside = {row["label"]: row["article"] for row in planilla.build(mesa, "https://mesa.example", "es-ec").refused}
    assert set_aside == {"Caída (jugador 1)": "Art. 16", "Anulación de #2": "Art. 17"}


def test_filing_and_ruling_change_the_verification_code_and_no_appeal_changes_nothing():
    mesa, director = appealed_mesa()
    before = verification.verification_code(mesa)
    assert b'"appeals"' not in verification.canonical_record(mesa)  # codes printed before appeals existed still verify
    appeal = file(mesa)
    filed = verification.verification_code(mesa)
    assert filed != before
    appeals.dismiss(appeal, "La caída fue legal.", by=director)
    assert verification.verification_code(mesa) not in (before, filed)
    assert verification.mesa_for_code(verification.verification_code(mesa)) == mesa
