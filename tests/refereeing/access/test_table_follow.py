"""A device opened with a table's PIN follows its table (``refereeing.access``, issue #23): which mesa it shows,
when it moves on, and what it says between mesas."""

import pytest

from refereeing.access.permissions import table_mesa, table_news
from tests.support.claims import api_client, make_pair
from tests.support.factories import play
from tests.support.planilla_factories import sign_all
from tests.support.rows import force
from tournament.models import Mesa

from .test_access import open_with_pin

pytestmark = pytest.mark.django_db


@pytest.fixture
def following(championship):
    """The mesa played next at table 3, once seated there."""
    return Mesa.objects.create(
        championship=championship,
        round=2,
        position=1,
        pair_a=make_pair(championship, "Los Reyes", 3),
        pair_b=make_pair(championship, "Los Sietes", 4),
        status=Mesa.Status.READY,
    )


def seat(mesa, number=3):
    mesa.table_number = number
    mesa.save(update_fields=["table_number"])


def state(device, table, shown):
    return device.get(f"/acceso/mesa-fisica/{table.pk}/estado/", {"shown": shown.pk}).json()


def test_the_table_shows_the_mesa_in_play_before_the_next_one_seated(mesa, table, following):
    seat(following)
    play_first = table_mesa(table)
    assert play_first == mesa  # both ready: the earlier round first
    force(Mesa.objects.filter(pk=following.pk), status=Mesa.Status.IN_PLAY)
    assert table_mesa(table) == following  # one in play comes before one waiting to start


@pytest.mark.slow
def test_the_device_moves_on_once_the_mesa_is_decided_and_signed(mesa, table, following):
    device = api_client()
    open_with_pin(device, 3, "482913")
    assert state(device, table, mesa) == {
        "mesa": mesa.pk,
        "url": f"/mesa/{mesa.pk}/",
        "go": False,
        "message": "Lo próximo en la mesa física 3: Los Ases contra Las Sotas.",
    }
    play(mesa)
    mesa.refresh_from_db()
    assert state(device, table, mesa) == {
        "mesa": None,
        "url": None,
        "go": False,
        "message": "Todavía no hay nada asignado a la mesa física 3.",
    }
    # The table's screen says the same between mesas, and looks again by itself.
    page = device.get(f"/acceso/mesa-fisica/{table.pk}/ahora/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Todavía no hay nada asignado a la mesa física 3." in html and 'http-equiv="refresh"' in html
    seat(following)
    # Not signed yet: the next mesa is offered, not opened.
    assert state(device, table, mesa)["go"] is False
    assert state(device, table, mesa)["mesa"] == following.pk
    sign_all(mesa)
    assert state(device, table, mesa)["go"] is True
    # The device may act at the next mesa with no sign-in, and the table's screen goes there.
    assert device.get(f"/api/mesas/{following.pk}/").json()["access"] == "act"
    assert device.get(f"/acceso/mesa-fisica/{table.pk}/ahora/")["Location"] == f"/mesa/{following.pk}/"


def test_a_mesa_moved_to_another_table_is_left_at_once(mesa, table, following):
    device = api_client()
    open_with_pin(device, 3, "482913")
    seat(following)
    seat(mesa, 5)
    mesa.refresh_from_db()
    news = state(device, table, mesa)
    assert news["mesa"] == following.pk and news["go"] is True
    # And the device has no access at the mesa that left its table.
    assert device.get(f"/api/mesas/{mesa.pk}/").status_code == 403


def test_only_a_device_opened_at_the_table_is_told_anything(mesa, table, other_table, people):
    stranger = api_client()
    assert stranger.get(f"/acceso/mesa-fisica/{table.pk}/estado/").status_code == 403
    assert stranger.get(f"/acceso/mesa-fisica/{table.pk}/ahora/")["Location"] == f"/acceso/mesa-fisica/{table.pk}/"
    device = api_client()
    open_with_pin(device, 4, "105577")
    assert device.get(f"/acceso/mesa-fisica/{table.pk}/estado/").status_code == 403
    # A bad ``shown`` is no mesa, never an error.
    opened = api_client()
    open_with_pin(opened, 3, "482913")
    for shown in ("x", "9" * 40, "-1", ""):
        answer = opened.get(f"/acceso/mesa-fisica/{table.pk}/estado/", {"shown": shown})
        assert answer.status_code == 200 and answer.json()["mesa"] == mesa.pk


def test_nothing_seated_news_names_the_table(table):
    empty = table.sede.tables.get(number=8)
    assert table_news(empty) == {
        "mesa": None,
        "go": False,
        "message": "Todavía no hay nada asignado a la mesa física 8.",
    }
