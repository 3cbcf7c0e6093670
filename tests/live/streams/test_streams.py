"""The live streams (``live.streams.app``, ``live.streams.hub``), the broker that feeds them (``live.broker``) and what
says a mesa changed (``live.notify``), driven as an ASGI server drives them.

Nothing private travels on a stream: no cédula, no phone, no pair's link.
"""

import asyncio
import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import OperationalError, transaction
from django.test import override_settings

from live import broker, notify
from live.streams import app as streams_app
from live.streams import hub as hub_module
from live.streams.app import Streams
from live.streams.hub import BoardStream, Hub, current_hub
from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, mesa_in_play, pairs
from tournament.draws import draws
from tournament.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

CEDULA, PHONE = "0601234567", "0991234567"


@pytest.fixture
def mesa():
    """A championship of four pairs (with cédulas and phones) at its tables, one mesa in play."""
    mesa = mesa_in_play("Copa Imbabura")
    Player.objects.filter(pair__championship=mesa.championship_id).update(id_number=CEDULA, phone=PHONE)
    return mesa


def claim(mesa):
    """A caída of pair A, logged by the mesa's juez."""
    record_claim(mesa, {"kind": "caida", "pair": "A"}, uuid.uuid4(), user=mesa.juez)


class Client:
    """One request to the application, read event by event, then left (``http.disconnect``)."""

    def __init__(self, path, query="", method="GET"):
        self.scope = {"type": "http", "path": path, "method": method, "query_string": query.encode(), "headers": []}
        self.messages = asyncio.Queue()
        self.gone = asyncio.Event()

    async def receive(self):
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        await self.messages.put(message)

    def start(self, app):
        self.task = asyncio.ensure_future(app(self.scope, self.receive, self.send))
        return self

    async def answer(self):
        return await asyncio.wait_for(self.messages.get(), 5)

    async def events(self, count):
        """The next ``count`` events, as (name, data, id)."""
        found, text = [], ""
        while len(found) < count:
            text += (await self.answer())["body"].decode()
            *blocks, text = text.split("\n\n")
            for block in blocks:
                fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and line[0] != ":")
                if "event" in fields:
                    found.append((fields["event"], json.loads(fields["data"]), fields.get("id")))
        return found

    async def leave(self):
        self.gone.set()
        await asyncio.wait_for(self.task, 5)


