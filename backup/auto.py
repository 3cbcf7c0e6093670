"""The control desk's automatic backup: one file each time a round starts.

Made in ``settings.BACKUP_DIR`` (the ``BACKUP_DIR`` environment variable)
once the round's start is committed, named after the championship, the
round and the time; nothing happens when it is unset. A backup that fails
(a full disk) is logged and does not undo the round's start.
"""

import logging
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .archive import write

log = logging.getLogger(__name__)


def after_round_start(championship, bracket, round_number):
    if not settings.BACKUP_DIR:
        return
    folder = Path(settings.BACKUP_DIR)
    stamp = timezone.now().strftime("%Y%m%dT%H%M%S%fZ")
    path = folder / f"campeonato-{championship.pk}-{bracket}{round_number}-{stamp}.json.gz"

    def make():
        folder.mkdir(parents=True, exist_ok=True)
        write(path)
        log.info("Backup written to %s", path)

    transaction.on_commit(make, robust=True)
