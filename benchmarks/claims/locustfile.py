"""N tablets logging claims at their mesas, and the bare endpoint, in one run.

Each simulated user is one tablet, signed in as its mesa's juez (two
tablets per mesa, as when the juez and the inspector's device both log).
A tablet in turn:

* logs a claim (a caída, limpia, ronda... of either pair), and its next
  claim voids it again, so the scores stay near 0 and the mesa never ends
  however long the run; now and then it sends a claim twice with the same
  client id, as a tablet does when the wifi loses the first answer;
* polls the claims after the last seq it has seen (the other devices of a
  mesa do this every second);
* posts the same kind of body to the bare endpoint.

``StreamTablet`` (``run.py --tablets-stream``) is the tablet as it runs
now: it holds its mesa's stream (``/flujo/mesa/<id>/``), fetches the
entries after what it has on each ``seq`` event above it ("fetch"), and
still polls every 30 s. The mesa's first tablet logs a claim every 8-15 s;
the second posts a bare write at the same pace, the floor under the same
load.

With ``CLAIMS_BENCH_FLOOR`` set (``run.py --floor``) the claim task posts to
the bare endpoint too: the same load made only of the cheapest writes, whose
p99 is the least any claim endpoint could reach on this machine.

The tablets come from the JSON file in ``CLAIMS_BENCH_TABLETS`` (written by
``run.py``); the exact timings and every acknowledged client id are written
to ``CLAIMS_BENCH_OUT`` when the run stops, for ``run.py`` to report and
check against the database.
"""

import gc
import itertools
import json
import os
import random
import time
import uuid
from collections import defaultdict

import gevent
from locust import FastHttpUser, between, events, task

TABLETS = json.load(open(os.environ["CLAIMS_BENCH_TABLETS"]))
NEXT_TABLET = itertools.count()
RETRY_SHARE = 0.05
WAIT = float(os.environ.get("CLAIMS_BENCH_WAIT", "1"))  # mean seconds between a tablet's requests
FLOOR = bool(os.environ.get("CLAIMS_BENCH_FLOOR"))
PLAYS = ("caida", "limpia", "caida_limpia", "ronda")
STREAMING_POLL_SECONDS = 30  # static/refereeing/mesa/sync.js: with a stream, the tablet still polls this often

timings = defaultdict(list)  # request name -> response times (ms, float), once all tablets run
failures = defaultdict(int)  # request name -> failed requests, from the start
started = None  # SETTLE seconds after every tablet had started (time.time()): the ramp-up is not timed
# The tablets' first seconds are not timed either: their streams still connect after they all started, and the
# requests sent then were every slow one of a streams run (``run.py --settle``).
SETTLE = float(os.environ.get("CLAIMS_BENCH_SETTLE", "0"))
requests = 0  # every request answered, ramp-up included (for the server's CPU per request)
acked = {}  # client id -> the seq the server answered
retry_mismatches = []
stream_drops = []  # when a tablet's stream broke (it reconnects a second later)
SLOW_MS = 150  # run.py's capacity bound
slow = []  # (seconds after all tablets ran, request name, ms) of each timed request slower than SLOW_MS


@events.init.add_listener
def quiet_collector(**kwargs):
    # The load generator's own full garbage collections stop every simulated
    # tablet at once, and each request in flight then looks 50-100 ms slower
    # than the server made it. The run is short: let the heap grow instead.
    gc.disable()


@events.spawning_complete.add_listener
def start_measuring(user_count, **kwargs):
    # Like locust's --reset-stats: the seconds in which the tablets connect
    # one after another measure locust's start-up, not the server.
    global started
    started = time.time() + SETTLE


@events.request.add_listener
def record(name, response_time, exception, **kwargs):
    global requests
    requests += 1
    if exception is not None:
        failures[name] += 1
    elif started is not None and time.time() - response_time / 1000 >= started:
        timings[name].append(response_time)  # a request sent once all tablets ran
        if response_time > SLOW_MS:
            slow.append((round(time.time() - response_time / 1000 - started, 1), name, round(response_time)))


