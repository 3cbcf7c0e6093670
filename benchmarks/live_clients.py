"""The load generator of ``benchmarks/live.py``: stream readers, tablets and the claims, on asyncio sockets.

No Django and no HTTP library here (the venv has neither aiohttp nor httpx):
each process of the load generator runs one role on its own event loop (uvloop,
as the server's: the generator shares the server's cores, and takes less of them) over
raw asyncio streams, and answers the orchestrator's commands over a pipe.

Roles
-----
*spectators*: scoreboard streams (``vista=tablero``). Each row pushed
carries its mesa's ``data-mesa`` and ``data-seq``; a spectator records when
it first saw each (mesa, seq), a seq seen covering the lower ones of that
mesa (the rows of one mesa are batched: a row may jump several seqs).
*tablets*: two streams per mesa (``/flujo/mesa/<id>/``), each recording
when each seq reached it. The first tablet of each mesa posts the claims;
the second, on each ``seq`` event above what it knows, fetches
``claims/?after=`` as the real tablet does, and the time it has the entry
is the claim's delivery. Claims are posted at a steady rate, the mesas in
turn, one at a time per mesa, each followed by a bare write (the
benchmark's one-INSERT endpoint) on the same connection, so that both are
measured under the same load. The claims are legal whatever the state: a
play (caída, limpia...), then its void, as ``benchmarks/claims/locustfile``
does, so the mesas never end; each sends ``expected_seq``.
With ``poll`` there are no streams: the tablets poll ``claims/?after=``
once a second instead (``--poll-mesas``: both tablets of each mesa).

Every stream reconnects a second after it drops or fails (as EventSource
does, ``retry: 1000``), a tablet's with ``Last-Event-ID``, and counts its
drops (a stream that ended) and failures (a connection refused, or an
answer other than 200).
"""

import asyncio
import json
import random
import re
import resource
import time
import uuid
from array import array

import uvloop

SEQ = re.compile(rb'data-mesa=\\"(\d+)\\"[^>]*?data-seq=\\"(\d+)\\"')
RETRY = 1.0
PLAYS = ("caida", "limpia", "caida_limpia", "ronda")


def cpu_now():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Connection:
    """One keep-alive HTTP/1.1 connection: a request at a time, Content-Length or chunked answers."""

    def __init__(self, host, port, headers=b""):
        self.host, self.port, self.headers = host, port, headers
        self.reader = self.writer = None

    async def request(self, method, path, body=None):
        for attempt in (1, 2):  # a keep-alive connection the server closed meanwhile: once more on a new one
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                data = b"" if body is None else json.dumps(body).encode()
                head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
                if body is not None:
                    head += "Content-Type: application/json\r\n"
                self.writer.write(head.encode() + self.headers + b"\r\n" + data)
                return await read_response(self.reader)
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                self.close()
                if attempt == 2:
                    raise
        return None

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_response(reader):
    status_line = await reader.readline()
    status = int(status_line.split()[1])
    length, chunked = None, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value:
            chunked = True
    if chunked:
        body = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            if size == 0:
                await reader.readline()
                break
            body += await reader.readexactly(size)
            await reader.readline()
        return status, body
    return status, await reader.readexactly(length or 0)


