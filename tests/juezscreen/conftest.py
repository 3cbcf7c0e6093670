"""A championship with one mesa, its juez and another juez, and a way to log in a browser."""

import datetime
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from refereeing.claimlog import log as claimlog
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
    return Championship.objects.create(name="Campeonato de Riobamba", edition="2026", start_date=day, end_date=day)


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


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARTIFACTS.mkdir(exist_ok=True)


def shot(page, name, **kwargs):
    page.screenshot(path=str(ARTIFACTS / f"juezscreen-{name}.png"), **kwargs)


def open_screen(page, live_server, mesa, user=None):
    login(page.context, live_server, user or mesa.juez)
    response = page.goto(f"{live_server.url}/mesa/{mesa.pk}/")
    expect(page.locator("#st-chica")).not_to_have_text("–")
    return response


def score(page, side):
    return page.locator(f".pair-card[data-side={side}] .score-num")


def draw(page, canvas, finger):
    """A zigzag across the pad: with a finger (touch events) or a mouse."""
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    points = [
        (box["x"] + box["width"] * (0.1 + 0.08 * i), box["y"] + box["height"] * (0.3 + 0.4 * (i % 2)))
        for i in range(10)
    ]
    if finger:
        # Playwright has taps but no swipes: a touch sequence through CDP, with
        # its own touch id so that it does not clash with Playwright's taps.
        cdp = page.context.new_cdp_session(page)
        x, y = points[0]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        for x, y in points[1:]:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        # The finger rests before it lifts: a lift in motion is a fling, and
        # the browser swallows the next tap to stop it.
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y, "id": 7}]})
        page.wait_for_timeout(150)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(*points[0])
        page.mouse.down()
        for x, y in points[1:]:
            page.mouse.move(x, y, steps=3)
        page.mouse.up()


def login(context, live_server, user):
    """Give a browser context the session of ``user``."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])


MANO = {"kind": "mano"}


def caida(pair):
    return {"kind": "caida", "pair": pair}


def data_for_a():
    """Two manos and a conteo of 30 cards to 10: +16 for A (Art. 15h)."""
    return [MANO, MANO, {"kind": "conteo", "cards": {"A": 30, "B": 10}}]


# Chica 1 to A, 40 to 0: the mesa ends by zapatería (Art. 3g.6, 12).
ZAPATERIA = data_for_a() + data_for_a() + [MANO] + [caida("A")] * 4


def log_claims(mesa, claims):
    """Log ``claims`` at ``mesa`` through the claim log service, as a tablet would."""
    for claim in claims:
        claimlog.record_claim(mesa, claim, str(uuid.uuid4()), user=mesa.juez)
    mesa.refresh_from_db()
