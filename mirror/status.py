"""How the mirror is doing, seen from the venue: connected or not, and how far behind, in seconds and in claims.

The replication slot tells any role at the venue, without a privilege of
its own, whether a mirror is streaming from it (``pg_replication_slots``:
``active`` while a walsender serves it) and how much of the log the mirror
has confirmed (``confirmed_flush_lsn``); ``pg_stat_replication`` shows its
state only to ``pg_read_all_stats``, which the venue's role has no need of.

To turn a point of the log into claims, marks are left (``Mark``: the
log's point and the last claim before it): at each look at the status,
and, at a venue with ``MIRROR_URL``, by each process after an act commits,
at most once a second (``ACT_MARKS_EVERY``), so that the marks follow the
claims whether anyone looks or not. The newest mark the mirror has
confirmed says which claims it holds; the older ones say nothing more and
are forgotten. The lag is the age of the oldest claim it does not hold.

A look leaves its own mark and waits a moment (``WAIT``) for a connected
mirror to confirm it: a mirror keeping up is then seen to hold every
claim, not only those of the mark before the look.
"""

import time
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from refereeing.models import ClaimEntry

from .models import Mark
from .publication import SUBSCRIPTION

WARN_AFTER = timedelta(minutes=1)
WAIT = 1.0  # seconds a look waits for a connected mirror to confirm its mark
ACT_MARKS_EVERY = 1.0  # seconds between two marks left by one process after acts

_last_act_mark = float("-inf")


def _slot():
    """(connected, the log's point the mirror confirmed) of the mirror's slot, or None where no mirror subscribes."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT active, pg_wal_lsn_diff(confirmed_flush_lsn, '0/0') FROM pg_replication_slots WHERE slot_name = %s",
            [SUBSCRIPTION],
        )
        row = cursor.fetchone()
    return None if row is None else (bool(row[0]), int(row[1] or 0))


def _confirmed_mark(confirmed):
    return Mark.objects.filter(lsn__lte=confirmed).order_by("-lsn").first()


def mark():
    """Leave a mark now where a mirror subscribes: (the mark, connected, confirmed), or None."""
    if connection.vendor != "postgresql":
        return None
    with transaction.atomic():
        slot = _slot()
        if slot is None:
            return None
        # The claim first, the log's point after: a commit is flushed before others see it, so a claim this
        # read sees lies before the log's flushed point, which is as far as the venue sends the log.
        last_claim = ClaimEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0')")
            lsn = int(cursor.fetchone()[0])
        new = Mark.objects.create(lsn=lsn, last_claim=last_claim, at=timezone.now())
        seen = _confirmed_mark(slot[1])
        if seen is not None:
            Mark.objects.filter(lsn__lt=seen.lsn).delete()
    return new, *slot


def mark_after_act():
    """After an act commits (``mirror.codes``): a mark, unless this process left one less than a second ago."""
    global _last_act_mark
    now = time.monotonic()
    if now - _last_act_mark >= ACT_MARKS_EVERY:
        _last_act_mark = now
        mark()


def status():
    """None where no mirror subscribes; else ``connected``, ``lag_seconds``, ``claims_behind``, ``warn``."""
    marked = mark()
    if marked is None:
        return None
    new, connected, confirmed = marked
    deadline = time.monotonic() + WAIT
    while connected and confirmed < new.lsn and time.monotonic() < deadline:
        time.sleep(0.05)
        slot = _slot()
        if slot is None:
            return None
        connected, confirmed = slot
    seen = _confirmed_mark(confirmed)
    missing = ClaimEntry.objects.filter(pk__gt=seen.last_claim if seen else 0)
    oldest = missing.order_by("pk").values_list("created_at", flat=True).first()
    lag = timezone.now() - oldest if oldest else timedelta(0)
    return {
        "connected": connected,
        "lag_seconds": round(lag.total_seconds(), 1),
        "claims_behind": missing.count(),
        "warn": lag > WARN_AFTER,
    }