class Stream:
    """One server-sent events stream that reconnects by itself; ``on_event(name, data, at)`` for each event."""

    def __init__(self, host, port, path, on_event, last_event_id=False):
        self.host, self.port, self.path, self.on_event = host, port, path, on_event
        self.send_last_id, self.last_id = last_event_id, None
        self.opened_at = None  # when its first event since the last (re)connection arrived
        self.drops = self.failures = 0
        self.stopping = False

    async def run(self):
        while not self.stopping:
            writer = None
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port, limit=2**22)
                extra = f"Last-Event-ID: {self.last_id}\r\n" if self.send_last_id and self.last_id else ""
                writer.write(
                    f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n{extra}\r\n".encode()
                )
                status = int((await reader.readline()).split()[1])
                while (await reader.readline()) not in (b"\r\n", b""):
                    pass
                if status != 200:
                    raise ConnectionError(status)
                await self.read(reader)
                if not self.stopping:
                    self.drops += 1
            except (OSError, ConnectionError, ValueError, IndexError, asyncio.IncompleteReadError):
                if not self.stopping:
                    self.failures += 1
            finally:
                self.opened_at = None
                if writer is not None:
                    writer.close()
            await asyncio.sleep(RETRY)

    async def read(self, reader):
        # uvicorn sends the stream chunked: a size line, then that many bytes of events.
        name, buffer = None, b""
        while not self.stopping:
            size_line = await reader.readline()
            if not size_line:
                return
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                return
            buffer += await reader.readexactly(size)
            await reader.readline()
            *lines, buffer = buffer.split(b"\n")
            now = time.time()
            for line in lines:
                if line.startswith(b"event: "):
                    name = line[7:]
                elif line.startswith(b"id: "):
                    self.last_id = line[4:].decode()
                elif line.startswith(b"data: "):
                    if self.opened_at is None:
                        self.opened_at = now
                    self.on_event(name, line[6:], now)


def stream_counts(streams, since=0.0):
    return {
        "streams": len(streams),
        "open": sum(s.opened_at is not None for s in streams),
        "reopened": sum(s.opened_at is not None and s.opened_at >= since for s in streams),
        "last_opened": max((s.opened_at or 0) for s in streams) if streams else 0,
        "drops": sum(s.drops for s in streams),
        "failures": sum(s.failures for s in streams),
    }


class Spectators:
    def __init__(self, host, port, championship, count, language):
        self.seen = {}  # (mesa, seq): [when each stream first had it]
        self.streams = []
        for _ in range(count):
            last = {}  # this stream's mesa: the highest seq it has seen, kept across reconnections

            def on_event(name, data, at, last=last):
                if name != b"rows":
                    return
                for mesa, seq in SEQ.findall(data):
                    mesa, seq = int(mesa), int(seq)
                    before = last.get(mesa, seq)  # the first snapshot says where a mesa starts
                    for s in range(before + 1, seq + 1):  # a seq seen covers the ones it follows
                        self.seen.setdefault((mesa, s), []).append(at)
                    last[mesa] = max(seq, before)

            path = f"/flujo/campeonato/{championship}/?vista=tablero&lang={language}"
            self.streams.append(Stream(host, port, path, on_event))

    def reset(self):
        self.seen.clear()

    def latencies(self, posted):
        """ms from each claim's POST to each stream's row for it, as float32 bytes; and the (claim, stream) pairs
        missing."""
        out, missing = array("f"), 0
        for mesa, seq, at in posted:
            times = self.seen.get((mesa, seq), ())
            missing += len(self.streams) - len(times)
            out.extend(1000 * (t - at) for t in times)
        return {"ms": out.tobytes(), "missing": missing}