def run(coroutine):
    """Run ``coroutine`` on an event loop of its own thread: the browser tests leave Playwright's loop running in
    this one, where ``asyncio.run`` refuses to start. The database is read outside it (or through ``in_thread``): a
    connection opened in that thread would be kept from the pool when the thread ends, and after a few tests the
    streams would wait for one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def streams(most=5000):
    async def django(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"django"})

    return Streams(django, most=most)


@pytest.mark.slow
def test_a_mesa_stream_starts_with_the_seq_now_and_passes_each_change_on_at_once(mesa):
    async def scenario():
        client = Client(f"/flujo/mesa/{mesa.pk}/").start(streams())
        start = await client.answer()
        assert start["status"] == 200 and (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
        assert await client.events(1) == [("seq", {"seq": mesa.last_seq}, str(mesa.last_seq))]
        current_hub().take({"c": mesa.championship_id, "m": [mesa.pk], "s": {str(mesa.pk): mesa.last_seq + 1}})
        current_hub().take(
            {"c": mesa.championship_id, "m": [mesa.pk + 1000], "s": {str(mesa.pk + 1000): 9}}
        )  # not this mesa
        current_hub().take({"c": mesa.championship_id, "m": [mesa.pk], "s": {}})  # an appeal moved: no seq
        assert await client.events(2) == [
            ("seq", {"seq": mesa.last_seq + 1}, str(mesa.last_seq + 1)),
            ("seq", {"seq": None}, None),
        ]
        await client.leave()
        assert mesa.pk not in current_hub().mesas

    run(scenario())


@pytest.mark.slow
def test_a_board_stream_starts_with_every_row_then_gets_the_changed_rows_in_one_batch(mesa):
    champ = mesa.championship
    other = champ.mesas.filter(bracket="W", round=1).order_by("position").last()
    every_mesa = set(champ.mesas.values_list("pk", flat=True))

    async def scenario():
        client = Client(f"/flujo/campeonato/{champ.pk}/", "vista=tablero&lang=en").start(streams())
        await client.answer()
        [(name, rows, _)] = await client.events(1)
        assert name == "rows" and set(map(int, rows)) == every_mesa
        assert "In play" in rows[str(mesa.pk)] and f'data-seq="{mesa.last_seq}"' in rows[str(mesa.pk)]
        await hub_module.in_thread(claim, mesa)
        current_hub().take({"c": champ.pk, "m": [mesa.pk], "s": {}})
        current_hub().take({"c": champ.pk, "m": [other.pk], "s": {}})
        [(name, rows, _)] = await client.events(1)
        assert name == "rows" and set(map(int, rows)) == {mesa.pk, other.pk}  # both changes, one event
        assert "2 – 0" in rows[str(mesa.pk)] and "Caída · A" in rows[str(mesa.pk)]
        await client.leave()

    run(scenario())


@pytest.mark.slow
def test_a_pair_page_stream_gets_only_its_mesas_and_the_projector_its_calls_too(mesa):
    champ = mesa.championship
    waiting = champ.mesas.filter(bracket="W", round=1).select_related("pair_a", "pair_b").order_by("position").last()

    async def scenario():
        pair = Client(f"/flujo/campeonato/{champ.pk}/", f"vista=tablero&lang=es-ec&mesas={mesa.pk}").start(streams())
        projector = Client(f"/flujo/campeonato/{champ.pk}/", "vista=proyector&lang=es-ec").start(streams())
        await pair.answer()
        await projector.answer()
        [(_, rows, _)] = await pair.events(1)
        assert list(rows) == [str(mesa.pk)]
        (_, rows, _), (name, calls, _) = await projector.events(2)
        assert name == "calls" and f"{waiting.pair_a.name} y {waiting.pair_b.name} → mesa física" in calls
        assert 'class="row-in_play"' in rows[str(mesa.pk)]
        await pair.leave()
        await projector.leave()

    run(scenario())


@pytest.mark.slow
def test_a_reload_is_asked_when_the_bracket_itself_changes(mesa):
    async def scenario():
        client = Client(f"/flujo/campeonato/{mesa.championship_id}/").start(streams())
        await client.answer()
        await client.events(1)
        current_hub().take({"c": mesa.championship_id, "m": None, "s": {}})
        assert [name for name, *_ in await client.events(1)] == ["reload"]
        await client.leave()

    run(scenario())


@pytest.mark.parametrize(
    ("path", "query", "method", "status"),
    [
        ("/flujo/mesa/{mesa}/", "", "POST", 405),
        ("/flujo/mesa/999999999/", "", "GET", 404),
        ("/flujo/campeonato/999999999/", "", "GET", 404),
        ("/flujo/otra/", "", "GET", 404),
        ("/flujo/mesa/{mesa}/x", "", "GET", 404),
        ("/flujo/campeonato/{champ}/", "vista=planilla", "GET", 400),
        ("/flujo/campeonato/{champ}/", "lang=qu", "GET", 400),
        ("/flujo/campeonato/{champ}/", "mesas=1,dos", "GET", 400),
        ("/flujo/campeonato/{champ}/", "mesas=" + ",".join(map(str, range(1, 70))), "GET", 400),
        ("/flujo/campeonato/{champ}/", "x=" + "a" * 2000, "GET", 400),
        ("/flujo/campeonato/{champ}/", "lang=%ED%A0%80%00", "GET", 400),
    ],
)
@pytest.mark.slow
def test_bad_requests_get_a_plain_refusal_never_a_stream(mesa, path, query, method, status):
    path = path.format(mesa=mesa.pk, champ=mesa.championship_id)

    async def scenario():
        client = Client(path, query, method).start(streams())
        start, body = await client.answer(), await client.answer()
        await asyncio.wait_for(client.task, 5)
        return start, body, (len(current_hub().mesas), len(current_hub().boards))

    start, body, left = run(scenario())
    assert start["status"] == status and dict(start["headers"])[b"content-type"].startswith(b"text/plain")
    assert body["body"]
    assert left == (0, 0)  # no stream stays behind in the hub


@pytest.mark.slow
def test_a_process_full_of_streams_says_503_and_when_to_retry(mesa):
    async def scenario():
        client = Client(f"/flujo/mesa/{mesa.pk}/").start(streams(most=0))
        return await client.answer()

    start = run(scenario())
    assert start["status"] == 503 and dict(start["headers"])[b"retry-after"] == b"10"


def test_streams_opening_at_once_read_the_database_on_a_few_threads_and_leave_the_views_a_connection(mesa, monkeypatch):
    """A venue's tablets reconnect all at once after a restart: their first reads ran on as many threads as Python's
    default executor has (the cores + 4), each holding a pooled connection, and the claims waited for one."""
    reading, most = [0], [0]
    lock = threading.Lock()

    def last_seq(mesa_id):
        with lock:
            reading[0] += 1
            most[0] = max(most[0], reading[0])
        time.sleep(0.05)
        with lock:
            reading[0] -= 1
        return 7

    monkeypatch.setattr(streams_app, "_last_seq", last_seq)

    async def scenario():
        app = streams()
        clients = [Client(f"/flujo/mesa/{mesa.pk}/").start(app) for _ in range(12)]
        starts = [await client.answer() for client in clients]
        firsts = [await client.events(1) for client in clients]
        for client in clients:
            await client.leave()
        return starts, firsts

    starts, firsts = run(scenario())
    assert [start["status"] for start in starts] == [200] * 12
    assert firsts == [[("seq", {"seq": 7}, "7")]] * 12
    assert most[0] == hub_module.READERS
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if pool:  # PostgreSQL: the pool keeps connections for the views beside the streams' readers
        assert hub_module.READERS < pool["max_size"]


@pytest.mark.parametrize("path", ["/flujo/mesa/{mesa}/", "/flujo/campeonato/{champ}/"])
@pytest.mark.slow
def test_the_cap_on_streams_is_exact_when_they_all_arrive_at_once(mesa, path):
    path = path.format(mesa=mesa.pk, champ=mesa.championship_id)

    async def scenario():
        app = streams(most=3)
        clients = [Client(path).start(app) for _ in range(10)]
        statuses = sorted([(await client.answer())["status"] for client in clients])
        for client in clients:
            await client.leave()
        return statuses, app.open

    statuses, left_open = run(scenario())
    assert statuses == [200] * 3 + [503] * 7
    assert left_open == 0


@pytest.mark.parametrize("path", ["/flujo/mesa/{mesa}/", "/flujo/campeonato/{champ}/"])
@pytest.mark.slow
def test_a_database_that_does_not_answer_is_a_503_on_both_kinds_of_streams(mesa, path, monkeypatch):
    def down(*args):
        raise OperationalError("connection failed: server closed the connection unexpectedly")

    monkeypatch.setattr(streams_app, "_last_seq", down)
    monkeypatch.setattr(streams_app.fragments, "render", down)
    path = path.format(mesa=mesa.pk, champ=mesa.championship_id)

    async def scenario():
        app = streams()
        client = Client(path).start(app)
        start = await client.answer()
        await asyncio.wait_for(client.task, 5)
        return start, app.open, (len(current_hub().mesas), len(current_hub().boards))

    start, left_open, in_hub = run(scenario())
    assert start["status"] == 503 and dict(start["headers"])[b"retry-after"] == b"10"
    assert left_open == 0 and in_hub == (0, 0)


@pytest.mark.slow
def test_a_client_that_stops_reading_loses_its_stream_and_holds_up_no_one(mesa, monkeypatch):
    monkeypatch.setattr(hub_module, "SEND_SECONDS", 0.2)
    monkeypatch.setattr(hub_module, "WATCH_SECONDS", 0.05)

    async def scenario():
        stuck = asyncio.Event()
        writes = []

        async def send(message):
            writes.append(message)
            if len(writes) > 2:
                await stuck.wait()  # its socket is full: the write never completes

        async def receive():
            await stuck.wait()

        scope = {"type": "http", "path": f"/flujo/mesa/{mesa.pk}/", "method": "GET", "query_string": b"", "headers": []}
        task = asyncio.ensure_future(streams()(scope, receive, send))
        await asyncio.sleep(0.1)
        reader = Client(f"/flujo/mesa/{mesa.pk}/").start(streams())
        await reader.answer()
        await reader.events(1)
        for seq in range(100):  # more than a queue holds, at a pace a reading client keeps up with
            current_hub().take({"c": mesa.championship_id, "m": [mesa.pk], "s": {str(mesa.pk): seq}})
            await asyncio.sleep(0.001)
        await asyncio.wait_for(task, 5)  # the stuck stream ended
        assert [data["seq"] for _, data, _ in await reader.events(100)] == list(range(100))  # the other read on
        await reader.leave()
        assert mesa.pk not in current_hub().mesas

    run(scenario())


def test_everything_else_goes_to_django(db):
    async def scenario():
        client = Client("/en-vivo/1/").start(streams())
        await client.answer()
        return (await client.answer())["body"]

    assert run(scenario()) == b"django"


@pytest.mark.slow
def test_no_stream_carries_a_cedula_a_phone_or_a_pair_link(mesa):
    champ = mesa.championship
    tokens = list(champ.pairs.values_list("token", flat=True))

    async def scenario():
        texts = []
        for query in ("vista=tablero&lang=es-ec", "vista=proyector&lang=en", f"mesas={mesa.pk}"):
            client = Client(f"/flujo/campeonato/{champ.pk}/", query).start(streams())
            await client.answer()
            texts.append(json.dumps(await client.events(1)))
            await client.leave()
        return "".join(texts)

    text = run(scenario())
    assert champ.pairs.first().name in text
    assert CEDULA not in text and PHONE not in text
    assert not [token for token in tokens if token in text]


@pytest.mark.slow
def test_a_saved_mesa_is_published_once_committed_with_its_seq(mesa, monkeypatch):
    published = []
    monkeypatch.setattr(broker, "publish", published.append)
    with transaction.atomic():
        record_claim(mesa, {"kind": "caida", "pair": "A"}, uuid.uuid4(), user=mesa.juez)
        assert published == []  # nothing before the commit
    mesa.refresh_from_db()
    assert {"c": mesa.championship_id, "m": [mesa.pk], "s": {mesa.pk: mesa.last_seq}} in published


def test_a_draw_asks_every_page_to_reload(monkeypatch):
    published = []
    monkeypatch.setattr(broker, "publish", published.append)
    champ = championship()
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    assert {"c": champ.pk, "m": None, "s": {}} in published


@pytest.mark.parametrize("redis_url", ["", "redis://127.0.0.1:6379/5"], ids=["in-process", "redis"])
@pytest.mark.slow
def test_the_broker_carries_a_message_from_any_thread_to_each_subscriber(redis_url):
    async def scenario():
        first, second = broker.subscribe(), broker.subscribe()
        heard = [asyncio.ensure_future(anext(first)), asyncio.ensure_future(anext(second))]
        await asyncio.sleep(0.3)  # both subscribed
        await asyncio.to_thread(broker.publish, {"c": 1, "m": [2], "s": {"2": 3}})
        messages = await asyncio.wait_for(asyncio.gather(*heard), 5)
        await first.aclose()
        await second.aclose()
        return messages

    before = list(broker._local_subscribers)  # the live server's own hub may be subscribed
    with override_settings(REDIS_URL=redis_url):
        broker._redis_client = None
        try:
            assert run(scenario()) == [{"c": 1, "m": [2], "s": {"2": 3}}] * 2
        finally:
            broker._redis_client = None
    assert broker._local_subscribers == before  # the two left once closed


def test_publishing_with_redis_down_logs_and_never_fails_the_write(caplog, monkeypatch):
    import redis

    # The client is the module's own, not a global another test's server thread may have set meanwhile.
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=2, socket_timeout=2)
    monkeypatch.setattr(broker, "_redis", lambda: down)
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        broker.publish({"c": 1, "m": None, "s": {}})
    assert "Could not publish" in caplog.text


@pytest.mark.slow
def test_a_rolled_back_change_is_never_published(mesa, monkeypatch):
    published = []
    monkeypatch.setattr(broker, "publish", published.append)
    with pytest.raises(RuntimeError), transaction.atomic():
        notify.changed(mesa.championship_id, [mesa.pk])
        raise RuntimeError
    assert published == []


def test_a_batch_to_many_boards_lets_the_event_loop_turn_between_slices(monkeypatch):
    """Handed out whole, a thousand boards' writes held a worker's loop in front of the tablets' seqs."""

    async def rendered(function, championship_id, mesa_ids, views):
        return {view: {"rows": {pk: "<tr></tr>" for pk in mesa_ids}, "calls": None} for view in views}

    monkeypatch.setattr(hub_module, "in_thread", rendered)

    async def scenario():
        hub = Hub()
        boards = [BoardStream(1, "tablero", "es-ec") for _ in range(3 * hub_module.SLICE)]
        hub.boards[1].update(boards)
        flushing = asyncio.ensure_future(hub.flush({1: {7}}))
        while not any(b.queue.qsize() for b in boards):
            await asyncio.sleep(0)
        handed_out = sum(b.queue.qsize() for b in boards)  # what this coroutine saw, running mid-batch
        await flushing
        assert handed_out == hub_module.SLICE < len(boards)
        assert all(b.queue.get_nowait() == b'event: rows\ndata: {"7":"<tr></tr>"}\n\n' for b in boards)

    run(scenario())


