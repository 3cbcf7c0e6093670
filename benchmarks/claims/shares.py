"""Where a worker's time goes: py-spy's samples (``run.py --profile``) summed per request kind and per part.

Each sample is a stack. Its request kind is the view on it (the claim, the
poll, the bare write, a page) or, with no view, what the event loop did
(a stream, reading and writing sockets). Its part is the deepest frame on
it that belongs to one of ``PARTS``: the part's own time, less what the
deeper parts took. A frame of the database driver or the ORM counts to the
part that called it (the claim log's lock is its queries).
"""

import sys
from collections import Counter, defaultdict
from pathlib import Path

# The view's frame names the request (the API's module moved since the baseline: both are listed).
KINDS = (
    ("claim", ("post (refereeing/claimlog/api.py", "post (refereeing/api.py")),
    ("poll", ("get (refereeing/claimlog/api.py", "get (refereeing/api.py")),
    ("bare", ("bare (benchmarks/claims/bench_urls.py",)),
    ("middleware, no view on the stack", ("django/core/handlers/",)),
    ("stream", ("streams/",)),
)

# A sample counts to the deepest frame that matches a part (a part's own time, less the deeper parts').
PARTS = (
    ("event loop, sockets (uvicorn, gunicorn)", ("uvicorn/", "gunicorn/", "asyncio/", "uvloop", "selectors.py")),
    ("ASGI hop to a thread (asgiref)", ("asgiref/", "concurrent/futures/")),
    ("bounded-view gate", ("config/serving.py",)),
    ("Django's handler, URL resolution", ("django/core/handlers/", "django/urls/", "django/utils/deprecation.py")),
    (
        "middleware: security, whitenoise, common, CSRF, clickjacking",
        (
            "django/middleware/security.py",
            "whitenoise/",
            "django/middleware/common.py",
            "django/middleware/csrf.py",
            "django/middleware/clickjacking.py",
            "config/nul_in_url.py",
            "config/errors.py",
        ),
    ),
    ("middleware: sessions, auth", ("django/contrib/sessions/", "django/contrib/auth/")),
    ("middleware: locale", ("django/middleware/locale.py", "django/utils/translation/")),
    ("middleware: messages", ("django/contrib/messages/",)),
    ("middleware: audit transaction", ("audit/middleware.py", "audit/context.py")),
    ("middleware: CSP", ("csp/", "config/content_security_policy.py")),
    ("middleware: axes", ("axes/",)),
    ("view: DRF", ("rest_framework/", "django/http/")),
    # The endpoint's own code, and the queries and JSON it runs (below a decorator's frame: login_required's).
    ("view: the endpoint's own work", ("refereeing/claimlog/api.py", "refereeing/api.py", "claims/bench_urls.py")),
    ("view: access (session or PIN)", ("refereeing/access",)),
    ("audit registration", ("auditlog/", "audit/registration.py", "audit/trail.py")),
    ("claim log: lock, entry, update", ("refereeing/claimlog/log.py", "refereeing/claimlog.py")),
    ("claim log: replay, engine", ("engines/rules/",)),
    ("on-commit notification", ("live/",)),
    ("streams", ("streams/",)),
    ("connection, pool, cursor", ("psycopg_pool/", "django/db/backends/postgresql/base.py", "backends/base/base.py")),
)


# py-spy counts a thread waiting inside C (the database's answer, Redis's, uvloop's epoll) as busy: a sample whose
# innermost frame is one of these waits is counted apart, as waiting, and kept out of the parts' shares.
WAITS = (
    "wait (psycopg/",
    "_read_from_socket (redis/",
    "run (asyncio/runners.py",
    "_run_once (asyncio/base_events.py",
    "select (selectors.py",
    "wait (threading.py",
    "_wait_for_tstate_lock (threading.py",
    "_worker (concurrent/futures/thread.py",
    "accept (socket.py",
)
WAITING = "waiting (database, Redis, an idle loop, a lock)"


def frames(stack):
    return stack.split(";")


def kind_of(stack):
    for kind, marks in KINDS:
        if any(mark in stack for mark in marks):
            return kind
    return "idle or other"


def part_of(stack):
    if frames(stack)[-1].startswith(WAITS):
        return WAITING
    found = "other"
    for frame in frames(stack):
        for part, marks in PARTS:
            if any(mark in frame for mark in marks):
                found = part
                break
    return found


PROJECT = ("refereeing/", "tournament/", "live/", "audit/")


def project_function(stack):
    """The deepest frame of the project's own code: which of its steps the sample is in (the claim log's lock,
    its read of the log, the replay, the INSERT...)."""
    found = "outside the project's code"
    for frame in frames(stack):
        if frame.split(" (", 1)[-1].startswith(PROJECT):
            found = frame.rsplit(":", 1)[0] + ")"
    return found


def read(paths):
    """Samples per (kind, part) from py-spy's raw (collapsed) files, and the claim's per project function."""
    counts, claim_steps = defaultdict(Counter), Counter()
    for path in paths:
        for line in Path(path).read_text(errors="replace").splitlines():  # py-spy may cut a name mid-character
            stack, _, n = line.rpartition(" ")
            if stack and n.isdigit():
                kind, part = kind_of(stack), part_of(stack)
                counts[kind][part] += int(n)
                if kind == "claim" and part != WAITING:
                    claim_steps[project_function(stack)] += int(n)
    return counts, claim_steps


def report(folder):
    """Print the shares per set-up (files are named ``<set-up>-<scenario>-<tablets>-<run>-<pid>.txt``)."""
    groups = defaultdict(list)
    for path in sorted(Path(folder).glob("*.txt")):
        groups[path.name.rsplit("-", 3)[0]].append(path)
    for group, paths in groups.items():
        counts, claim_steps = read(paths)
        waiting = sum(c.pop(WAITING, 0) for c in counts.values())
        total = sum(sum(c.values()) for c in counts.values()) or 1
        overall = sum(counts.values(), Counter())
        print(
            f"\nprofile {group}: {total} samples of worker threads running Python (py-spy, 50 Hz; {waiting} more "
            "waiting in C, left out)"
        )
        print("  every request kind, per part:")
        for part, m in overall.most_common():
            print(f"      {part:<62} {100 * m / total:5.1f}%")
        for kind, parts in sorted(counts.items(), key=lambda item: -sum(item[1].values())):
            n = sum(parts.values())
            top = ", ".join(f"{part} {100 * m / n:.0f}%" for part, m in parts.most_common(4))
            print(f"  {kind} {100 * n / total:.1f}% of samples: {top}")
        steps = sum(claim_steps.values()) or 1
        print("  the claim, per function of the project's own (the deepest on the stack):")
        for function, m in claim_steps.most_common(8):
            print(f"      {function:<62} {100 * m / steps:5.1f}%")


if __name__ == "__main__":
    report(sys.argv[1])