class Tablets:
    def __init__(self, host, port, tablets, poll=False, stream_port=None):
        """``tablets``: the benchmark's seed, two per mesa in order (session and CSRF token each)."""
        self.host, self.port, self.poll = host, port, poll
        self.mesas = []
        self.delivered = {}  # (mesa, seq): when the second tablet had the entry (stream, then fetch)
        self.pushed = {}  # (mesa, seq): [when tablet 1's stream had it, when tablet 2's had it]
        self.claims = []  # (mesa, seq, posted at (epoch), ms)
        self.bare = []  # ms
        self.fetch_ms = []  # the second tablets' fetches (or polls), ms
        self.failures = 0
        self.failure_kinds = {}
        self.streams = []
        for first, second in zip(tablets[::2], tablets[1::2]):
            mesa = first["mesa"]
            headers = [
                f"Cookie: sessionid={t['session']}; csrftoken={t['csrf']}\r\nX-CSRFToken: {t['csrf']}\r\n".encode()
                for t in (first, second)
            ]
            entry = {
                "mesa": mesa,
                "post": Connection(host, port, headers[0]),
                "fetch": Connection(host, port, headers[1]),
                "poll_first": Connection(host, port, headers[0]),
                "known": 0,  # the second tablet's last seq
                "seq": 0,  # the first tablet's last seq
                "to_void": None,
                "fetching": False,
                "again": False,
                "posting": False,
                "stream_seq": [None, None],
            }
            self.mesas.append(entry)
            if not poll:
                for n in (0, 1):
                    self.streams.append(
                        Stream(
                            host,
                            stream_port or port,
                            f"/flujo/mesa/{mesa}/",
                            lambda name, data, at, e=entry, n=n: self.on_seq(e, n, data, at),
                            last_event_id=True,
                        )
                    )

    def fail(self, kind):
        self.failures += 1
        self.failure_kinds[kind] = self.failure_kinds.get(kind, 0) + 1

    def on_seq(self, entry, n, data, at):
        seq = json.loads(data).get("seq")
        if seq is None:
            return
        before = entry["stream_seq"][n]
        if before is not None:
            for s in range(before + 1, seq + 1):
                self.pushed.setdefault((entry["mesa"], s), [None, None])[n] = at
        entry["stream_seq"][n] = seq if before is None else max(before, seq)
        if n == 1 and seq > entry["known"]:
            asyncio.ensure_future(self.fetch(entry))

    async def fetch(self, entry):
        if entry["fetching"]:
            entry["again"] = True
            return
        entry["fetching"] = True
        try:
            while True:
                entry["again"] = False
                started = time.perf_counter()
                status, body = await entry["fetch"].request(
                    "GET", f"/api/mesas/{entry['mesa']}/claims/?after={entry['known']}"
                )
                at = time.time()
                self.fetch_ms.append(1000 * (time.perf_counter() - started))
                if status != 200:
                    self.fail(f"fetch {status}")
                    break
                answer = json.loads(body)
                for item in answer["entries"]:
                    self.delivered.setdefault((entry["mesa"], item["seq"]), at)
                entry["known"] = max(entry["known"], answer["last_seq"])
                if not entry["again"]:
                    break
        except (OSError, ValueError, KeyError, IndexError, asyncio.IncompleteReadError) as error:
            self.fail(f"fetch {type(error).__name__}")
        finally:
            entry["fetching"] = False

    async def polling(self, stop):
        """Both tablets of each mesa poll once a second (the second one's answers are the deliveries)."""

        async def first_tablet(entry):
            known = 0
            await asyncio.sleep(random.random())
            while not stop.is_set():
                try:
                    status, body = await entry["poll_first"].request(
                        "GET", f"/api/mesas/{entry['mesa']}/claims/?after={known}"
                    )
                    if status == 200:
                        known = json.loads(body)["last_seq"]
                    else:
                        self.fail(f"poll {status}")
                except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as error:
                    self.fail(f"poll {type(error).__name__}")
                await asyncio.sleep(1)

        async def second_tablet(entry):
            await asyncio.sleep(random.random())
            while not stop.is_set():
                await self.fetch(entry)
                await asyncio.sleep(1)

        await asyncio.gather(*(f(entry) for entry in self.mesas for f in (first_tablet, second_tablet)))

    async def post_claims(self, rate, seconds):
        """A claim every 1/rate s, the mesas in turn, each followed by a bare write."""
        start, n = time.monotonic(), 0
        tasks = []
        while time.monotonic() - start < seconds:
            entry = self.mesas[n % len(self.mesas)]
            tasks.append(asyncio.ensure_future(self.claim(entry)))
            n += 1
            await asyncio.sleep(max(0, start + n / rate - time.monotonic()))
        await asyncio.gather(*tasks)

    async def claim(self, entry):
        while entry["posting"]:  # one claim at a time per mesa, as at a real table
            await asyncio.sleep(0.005)
        entry["posting"] = True
        try:
            if not entry.get("synced"):  # where the mesa's log is (an earlier phase logged claims)
                status, answer = await entry["post"].request("GET", f"/api/mesas/{entry['mesa']}/claims/?after={10**9}")
                entry["seq"], entry["synced"] = json.loads(answer)["last_seq"], True
            if entry["to_void"]:
                claim = {"kind": "void", "target": entry["to_void"]}
            else:
                claim = {"kind": random.choice(PLAYS), "pair": random.choice("AB")}
            body = {"client_id": str(uuid.uuid4()), "claim": claim, "expected_seq": entry["seq"] + 1}
            posted = time.time()
            started = time.perf_counter()
            status, answer = await entry["post"].request("POST", f"/api/mesas/{entry['mesa']}/claims/", body)
            took = 1000 * (time.perf_counter() - started)
            if status not in (200, 201):
                self.fail(f"claim {status}: {answer[:120]!r}")
                if status == 409:
                    entry["seq"] = json.loads(answer).get("last_seq", entry["seq"])
                    entry["to_void"] = None
                return
            seq = json.loads(answer)["entry"]["seq"]
            entry["seq"] = seq
            entry["to_void"] = None if claim["kind"] == "void" else seq
            self.claims.append((entry["mesa"], seq, posted, took))
            started = time.perf_counter()
            status, answer = await entry["post"].request("POST", "/bench/bare/", body)
            if status != 201:
                self.fail(f"bare {status}")
                return
            self.bare.append(1000 * (time.perf_counter() - started))
        except (OSError, ValueError, KeyError, IndexError, asyncio.IncompleteReadError) as error:
            self.fail(f"claim {type(error).__name__}")
        finally:
            entry["posting"] = False

    def reset(self):
        self.claims.clear()
        self.bare.clear()
        self.fetch_ms.clear()
        self.delivered.clear()
        self.pushed.clear()
        self.failures = 0
        self.failure_kinds.clear()

    def report(self):
        return {
            "claims": self.claims,
            "bare": self.bare,
            "fetch_ms": self.fetch_ms,
            "delivered": self.delivered,
            "pushed": self.pushed,
            "request_failures": self.failures,
            "failure_kinds": dict(self.failure_kinds),
        }


