"""The live streams on the production server: across its workers through Redis, and never in the way of a page.

The server runs as the README starts it (gunicorn with two uvicorn workers,
``DEBUG=false``) with ``REDIS_URL``. A claim logged anywhere reaches every
stream, whichever worker holds it; 300 open streams leave the pages and the
API answering within a second (a stream holds a socket, not a view slot).
"""

import queue
import threading
import time
import uuid

import pytest
import requests
from django.test import override_settings

from live import broker
from refereeing.claimlog.log import record_claim
from tests.tournament.factories import championship, jueces, pairs, start
from tournament import draws, seating

from .production import production_server

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = "redis://127.0.0.1:6379/6"


@pytest.fixture
def mesa():
    champ = championship(name="Copa Pastaza")
    pairs(champ, 4)
    jueces(2)
    draws.draw_bracket(champ, seed=1)
    seating.assign_tables(champ)
    seating.start_round(champ, "W", 1)
    mesa = champ.mesas.filter(bracket="W", round=1).order_by("position").first()
    start(mesa)
    return mesa


def follow(url, heard, opened):
    """Read one stream's events into ``heard`` as (stream url, event name, data line) until it closes."""
    with requests.get(url, stream=True, timeout=(5, 30)) as response:
        assert response.status_code == 200
        opened.release()
        name = None
        for line in response.iter_lines(decode_unicode=True):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                heard.put((url, name, line[6:]))


@pytest.fixture
def production(production_static):
    with production_server(production_static, workers=2, REDIS_URL=REDIS) as url:
        yield url


def test_a_claim_reaches_every_stream_whichever_worker_holds_it(production, mesa):
    heard, opened = queue.Queue(), threading.Semaphore(0)
    streams = [f"{production}/flujo/mesa/{mesa.pk}/?n={n}" for n in range(8)]
    streams += [f"{production}/flujo/campeonato/{mesa.championship_id}/?vista=tablero&lang=en&n={n}" for n in range(8)]
    for url in streams:
        threading.Thread(target=follow, args=(url, heard, opened), daemon=True).start()
    for _ in streams:
        assert opened.acquire(timeout=30)
    time.sleep(0.5)  # every worker's subscription is up
    with override_settings(REDIS_URL=REDIS):
        broker._redis_client = None
        try:
            record_claim(mesa, {"kind": "caida", "pair": "A"}, uuid.uuid4(), user=mesa.juez)
        finally:
            broker._redis_client = None
    mesa.refresh_from_db()
    reached, deadline = set(), time.monotonic() + 10
    while reached != set(streams) and time.monotonic() < deadline:
        try:
            url, name, data = heard.get(timeout=1)
        except queue.Empty:
            continue
        if f'"seq":{mesa.last_seq}' in data or (name == "rows" and f'data-seq=\\"{mesa.last_seq}\\"' in data):
            reached.add(url)
    assert reached == set(streams)


def test_open_streams_never_keep_a_page_waiting(production, mesa):
    heard, opened = queue.Queue(), threading.Semaphore(0)
    for n in range(300):
        url = f"{production}/flujo/campeonato/{mesa.championship_id}/?vista=tablero&lang=es-ec&n={n}"
        threading.Thread(target=follow, args=(url, heard, opened), daemon=True).start()
    for _ in range(300):
        assert opened.acquire(timeout=60)
    for path in ("/", f"/en-vivo/{mesa.championship_id}/", f"/campeonatos/{mesa.championship_id}/llaves/"):
        started = time.monotonic()
        assert requests.get(production + path, timeout=5).status_code == 200
        assert time.monotonic() - started < 1, path