@pytest.mark.slow
def test_processes_that_hear_a_change_at_once_hand_out_their_batches_apart(monkeypatch):
    """In step, every process's batch fought for the same cores at the same moment."""
    monkeypatch.setattr(hub_module, "BATCH_SECONDS", 0.2)

    async def scenario():
        loop = asyncio.get_running_loop()
        hubs, flushed = [Hub(), Hub()], {}
        for n, (hub, lag) in enumerate(zip(hubs, (0.02, 0.12))):
            hub.lag = lag
            hub.boards[1].add(BoardStream(1, "tablero", "es-ec"))

            async def flush(pending, n=n):
                flushed[n] = loop.time()

            hub.flush = flush
        heard = loop.time()
        for hub in hubs:
            hub.take({"c": 1, "m": [7], "s": {}})
        await asyncio.gather(*(hub.flushing for hub in hubs))
        # Each waits its own lag, never less (a loaded machine only makes it later: a generous bound above).
        assert 0.02 - 0.001 <= flushed[0] - heard < 0.02 + 0.5
        assert 0.12 - 0.001 <= flushed[1] - heard < 0.12 + 0.5

    run(scenario())


@pytest.mark.slow
def test_batches_that_take_long_still_leave_a_whole_batch_of_rest_between_them(monkeypatch):
    """Under load the batches grow long; back to back they would starve the claims of the cores."""
    monkeypatch.setattr(hub_module, "BATCH_SECONDS", 0.1)

    async def scenario():
        loop = asyncio.get_running_loop()
        hub, batches = Hub(), []
        hub.lag = 0
        hub.boards[1].add(BoardStream(1, "tablero", "es-ec"))

        async def flush(pending):
            started = loop.time()
            await asyncio.sleep(0.15)  # longer than a batch
            batches.append((started, loop.time()))

        hub.flush = flush
        for n in range(40):  # a change every 20 ms for 0.8 s
            hub.take({"c": 1, "m": [n], "s": {}})
            await asyncio.sleep(0.02)
        await hub.flushing
        assert len(batches) >= 3
        assert all(start - end >= 0.1 - 0.01 for (_, end), (start, _) in zip(batches, batches[1:]))

    run(scenario())


@pytest.mark.slow
def test_a_silent_stream_is_pinged_so_that_no_router_closes_it(mesa, monkeypatch):
    monkeypatch.setattr(hub_module, "PING_SECONDS", 0.2)
    monkeypatch.setattr(hub_module, "WATCH_SECONDS", 0.05)

    async def scenario():
        client = Client(f"/flujo/mesa/{mesa.pk}/").start(streams())
        await client.answer()
        await client.events(1)
        heard = asyncio.get_running_loop().time()
        assert (await client.answer())["body"] == b": ping\n\n"
        assert 0.2 <= asyncio.get_running_loop().time() - heard < 0.2 + 0.2
        current_hub().take({"c": mesa.championship_id, "m": [mesa.pk], "s": {str(mesa.pk): 5}})
        assert await client.events(1) == [("seq", {"seq": 5}, "5")]  # still open, and an event resets the silence
        await client.leave()

    run(scenario())
