"""Planillas kept ready (``refereeing.planilla.store``): rendered once when final, served only while current."""

import time

import pytest
from django.urls import reverse

from refereeing.planilla import printed, store, verification
from refereeing.planilla import sheet as planilla
from tests.support import planilla_factories as factories
from tests.support.factories import organiser
from tests.support.planilla import text

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BASE = "https://mesa.example"


def test_a_stored_planilla_is_served_only_while_its_code_is_current(monkeypatch):
    mesa, _log = factories.zapateria_mesa()  # finished and signed by all three
    first = store.pdf(mesa, BASE, "es-ec")
    code = verification.verification_code(mesa)
    assert store.path_for(code, "es-ec", BASE).read_bytes() == first
    # A reprint reads the file: nothing is rendered.
    monkeypatch.setattr(printed, "pdf", lambda sheet: pytest.fail("rendered again"))
    assert store.pdf(mesa, BASE, "es-ec") == first
    monkeypatch.undo()
    # The record changes (a signature is taken back and signed again): the code changes,
    # the stored file is not served, and the new planilla is rendered and stored.
    signature = mesa.signatures.get(role="juez")
    signature.delete()
    factories.sign_all(mesa, roles=("juez",))
    mesa = planilla.mesas_for_print().get(pk=mesa.pk)
    new_code = verification.verification_code(mesa)
    assert new_code != code
    second = store.pdf(mesa, BASE, "es-ec")
    assert second != first and new_code in text(second) and code not in text(second)
    assert store.path_for(new_code, "es-ec", BASE).exists()


def test_a_mesa_not_final_is_never_stored():
    mesa, log = factories.zapateria_mesa()
    mesa.signatures.filter(role="B").delete()
    mesa = planilla.mesas_for_print().get(pk=mesa.pk)
    store.pdf(mesa, BASE, "es-ec")
    assert not list(store.folder().glob("*.pdf"))


@pytest.mark.django_db(transaction=True)
def test_the_last_signature_gets_the_planilla_ready_in_the_background(settings):
    settings.PLANILLA_SITE_URL = BASE
    mesa, _log = factories.zapateria_mesa()  # its third signature starts the background render
    mesa = planilla.mesas_for_print().get(pk=mesa.pk)
    target = store.path_for(verification.verification_code(mesa), store.DEFAULT_LANGUAGE, BASE)
    deadline = time.monotonic() + 60
    while not target.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert target.exists() and verification.verification_code(mesa) in text(target.read_bytes())


def test_the_print_view_and_a_batch_use_the_stored_planilla(client, monkeypatch):
    mesa, _log = factories.zapateria_mesa()
    client.force_login(organiser("staff"))
    response = client.get(reverse("planilla:mesa_pdf", args=[mesa.pk]))
    assert response.status_code == 200
    kept = list(store.folder().glob("*.pdf"))
    assert len(kept) == 1 and kept[0].read_bytes() == response.content
    monkeypatch.setattr(printed, "pdf", lambda sheet: pytest.fail("rendered again"))
    assert client.get(reverse("planilla:mesa_pdf", args=[mesa.pk])).content == response.content
