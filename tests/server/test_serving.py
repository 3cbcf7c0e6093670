"""config.serving.BoundedViews: a request is read whole before it takes a view slot, and slots are bounded.
config.serving.DjangoInThreads: each request in one call on a long-lived thread that keeps its context."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core import signals
from django.core.cache import caches

from config.serving import MAX_BODY, BoundedViews, DjangoInThreads


class App:
    """A stand-in for Django: records the bodies it got and how many ran at once."""

    def __init__(self):
        self.running = self.most = 0
        self.bodies = []

    async def __call__(self, scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.01)
        self.running -= 1
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def request(chunks, headers=(), gate=None):
    """A scope and a receive that hands out ``chunks``, waiting on ``gate`` before the last one."""
    queue = list(chunks)

    async def receive():
        if gate is not None and len(queue) == 1:
            await gate.wait()
        body = queue.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(queue)}

    return {"type": "http", "headers": list(headers)}, receive


def collector():
    sent = []

    async def send(message):
        sent.append(message)

    return sent, send


def run(scenario):
    """asyncio.run in a thread of its own: Playwright's tests leave an event loop in this one."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, scenario()).result()


def test_a_slow_body_holds_no_slot_and_views_run_one_at_a_time():
    async def scenario():
        app = App()
        bounded = BoundedViews(app, slots=1)
        gate = asyncio.Event()
        slow_scope, slow_receive = request([b"half", b" and the rest"], gate=gate)
        slow = asyncio.create_task(bounded(slow_scope, slow_receive, collector()[1]))
        quick = [asyncio.create_task(bounded(*request([b"q%d" % n]), collector()[1])) for n in range(5)]
        await asyncio.wait_for(asyncio.gather(*quick), 5)
        assert sorted(app.bodies) == [b"q0", b"q1", b"q2", b"q3", b"q4"]  # served while the slow one waits
        assert not slow.done()
        gate.set()
        await asyncio.wait_for(slow, 5)
        assert app.bodies[-1] == b"half and the rest"
        assert app.most == 1

    run(scenario)


def test_a_body_over_the_cap_is_answered_413_without_reaching_django():
    async def scenario():
        app = App()
        sent, send = collector()
        scope, receive = request([b"x"], headers=[(b"content-length", str(MAX_BODY + 1).encode())])
        await BoundedViews(app)(scope, receive, send)
        assert sent[0]["status"] == 413 and app.bodies == []

    run(scenario)


def test_a_client_that_leaves_before_its_body_is_sent_is_dropped():
    async def scenario():
        app = App()

        async def receive():
            return {"type": "http.disconnect"}

        sent, send = collector()
        await BoundedViews(app)({"type": "http", "headers": []}, receive, send)
        assert sent == [] and app.bodies == []

    run(scenario)


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_requests_run_on_one_long_lived_thread_that_keeps_its_cache():
    # Django's own ASGI handler gave each request a new thread and a new context, and with the context a new
    # cache object: a new Redis connection for every session read (benchmarks/RESULTS.md, "The cost of a request").
    seen, statuses = [], []

    def started(**kwargs):
        seen.append((threading.get_ident(), id(caches["default"])))

    async def scenario():
        handler = DjangoInThreads()
        for _ in range(5):
            scope = {
                "type": "http",
                "method": "GET",
                "path": "/cuenta/entrar/",
                "query_string": b"",
                "headers": [(b"host", b"testserver")],
                "client": ("127.0.0.1", 40000),
                "server": ("testserver", 80),
                "scheme": "http",
                "root_path": "",
            }
            messages = [{"type": "http.request", "body": b""}]

            async def receive(messages=messages):
                if not messages:
                    await asyncio.Event().wait()  # the client waits for its answer
                return messages.pop(0)

            sent, send = collector()
            await handler(scope, receive, send)
            statuses.append(sent[0]["status"])

    signals.request_started.connect(started)
    try:
        run(scenario)
    finally:
        signals.request_started.disconnect(started)
    assert statuses == [200] * 5
    assert len(seen) == 5 and len(set(seen)) == 1
    assert seen[0][0] != threading.get_ident()  # a thread of the handler's, not the event loop's
