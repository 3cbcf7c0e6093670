"""Who may see and act at a mesa: the juez acts, viewers read, others get nothing."""

import uuid

import pytest
import segno

from refereeing.access.permissions import PIN_MAX_FAILURES
from refereeing.models import ClaimEntry, PinFailure
from tests.support import refusals
from tests.support.claims import MANO, api_client, claim_body, post_json

pytestmark = pytest.mark.django_db


def get_mesa(client, mesa):
    return client.get(f"/api/mesas/{mesa.pk}/")


def post_claim(client, mesa, claim=MANO):
    return post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(claim))


@pytest.mark.parametrize("who", ["staff", "director"])
def test_viewers_read_the_mesa_but_cannot_log_claims(people, mesa, who):
    client = api_client(people[who])
    response = get_mesa(client, mesa)
    assert response.status_code == 200
    assert response.json()["access"] == "view"
    assert client.get(f"/api/mesas/{mesa.pk}/claims/?after=0").status_code == 200
    refused = post_claim(client, mesa)
    assert refused.status_code == 403
    assert "Art. 16" in refused.json()["detail"]
    assert ClaimEntry.objects.count() == 0


def test_the_juez_of_another_mesa_gets_403_and_no_data(people, mesa, other_mesa):
    juez = api_client(people["juez"])
    post_claim(juez, mesa)
    intruder = api_client(people["other_juez"])
    for response in (
        get_mesa(intruder, mesa),
        intruder.get(f"/api/mesas/{mesa.pk}/claims/?after=0"),
        post_claim(intruder, mesa),
        post_json(intruder, f"/api/mesas/{mesa.pk}/signatures/", {"role": "juez", "name": "x", "image": ""}),
    ):
        assert response.status_code == 403
        assert set(response.json()) == refusals.FIELDS
        assert "Los Ases" not in response.content.decode()
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 1
    # Their own mesa is theirs.
    assert post_claim(intruder, other_mesa).status_code == 201


@pytest.mark.parametrize("who", ["stranger", None])
def test_anyone_else_gets_403(people, mesa, who):
    client = api_client(people[who] if who else None)
    assert get_mesa(client, mesa).status_code == 403
    assert post_claim(client, mesa).status_code == 403


def test_who_may_act_is_checked_before_what_they_send(people, mesa, other_mesa):
    """A claim at a mesa that is not yours is refused as such (403), even
    malformed: the answer tells nothing about the claim or the mesa."""
    intruder = api_client(people["other_juez"])
    for body in (
        {"client_id": "not-a-uuid", "claim": {"kind": "caida"}},
        {"client_id": str(uuid.uuid4()), "claim": {"kind": "no such claim"}, "expected_seq": 0},
    ):
        response = post_json(intruder, f"/api/mesas/{mesa.pk}/claims/", body)
        assert response.status_code == 403
        assert set(response.json()) == refusals.FIELDS
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 0


def test_an_inactive_juez_is_refused(people, mesa):
    client = api_client(people["juez"])
    people["juez"].is_active = False
    people["juez"].save()
    assert get_mesa(client, mesa).status_code == 403


# --- the table PIN -------------------------------------------------------------


def open_with_pin(client, table, pin, url="/acceso/"):
    """Type the table and the PIN on the page, as a browser would (with its CSRF token)."""
    client.get(url)
    data = {"pin": pin, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    if table is not None:
        data["table"] = table
    return client.post(url, data)


def test_the_table_pin_opens_the_mesa_on_an_anonymous_device(people, mesa, table):
    device = api_client()
    response = open_with_pin(device, 3, "482913")
    assert response.status_code == 302
    assert response["Location"] == f"/mesa/{mesa.pk}/"
    assert get_mesa(device, mesa).json()["access"] == "act"
    created = post_claim(device, mesa)
    assert created.status_code == 201, created.content
    # The claim is the juez's: the PIN is the juez's key to the table.
    entry = ClaimEntry.objects.get(mesa=mesa)
    assert entry.juez == people["juez"] and entry.address == "127.0.0.1"


def test_a_pin_device_must_send_the_csrf_token(mesa, table):
    device = api_client()
    open_with_pin(device, 3, "482913")
    response = device.post(f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO), format="json")
    assert response.status_code == 403
    assert ClaimEntry.objects.count() == 0


