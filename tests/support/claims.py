"""What the juez's tablet sends to the claim API: a CSRF-checking client, claim bodies, and signature PNGs."""

import base64
import struct
import uuid
import zlib

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournament.models import Pair, Player


def make_user(username, **extra):
    # No password: hashing one costs a second; the tests sign in with force_login.
    return get_user_model().objects.create_user(username, password=None, **extra)


def make_pair(championship, name, seed):
    pair = Pair.objects.create(championship=championship, name=name, seed=seed)
    Player.objects.create(pair=pair, number=1, full_name=f"{name} uno", is_representative=True)
    Player.objects.create(pair=pair, number=2, full_name=f"{name} dos")
    return pair


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


def caida(pair):
    return {"kind": "caida", "pair": pair}


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


def form_body(**change):
    """What the appeal form at the table posts (Art. 17), with ``change`` over it."""
    return {
        "pair": "B",
        "seq": "2",
        "reason": "Played card.",
        "name": "Las Sotas uno",
        "signature": SIGNED,
        "client_id": str(uuid.uuid4()),
        **change,
    }
