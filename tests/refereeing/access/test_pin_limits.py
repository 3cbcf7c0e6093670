"""The table PIN's limits: per address, per physical table from any address, and a new PIN
printed from the tables page (``refereeing.access``)."""

import pytest
from django.test import Client
from django.urls import reverse

from refereeing.access.permissions import PIN_MAX_FAILURES, PIN_TABLE_MAX_FAILURES, pin_blocked
from refereeing.models import ClaimEntry, PinFailure
from tests.support import factories
from tests.support.claims import MANO, api_client, claim_body, post_json
from tests.support.factories import sede
from tournament.models import Table

pytestmark = pytest.mark.django_db

BLOCKED_ES = "El PIN de esta mesa quedó bloqueado por demasiados intentos fallidos."
BLOCKED_EN = "This table&#x27;s PIN is blocked after too many wrong tries. Ask the organiser to print a new card."


def type_pin(pin, address, url="/acceso/", table=None, client=None, language="es", sede=None):
    """A device at ``address`` types the PIN (and the table, and chooses its sede) on a PIN page."""
    client = client or api_client()
    client.get(url, REMOTE_ADDR=address)
    data = {"pin": pin, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    if table is not None:
        data["table"] = table
    if sede is not None:
        data["sede"] = sede
    response = client.post(url, data, REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    return client, response


def guess_from_many_addresses(count, **where):
    for n in range(count):
        _client, response = type_pin("000000", f"10.0.{n // 250}.{n % 250 + 1}", **where)
        assert response.status_code == 403


def test_the_limits():
    # A venue's tablets may share one address: the address limit is the looser.
    assert PIN_TABLE_MAX_FAILURES < PIN_MAX_FAILURES


@pytest.mark.slow
def test_wrong_pins_from_many_addresses_block_the_table_s_pin(mesa, table, other_mesa, other_table):
    qr_page = f"/acceso/mesa-fisica/{table.pk}/"
    opened_before, response = type_pin(table.pin, "10.9.9.9", url=qr_page)
    assert response.status_code == 302
    guess_from_many_addresses(PIN_TABLE_MAX_FAILURES, url=qr_page)
    assert pin_blocked(table) and not pin_blocked(other_table)
    # The right PIN opens nothing now, from a fresh address, by the QR code or by the table number.
    for where in ({"url": qr_page}, {"table": 3}):
        client, refused = type_pin(table.pin, "192.168.1.50", **where)
        assert refused.status_code == 403 and BLOCKED_ES in refused.content.decode()
        assert client.get(f"/api/mesas/{mesa.pk}/").status_code == 403
    _client, english = type_pin(table.pin, "192.168.1.51", url=qr_page, language="en")
    assert BLOCKED_EN in english.content.decode()
    # A blocked PIN is not checked, so the guesses stop counting.
    assert PinFailure.objects.filter(table=table).count() == PIN_TABLE_MAX_FAILURES
    # The other tables open as before; the device opened before keeps its access.
    assert type_pin(other_table.pin, "192.168.1.52", table=4)[1].status_code == 302
    assert post_json(opened_before, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO)).status_code == 201


@pytest.mark.slow
def test_wrong_pins_typed_with_the_table_number_count_against_that_table(mesa, table):
    guess_from_many_addresses(PIN_TABLE_MAX_FAILURES, table=3)
    assert set(PinFailure.objects.values_list("table", flat=True)) == {table.pk}
    assert pin_blocked(table)


def test_a_number_no_sede_has_is_no_guess(mesa, table):
    _client, response = type_pin("000000", "10.1.1.1", table=99)
    assert response.status_code == 200 and "Ninguna sede tiene una mesa 99." in response.content.decode()
    assert not PinFailure.objects.exists()


@pytest.fixture
def elsewhere(championship):
    """Table 3 of another sede, where another championship is played today too."""
    other = sede(4, name="Sala Norte")
    factories.championship(name="Otro", sede=other)
    table = other.tables.get(number=3)
    table.pin = "271828"
    table.save(update_fields=["pin"])
    return table


@pytest.mark.slow
def test_a_number_two_sedes_played_today_share_is_asked_its_sede_before_any_pin_is_checked(mesa, table, elsewhere):
    for pin in (table.pin, elsewhere.pin, "000000"):
        device, asked = type_pin(pin, "10.5.5.5", table=3)
        page = asked.content.decode()
        assert asked.status_code == 200 and "¿En qué sede está esta mesa?" in page
        assert 'name="sede"' in page and "Sala Norte" in page and table.sede.name in page
    assert not PinFailure.objects.exists()
    assert device.get(f"/api/mesas/{mesa.pk}/").status_code == 403
    # With the sede, the PIN is that sede's table's.
    _client, refused = type_pin(elsewhere.pin, "10.5.5.6", table=3, sede=table.sede_id)
    assert refused.status_code == 403 and list(PinFailure.objects.values_list("table", flat=True)) == [table.pk]
    device, opened = type_pin(elsewhere.pin, "10.5.5.7", table=3, sede=elsewhere.sede_id)
    assert opened["Location"] == f"/acceso/mesa-fisica/{elsewhere.pk}/ahora/"
    assert device.get(f"/api/mesas/{mesa.pk}/").status_code == 403


@pytest.mark.slow
def test_eleven_wrong_pins_for_a_number_two_sedes_share_block_that_table(mesa, table, elsewhere):
    """Issue 33: the guesses at "table 3" were stored with no table, and the right PIN opened it after eleven."""
    for n in range(PIN_TABLE_MAX_FAILURES + 1):
        _client, response = type_pin("000000", f"10.6.0.{n + 1}", table=3, sede=table.sede_id)
        assert response.status_code == 403
    assert pin_blocked(table) and not pin_blocked(elsewhere)
    assert PinFailure.objects.filter(table=table).count() == PIN_TABLE_MAX_FAILURES
    _client, refused = type_pin(table.pin, "10.6.1.1", table=3, sede=table.sede_id)
    assert refused.status_code == 403 and BLOCKED_ES in refused.content.decode()
    assert type_pin(elsewhere.pin, "10.6.1.2", table=3, sede=elsewhere.sede_id)[1].status_code == 302


@pytest.mark.slow
def test_a_number_only_one_sede_played_today_has_is_that_sedes_table(mesa, table):
    """A sede where nothing is played today is not asked about: the number is the table of the sede in play."""
    idle = sede(4).tables.get(number=3)
    guess_from_many_addresses(PIN_TABLE_MAX_FAILURES, table=3)
    assert pin_blocked(table) and not pin_blocked(idle)
    assert not PinFailure.objects.filter(table=idle).exists()


@pytest.mark.slow
def test_an_organiser_prints_a_new_pin_and_the_old_one_opens_nothing(people, mesa, table):
    old_pin = table.pin
    device, _response = type_pin(old_pin, "10.2.2.2", table=3)
    assert device.get(f"/api/mesas/{mesa.pk}/").status_code == 200
    guess_from_many_addresses(PIN_TABLE_MAX_FAILURES, table=3)
    assert PinFailure.objects.blocked_tables(Table.objects.all()) == {table.pk}

    organiser = Client()
    organiser.force_login(people["staff"])
    tables = reverse("tournament:tables", args=[mesa.championship_id])
    page = organiser.get(tables).content.decode()
    assert 'data-testid="pin-blocked"' in page and reverse("access:new_pin", args=[table.pk]) in page
    card = organiser.post(reverse("access:new_pin", args=[table.pk]), follow=True)
    assert card.redirect_chain == [(reverse("access:table_card", args=[table.pk]), 302)]
    table.refresh_from_db()
    assert table.pin != old_pin and len(table.pin) == 6 and table.pin.isdigit()
    html = card.content.decode()
    assert table.pin in html and "Nuevo PIN para la mesa 3" in html
    # Who printed it, and when, is recorded on the table and shown on the tables page.
    assert table.pin_issued_by == people["staff"] and table.pin_issued_at is not None
    assert "reimpreso por organizador" in organiser.get(tables).content.decode()
    # The device opened with the old PIN has lost access at once; the old PIN opens nothing.
    assert device.get(f"/api/mesas/{mesa.pk}/").status_code == 403
    assert post_json(device, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO)).status_code == 403
    assert type_pin(old_pin, "10.3.3.3", table=3)[1].status_code == 403
    # The new PIN is checked again: the count of wrong PINs starts over.
    assert not pin_blocked(table)
    fresh, opened = type_pin(table.pin, "10.4.4.4", table=3)
    assert opened.status_code == 302
    assert post_json(fresh, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO)).status_code == 201
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 1


@pytest.mark.slow
def test_only_who_may_print_the_card_prints_a_new_pin(people, mesa, table):
    url = reverse("access:new_pin", args=[table.pk])
    pin = table.pin
    for who in ("juez", "inspector", "stranger"):
        client = Client()
        client.force_login(people[who])
        assert client.post(url).status_code == 403
    # A visitor is asked to sign in first, as on every guarded page (one policy, issue #33): nothing printed.
    anonymous = Client().post(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    director = Client()
    director.force_login(people["director"])
    assert director.get(url).status_code == 405  # a POST only: a link or a prefetch prints nothing
    table.refresh_from_db()
    assert table.pin == pin and table.pin_issued_by is None
    assert director.post(url).status_code == 302
    table.refresh_from_db()
    assert table.pin != pin and table.pin_issued_by == people["director"]
