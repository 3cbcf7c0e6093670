"""The control desk's automatic backup: one file each time a round starts.

Made in ``settings.BACKUP_DIR`` (the ``BACKUP_DIR`` environment variable)
once the round's start is committed, named after the championship, the
round and the time; nothing happens when it is unset. It is written by a
thread of its own (``THREAD_NAME``), so that the organiser's request does
not wait the seconds a whole database takes to copy; the thread is not a
daemon, so a worker that stops finishes the copy first. A backup that fails
(a full disk) is logged and does not undo the round's start, which is
committed before the copy begins.
"""

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from .archive import write

log = logging.getLogger(__name__)

THREAD_NAME = "round-start-backup"


def after_round_start(championship, bracket, round_number):
    """Inside the transaction that starts the round: its backup, once that commits."""
    if not settings.BACKUP_DIR:
        return
    folder = Path(settings.BACKUP_DIR)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%S%fZ")
    path = folder / f"campeonato-{championship.pk}-{bracket}{round_number}-{stamp}.json.gz"
    transaction.on_commit(lambda: threading.Thread(target=_make, args=(path,), name=THREAD_NAME).start(), robust=True)


def _make(path):
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write(path)
        log.info("Backup written to %s", path)
    except Exception:
        log.exception("The backup of a round's start failed: %s", path)
    finally:
        # The thread's own connection, opened for the copy, is not left behind.
        connection.close()