def test_the_pin_opens_only_its_own_mesa(mesa, table, other_mesa):
    device = api_client()
    open_with_pin(device, 3, "482913")
    assert get_mesa(device, other_mesa).status_code == 403
    assert post_claim(device, other_mesa).status_code == 403


def test_a_new_pin_revokes_the_devices_opened_with_the_old_one(mesa, table):
    device = api_client()
    open_with_pin(device, 3, "482913")
    assert get_mesa(device, mesa).status_code == 200
    table.pin = "000111"
    table.save()
    assert get_mesa(device, mesa).status_code == 403


def test_the_qr_page_asks_only_for_the_pin(mesa, table):
    device = api_client()
    url = f"/acceso/mesa-fisica/{table.pk}/"
    page = device.get(url)
    assert page.status_code == 200 and 'name="table"' not in page.content.decode()
    assert open_with_pin(device, None, "999999", url).status_code == 403
    assert open_with_pin(device, None, "482913", url)["Location"] == f"/mesa/{mesa.pk}/"
    assert get_mesa(device, mesa).status_code == 200


@pytest.mark.slow
def test_wrong_pins_are_refused_and_then_throttled(mesa, table):
    device = api_client()
    # Guesses spread over the sede's eight tables, so that no table's own limit comes first.
    for n in range(PIN_MAX_FAILURES):
        response = open_with_pin(device, 1 + n % 8, "111111")
        assert response.status_code == 403
        assert "PIN" in response.content.decode()
    # Even the right PIN is not checked now: guessing is slowed down.
    throttled = open_with_pin(device, 3, "482913")
    assert throttled.status_code == 429
    assert get_mesa(device, mesa).status_code == 403
    assert PinFailure.objects.count() == PIN_MAX_FAILURES


@pytest.mark.slow
def test_a_malformed_pin_is_an_error_not_a_guess(mesa):
    device = api_client()
    assert "El PIN tiene seis dígitos." in open_with_pin(device, 3, "12").content.decode()
    for pin in ("abcdef", "", "1234567"):
        response = open_with_pin(device, 3, pin)
        assert response.status_code == 200
        assert "is-invalid" in response.content.decode()
    assert PinFailure.objects.count() == 0


def test_a_mesas_old_pin_page_and_card_lead_to_its_tables(people, mesa, table):
    # Cards printed before tables had their own PIN hold the mesa's address.
    assert api_client().get(f"/acceso/mesa/{mesa.pk}/")["Location"] == f"/acceso/mesa-fisica/{table.pk}/"
    staff = api_client(people["staff"])
    assert staff.get(f"/acceso/mesa/{mesa.pk}/tarjeta/")["Location"] == f"/acceso/mesa-fisica/{table.pk}/tarjeta/"
    mesa.table_number = None
    mesa.save(update_fields=["table_number"])
    assert api_client().get(f"/acceso/mesa/{mesa.pk}/").status_code == 404


@pytest.mark.slow
def test_the_table_card_shows_the_pin_and_qr_code_to_organisers_only(people, mesa, table):
    url = f"/acceso/mesa-fisica/{table.pk}/tarjeta/"
    card = api_client(people["staff"]).get(url)
    assert card.status_code == 200
    html = card.content.decode()
    # No QR reader is installed: the code must be the one of the table's PIN page's address, without the PIN.
    expected = segno.make(f"http://testserver/acceso/mesa-fisica/{table.pk}/", error="m")
    assert "482913" in html and expected.svg_inline(scale=6, border=2) in html
    # The Director of a championship at the table's sede prints it too.
    assert api_client(people["director"]).get(url).status_code == 200
    for who in ("juez", "inspector", "stranger"):
        assert api_client(people[who]).get(url).status_code == 403
