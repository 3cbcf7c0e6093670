"""A championship with one mesa, its juez and another juez (the browser helpers are in tests/support/tablet.py)."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from tests.support import factories
from tournament.models import Championship, Mesa, Pair, Player


def make_pair(championship, name, players):
    pair = Pair.objects.create(championship=championship, name=name)
    for number, full_name in enumerate(players, start=1):
        Player.objects.create(pair=pair, number=number, full_name=full_name, is_representative=number == 1)
    return pair


@pytest.fixture
def juez(db):
    return get_user_model().objects.create_user(
        "juez1", password="tablet-secret", first_name="Rosa", last_name="Guamán"
    )


@pytest.fixture
def other_juez(db):
    return get_user_model().objects.create_user("juez2", password="tablet-secret")


@pytest.fixture
def championship(db):
    day = datetime.date(2026, 11, 21)
    return Championship.objects.create(
        name="Campeonato de Riobamba", edition="2026", start_date=day, end_date=day, sede=factories.sede()
    )


@pytest.fixture
def mesa(championship, juez):
    pair_a = make_pair(championship, "Los Ases", ["Ana Chávez", "Luis Paredes"])
    pair_b = make_pair(championship, "Caballos de Espada", ["Marta Yépez", "Jorge Cando"])
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=1,
        pair_a=pair_a,
        pair_b=pair_b,
        table_number=7,
        juez=juez,
        status=Mesa.Status.READY,
    )


# The juez's devices: a phone in portrait, a tablet in portrait and in landscape, all touch.
SIZES = {
    "phone": {"width": 390, "height": 844},
    "portrait": {"width": 768, "height": 1024},
    "landscape": {"width": 1024, "height": 768},
}


@pytest.fixture(params=list(SIZES))
def device_page(request, browser, browser_context_args):
    """A page on each of the juez's devices (``page.name`` says which)."""
    context = browser.new_context(
        **{**browser_context_args, "viewport": SIZES[request.param], "is_mobile": request.param == "phone"}
    )
    page = context.new_page()
    page.name = request.param
    yield page
    context.close()
