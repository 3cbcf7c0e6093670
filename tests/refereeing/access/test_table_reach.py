"""Who may print a physical table's card (its PIN) and a new PIN: the organisers, and whoever oversees a championship
seated or to be seated at that table today; never a Director whose reach across the sede is another championship's,
or a championship over or not yet begun (issue 33)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.support.claims import make_pair, make_user
from tests.support.planilla import text
from tournament.models import Championship, Mesa

pytestmark = pytest.mark.django_db


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def director_at(sede, name, start, end):
    """A championship at ``sede`` from ``start`` to ``end`` (days from today), and its Director (who holds no other role)."""
    today = timezone.localdate()
    director = make_user(f"director_{name}")
    Championship.objects.create(
        name=name,
        sede=sede,
        start_date=today + datetime.timedelta(days=start),
        end_date=today + datetime.timedelta(days=end),
        director=director,
    )
    return director


def card(client, table):
    return client.get(reverse("access:table_card", args=[table.pk]))


def renew(client, table):
    return client.post(reverse("access:new_pin", args=[table.pk]))


@pytest.fixture
def others(championship):
    """Directors of the mesa's sede: of a championship that ended in January 2025, of one that begins next week,
    and of another championship played there today (its mesa at table 5)."""
    sede = championship.sede
    today = timezone.localdate()
    past = make_user("director_enero")
    Championship.objects.create(
        name="Enero",
        sede=sede,
        start_date=datetime.date(2025, 1, 10),
        end_date=datetime.date(2025, 1, 11),
        director=past,
    )
    beside = director_at(sede, "Vecino", 0, 0)
    neighbour = Championship.objects.get(name="Vecino")
    Mesa.objects.create(
        championship=neighbour,
        round=1,
        position=1,
        table_number=5,
        pair_a=make_pair(neighbour, "Los Vecinos", 1),
        pair_b=make_pair(neighbour, "Las Vecinas", 2),
        status=Mesa.Status.READY,
    )
    assert today.year > 2025
    return {"past": past, "future": director_at(sede, "Próximo", 7, 8), "beside": beside}


@pytest.mark.parametrize("who", ["past", "future"])
@pytest.mark.slow
def test_a_director_of_a_championship_over_or_not_begun_prints_no_table_of_the_sede(others, championship, table, who):
    client = signed_in(others[who])
    pin = table.pin
    for number in (3, 4, 5, 8):
        at = championship.sede.tables.get(number=number)
        assert card(client, at).status_code == 403
        assert pin not in card(client, at).content.decode()
        assert renew(client, at).status_code == 403
    table.refresh_from_db()
    assert table.pin == pin and table.pin_issued_by is None


def test_a_director_of_another_championship_today_prints_no_table_the_mesas_of_this_one_hold(
    others, championship, mesa, table
):
    client = signed_in(others["beside"])
    pin = table.pin
    response = card(client, table)
    assert response.status_code == 403 and pin not in response.content.decode()
    assert renew(client, table).status_code == 403
    table.refresh_from_db()
    assert table.pin == pin
    # Table 5 holds that Director's own mesa: that card is theirs.
    assert card(client, championship.sede.tables.get(number=5)).status_code == 200


def test_the_director_prints_the_tables_of_their_championship_today_and_no_other(people, others, championship, table):
    client = signed_in(people["director"])
    assert card(client, table).status_code == 200  # the mesa is seated there
    # Table 5 holds the other championship's mesa played there today: not this Director's.
    assert card(client, championship.sede.tables.get(number=5)).status_code == 403
    assert renew(client, championship.sede.tables.get(number=5)).status_code == 403
    assert renew(client, table).status_code == 302


def test_the_director_alone_at_the_sede_today_prints_its_free_tables(people, championship, table):
    client = signed_in(people["director"])
    free = championship.sede.tables.get(number=7)
    assert card(client, free).status_code == 200
    assert renew(client, free).status_code == 302


@pytest.mark.slow
def test_the_director_of_a_championship_over_prints_not_even_its_own_tables(people, championship, table):
    championship.start_date = championship.end_date = timezone.localdate() - datetime.timedelta(days=1)
    championship.save()
    client = signed_in(people["director"])
    assert card(client, table).status_code == 403
    assert renew(client, table).status_code == 403
    # Organisers print every card, any day.
    assert card(signed_in(people["staff"]), table).status_code == 200


@pytest.mark.parametrize("who", ["past", "beside"])
@pytest.mark.slow
def test_the_cards_of_the_day_print_only_the_tables_their_reader_may_print(people, others, championship, table, who):
    """The cards of the day hold every table's PIN: a Director reads there only the PINs the table card gives them."""
    past = Championship.objects.get(director=others[who])
    response = signed_in(others[who]).get(reverse("report:cards", args=[past.pk]))
    assert response.status_code == 200
    assert table.pin not in text(response.content)
    # The championship's own Director, today: the table its mesa holds, and the free ones, not table 5.
    held = championship.sede.tables.get(number=5)
    held.pin = "771133"
    held.save(update_fields=["pin"])
    own = text(signed_in(people["director"]).get(reverse("report:cards", args=[championship.pk])).content)
    assert table.pin in own and held.pin not in own
