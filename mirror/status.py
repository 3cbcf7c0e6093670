"""How the mirror is doing, seen from the venue: connected or not, and how far behind, in seconds and in claims.

PostgreSQL tells the venue how much of its log the subscriber confirmed
(the replication slot) and whether it is connected (the walsender). To turn
a point of the log into claims, each look at the status leaves a ``Mark``
(the log's point now, the last claim id); the newest mark the mirror has
confirmed says which claims it holds. The lag is the age of the oldest
claim it does not hold yet.
"""

from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from refereeing.models import ClaimEntry

from .models import Mark
from .publication import SUBSCRIPTION

WARN_AFTER = timedelta(minutes=1)
KEEP = timedelta(hours=1)


def status():
    """None where no mirror subscribes; else ``connected``, ``lag_seconds``, ``claims_behind``, ``warn``."""
    if connection.vendor != "postgresql":
        return None
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT r.pid IS NOT NULL AND r.state = 'streaming', "
                "pg_wal_lsn_diff(s.confirmed_flush_lsn, '0/0'), pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') "
                "FROM pg_replication_slots s LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid "
                "WHERE s.slot_name = %s",
                [SUBSCRIPTION],
            )
            row = cursor.fetchone()
        if row is None:
            return None
        connected, confirmed, current = bool(row[0]), int(row[1] or 0), int(row[2])
        now = timezone.now()
        last_claim = ClaimEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        Mark.objects.create(lsn=current, last_claim=last_claim, at=now)
        seen = Mark.objects.filter(lsn__lte=confirmed).order_by("-lsn").first()
        Mark.objects.filter(at__lt=now - KEEP).exclude(pk=getattr(seen, "pk", None)).delete()
    # Confirmed up to now: every claim is there, whatever the marks say.
    held = last_claim if confirmed >= current else seen.last_claim if seen else 0
    missing = ClaimEntry.objects.filter(pk__gt=held)
    oldest = missing.order_by("pk").values_list("created_at", flat=True).first()
    lag = now - oldest if oldest else timedelta(0)
    return {
        "connected": connected,
        "lag_seconds": round(lag.total_seconds(), 1),
        "claims_behind": missing.count(),
        "warn": lag > WARN_AFTER,
    }
