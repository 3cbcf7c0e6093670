"""A championship with one mesa ready to play, and the people around it."""

import base64
import datetime
import struct
import uuid
import zlib

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from rest_framework.test import APIClient

from refereeing.claimlog.log import record_claim
from tests.tournament.factories import organiser
from tournament.models import Championship, Mesa, Pair, Player


def make_user(username, **extra):
    # No password: hashing one costs a second; the tests sign in with force_login.
    return get_user_model().objects.create_user(username, password=None, **extra)


@pytest.fixture
def people(db):
    return {
        "juez": make_user("juez", first_name="Rosa", last_name="Guamán"),
        "other_juez": make_user("otro_juez"),
        "inspector": make_user("inspector"),
        "staff": organiser("organizador"),
        "director": make_user("director"),
        "stranger": make_user("curioso"),
    }


def make_pair(championship, name, seed):
    pair = Pair.objects.create(championship=championship, name=name, seed=seed)
    Player.objects.create(pair=pair, number=1, full_name=f"{name} uno", is_representative=True)
    Player.objects.create(pair=pair, number=2, full_name=f"{name} dos")
    return pair


@pytest.fixture
def championship(people):
    return Championship.objects.create(
        name="Campeonato de Cuarenta",
        edition="2026",
        start_date=datetime.date(2026, 11, 21),
        end_date=datetime.date(2026, 11, 22),
        director=people["director"],
    )


@pytest.fixture
def mesa(championship, people):
    """A ready mesa at table 3, judged by ``people["juez"]``."""
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=1,
        table_number=3,
        pair_a=make_pair(championship, "Los Ases", 1),
        pair_b=make_pair(championship, "Las Sotas", 2),
        juez=people["juez"],
        inspector=people["inspector"],
        status=Mesa.Status.READY,
        pin="482913",
    )


@pytest.fixture
def other_mesa(championship, people):
    """A second ready mesa at table 4, judged by ``people["other_juez"]``."""
    return Mesa.objects.create(
        championship=championship,
        round=1,
        position=2,
        table_number=4,
        pair_a=make_pair(championship, "Los Reyes", 3),
        pair_b=make_pair(championship, "Los Sietes", 4),
        juez=people["other_juez"],
        status=Mesa.Status.READY,
        pin="105577",
    )


def api_client(user=None):
    """A client that checks CSRF like a browser does, signed in as ``user``."""
    client = APIClient(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def post_json(client, url, body):
    """POST ``body`` as JSON with the CSRF token from the cookie, as the screen's JS does."""
    if "csrftoken" not in client.cookies:
        client.get("/cuenta/entrar/")  # any page with a form sets the cookie
    token = client.cookies["csrftoken"].value
    return client.post(url, body, format="json", HTTP_X_CSRFTOKEN=token)


def claim_body(claim, client_id=None, **extra):
    return {"client_id": str(client_id or uuid.uuid4()), "claim": claim, **extra}


MANO = {"kind": "mano"}
CAIDA_A = {"kind": "caida", "pair": "A", "player": 1}
CAIDA_B = {"kind": "caida", "pair": "B", "player": 1}


def ajuste(pair, points):
    """The Director's adjustment (Art. 18): any points, to move a mesa along quickly."""
    return {"kind": "ajuste", "pair": pair, "points": points, "reason": "prueba"}


def png(width=4, height=2, ink=True):
    """A real, tiny greyscale PNG: magic bytes, IHDR, one IDAT, IEND.

    White, with a black first pixel on each line when ``ink`` (a signature
    must hold a stroke); all white, an empty box, without.
    """

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    line = (b"\x00" if ink else b"\xff") + b"\xff" * (width - 1) if width else b""
    raw = b"".join(b"\x00" + line for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def data_url(data):
    return "data:image/png;base64," + base64.b64encode(data).decode()


SIGNED = data_url(png())


@pytest.fixture
def english():
    """Messages in English, for the tests that read them."""
    with translation.override("en"):
        yield


@pytest.fixture
def played(mesa, people):
    """A mesa in play where pair A's caída was just accepted (seq 2)."""
    record_claim(mesa, MANO, uuid.uuid4(), user=people["juez"])
    record_claim(mesa, CAIDA_A, uuid.uuid4(), user=people["juez"])
    mesa.refresh_from_db()
    return mesa