@events.test_stop.add_listener
def write_results(**kwargs):
    with open(os.environ["CLAIMS_BENCH_OUT"], "w") as out:
        json.dump(
            {
                "timings": timings,
                "failures": failures,
                "acked": acked,
                "retry_mismatches": retry_mismatches,
                "stream_drops": len(stream_drops),
                "slow": slow,
                "requests": requests,
                "measured_seconds": time.time() - (started or time.time()),
            },
            out,
        )


class Device(FastHttpUser):  # geventhttpclient: less of the shared CPU for the load generator
    abstract = True

    def on_start(self):
        self.index = next(NEXT_TABLET)  # run.py lists a mesa's two tablets one after the other
        tablet = TABLETS[self.index % len(TABLETS)]
        self.mesa = tablet["mesa"]
        cookies = f"sessionid={tablet['session']}; csrftoken={tablet['csrf']}"
        self.headers = {"Cookie": cookies, "X-CSRFToken": tablet["csrf"]}
        self.to_void = None
        self.seen = 0

    def post(self, url, body, name):
        with self.client.post(url, json=body, headers=self.headers, name=name, catch_response=True) as response:
            if response.status_code not in (200, 201):
                response.failure(f"{response.status_code}: {response.text[:200]}")
                return None
            return response.json()

    def claim(self):
        if FLOOR:
            self.bare()
            return
        if self.to_void:
            claim, self.to_void = {"kind": "void", "target": self.to_void}, None
        else:
            claim = {"kind": random.choice(PLAYS), "pair": random.choice("AB")}
        client_id = str(uuid.uuid4())
        body = {"client_id": client_id, "claim": claim}
        answer = self.post(f"/api/mesas/{self.mesa}/claims/", body, "claim")
        if answer is None:
            return
        seq = answer["entry"]["seq"]
        acked[client_id] = seq
        if seq == self.seen + 1:  # the tablet has its own entry from the answer, and all before it
            self.seen = seq
        if claim["kind"] != "void":
            self.to_void = seq
        if random.random() < RETRY_SHARE:
            again = self.post(f"/api/mesas/{self.mesa}/claims/", body, "claim retry")
            if again is not None and again["entry"] != answer["entry"]:
                retry_mismatches.append(client_id)

    def poll(self, name="poll"):
        with self.client.get(
            f"/api/mesas/{self.mesa}/claims/?after={self.seen}", name=name, headers=self.headers, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(str(response.status_code))
                return
            self.seen = response.json()["last_seq"]

    def bare(self):
        claim = {"kind": random.choice(PLAYS), "pair": random.choice("AB")}
        self.post("/bench/bare/", {"client_id": str(uuid.uuid4()), "claim": claim}, "bare")


class Tablet(Device):
    """Polling once a second, as the tablets did before the streams (and still do where no stream opens)."""

    wait_time = between(WAIT / 2, WAIT * 3 / 2)
    tasks = [Device.claim, Device.poll, Device.bare]


class StreamTablet(Device):
    wait_time = between(8, 15)

    def on_start(self):
        super().on_start()
        self.logs_claims = self.index % 2 == 0  # the mesa's first tablet: the juez's
        self.polled_at = time.monotonic()
        self.follower = gevent.spawn(self.follow)

    def on_stop(self):
        self.follower.kill()

    def follow(self):
        """Hold the mesa's stream; on each seq above what the tablet has, fetch the entries it lacks. Reconnects a
        second after a drop, as EventSource does."""
        while True:
            try:
                response = self.client.get(
                    f"/flujo/mesa/{self.mesa}/", name="stream", headers=self.headers, stream=True
                )
                event = None
                while line := response.stream.readline(b"\n"):
                    line = line.strip()
                    if line.startswith(b"event:"):
                        event = line[6:].strip()
                    elif line.startswith(b"data:") and event == b"seq" and json.loads(line[5:])["seq"] > self.seen:
                        self.poll("fetch")
            except OSError:
                stream_drops.append(time.time())
            gevent.sleep(1)

    @task
    def act(self):
        if self.logs_claims:
            self.claim()
        else:
            self.bare()
        if time.monotonic() - self.polled_at >= STREAMING_POLL_SECONDS:
            self.polled_at = time.monotonic()
            self.poll()
