"""The admin shows the claim log and the signatures, and changes nothing."""

import uuid

import pytest

from refereeing.claimlog.log import record_claim
from refereeing.models import ClaimEntry, Signature
from tests.support.claims import MANO, api_client, data_url, png
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def admin_client(people):
    people["staff"].is_superuser = True
    people["staff"].save()
    return api_client(people["staff"])


def test_claims_are_listed_and_shown_but_never_changed_or_deleted(admin_client, mesa):
    entry = record_claim(mesa, MANO, uuid.uuid4()).entry
    assert admin_client.get("/admin/refereeing/claimentry/").status_code == 200
    page = admin_client.get(f"/admin/refereeing/claimentry/{entry.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert admin_client.get("/admin/refereeing/claimentry/add/").status_code == 403
    admin_client.get("/cuenta/entrar/")
    token = admin_client.cookies["csrftoken"].value
    deleted = admin_client.post(
        f"/admin/refereeing/claimentry/{entry.pk}/delete/", {"post": "yes"}, HTTP_X_CSRFTOKEN=token
    )
    assert deleted.status_code == 403
    changed = admin_client.post(
        f"/admin/refereeing/claimentry/{entry.pk}/change/", {"kind": "caida"}, HTTP_X_CSRFTOKEN=token
    )
    assert changed.status_code == 403
    assert ClaimEntry.objects.get(pk=entry.pk).kind == "mano"


def test_signatures_are_shown_with_their_drawing_and_never_changed(admin_client, mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.FINISHED, winner=mesa.pair_a)
    signature = Signature.objects.create(mesa=mesa, role="A", name="Los Ases uno", image=data_url(png()))
    page = admin_client.get(f"/admin/refereeing/signature/{signature.pk}/change/")
    assert page.status_code == 200 and "data:image/png;base64," in page.content.decode()
    assert admin_client.get("/admin/refereeing/signature/add/").status_code == 403
