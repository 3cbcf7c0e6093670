"""The planilla codes a mirror checks (#27): the venue publishes their digests, and the acts keep them current.

Real commits (``transaction=True``): the digests are written once an act's
transaction commits, as in production.
"""

import re

import pytest
from django.db import transaction
from django.urls import reverse

from live import notify
from mirror import codes
from mirror.models import PlanillaCode
from refereeing import signatures
from refereeing.models import Signature
from refereeing.planilla import verification
from tests.support import planilla_factories as factories

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def venue_with_a_mirror(settings):
    settings.MIRROR_URL = "https://espejo.example.ec"


def published(mesa):
    return PlanillaCode.objects.get(mesa=mesa).digests


@pytest.fixture
def finished():
    return factories.zapateria_mesa()[0]


def test_each_claim_publishes_the_digest_of_the_new_code_and_drops_the_old():
    mesa = factories.mesa()
    log = factories.Log(mesa)
    log("mano")
    first = verification.verification_code(mesa)
    assert codes.digest(first) in published(mesa)
    assert all(re.fullmatch("[0-9a-f]{64}", d) for d in published(mesa)), "digests only, never a code"
    log("caida", pair="A", player=1)
    second = verification.verification_code(mesa)
    assert second != first
    assert codes.digest(second) in published(mesa) and codes.digest(first) not in published(mesa)
    assert codes.mesa_for_code(second) == mesa and codes.mesa_for_code(first) is None


def test_a_venue_without_a_mirror_writes_no_digest_on_its_claims(settings):
    settings.MIRROR_URL = ""
    mesa = factories.mesa()
    factories.Log(mesa)("mano")
    assert not PlanillaCode.objects.exists()


@pytest.mark.slow
def test_a_signature_publishes_the_signed_record(finished):
    Signature.objects.filter(mesa=finished, role="juez").delete()
    codes.refresh([finished.pk])
    unsigned = verification.verification_code(finished)
    assert codes.mesa_for_code(unsigned) == finished
    signatures.sign(finished, "juez", "Carlos Yépez", factories.signature_png(3))
    signed = verification.verification_code(finished)
    assert codes.mesa_for_code(signed) == finished and codes.mesa_for_code(unsigned) is None


def test_an_act_that_writes_many_rows_asks_for_each_mesa_once():
    mesa = factories.mesa()
    other = factories.mesa(mesa.championship, position=4)
    with transaction.atomic():
        log = factories.Log(mesa)
        log("mano")
        log("caida", pair="A", player=1)
        notify.changed(mesa.championship_id, [mesa.pk, other.pk])
        notify.changed(mesa.championship_id)  # the bracket: every mesa of the championship
        asked = [
            callback.mesa_ids
            for _, callback, _ in transaction.get_connection().run_on_commit
            if isinstance(callback, codes._Refresh)
        ]
    assert sorted(pk for mesa_ids in asked for pk in mesa_ids) == sorted([mesa.pk, other.pk])
    assert codes.mesa_for_code(verification.verification_code(other)) == other


@pytest.mark.slow
def test_codes_printed_before_a_key_rotation_still_verify_on_the_mirror(finished, settings):
    printed = verification.verification_code(finished)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-next-championship"
    codes.refresh([finished.pk], every=True)  # what mirror_publish does after a rotation
    assert codes.mesa_for_code(printed) == finished
    assert codes.mesa_for_code(verification.verification_code(finished)) == finished


@pytest.mark.slow
def test_a_save_that_changes_nothing_in_the_record_keeps_every_code_and_a_change_leaves_one(finished, settings):
    printed = verification.verification_code(finished)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-next-championship"
    codes.refresh([finished.pk], every=True)
    kept = published(finished)
    assert len(kept) > 1 and kept[0] == codes.digest(verification.verification_code(finished))
    finished.table_number = 8  # the mesa moves: its record (log, signatures, result) is the same
    finished.save()
    assert published(finished) == kept and codes.mesa_for_code(printed) == finished
    Signature.objects.filter(mesa=finished, role="juez").delete()
    notify.changed(finished.championship_id, [finished.pk])
    assert published(finished) == [codes.digest(verification.verification_code(finished))]
    assert codes.mesa_for_code(printed) is None


@pytest.mark.parametrize("typed", ["abc", "-", "1-", "999999-0000-0000-0000", "1-ÁÉÍÓ-ÚÑ00-0000", "x" * 300])
@pytest.mark.slow
def test_the_mirror_refuses_what_cannot_be_a_current_code(finished, typed):
    assert codes.mesa_for_code(typed) is None


@pytest.mark.slow
def test_the_mirrors_page_checks_the_digests_without_the_venues_key(client, finished, settings):
    printed = verification.verification_code(finished)
    settings.MIRROR = True
    settings.SECRET_KEY = "the mirror's own key, which signs nothing of the venue's"
    typed = printed.lower().replace("0", "o").replace("1", "l")
    response = client.get(reverse("planilla:verify", args=[typed]), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    page = response.content.decode()
    assert "El código coincide con el registro." in page and printed in page
    assert finished.pair_a.name in page and "Juan Pérez · " in page
    entry = finished.claims.get(seq=2)
    settings.MIRROR = False  # the venue changes the record; its act publishes the new digests
    entry.claim = {**entry.claim, "player": 1 if entry.claim.get("player") == 2 else 2}
    entry.save()
    notify.changed(finished.championship_id, [finished.pk])
    settings.MIRROR = True
    response = client.get(reverse("planilla:verify", args=[printed]), HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 404 and finished.pair_a.name not in response.content.decode()