def serve(pipe, role, host, port=None, **kwargs):
    """A load-generator process: build ``role``, then obey the orchestrator's commands until "stop"."""
    import gc

    gc.disable()  # the load generator's own pauses would show as the server's latency
    uvloop.run(_serve(pipe, role, host, port, kwargs))


async def _serve(pipe, role, host, port, kwargs):
    loop = asyncio.get_running_loop()
    worker = Spectators(host, port, **kwargs) if role == "spectators" else Tablets(host, port, **kwargs)
    running = []
    for s in worker.streams:  # not all at once: a SYN flood of 1,000 would only fill the backlog
        running.append(asyncio.ensure_future(s.run()))
        if len(running) % 100 == 0:
            await asyncio.sleep(0.01)
    while True:
        command, args = await loop.run_in_executor(None, pipe.recv)
        if command == "stop":
            for s in worker.streams:
                s.stopping = True
            for task in running:
                task.cancel()
            await asyncio.sleep(0.1)
            pipe.send({"cpu": cpu_now()})
            return
        if command == "claims":
            await worker.post_claims(*args)
            await asyncio.sleep(1.5)  # the second tablets' fetches of the last claims
            pipe.send(worker.report())
        elif command == "poll":
            rate, seconds = args
            stop = asyncio.Event()
            polling = asyncio.ensure_future(worker.polling(stop))
            await asyncio.sleep(2)  # every tablet polling before the first claim
            await worker.post_claims(rate, seconds)
            await asyncio.sleep(1.5)  # the last claims' next polls
            stop.set()
            await polling
            pipe.send(worker.report())
        elif command == "report":
            pipe.send(worker.report())
        elif command == "streams":
            pipe.send({"cpu": cpu_now(), **stream_counts(worker.streams, *args)})
        elif command == "latencies":
            pipe.send(worker.latencies(*args))
        elif command == "reset":
            worker.reset()
            for s in worker.streams:
                s.drops = s.failures = 0
            pipe.send(None)
