"""Sedes and their physical tables.

Terms
-----
sede
    The hall a championship is played in, with its physical tables numbered
    from 1 (and, optionally, a plan of where they stand). Championships at
    the same sede on overlapping days share its tables; at different sedes
    they never do (``tournament.seating.seating``).
physical table
    One table of a sede with its own PIN and QR code, printed once on its
    card for the whole championship: every mesa seated at it opens with
    that PIN (``refereeing.access``).

The jueces the tables get are the pool's available today (``tournament.accounts.accounts``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from audit.context import acting, record
from tournament.errors import ActionRefused
from tournament.models import Sede, Table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_TABLES = 500


def create_sede(name: str, tables: int, plan: str = "", *, by: User) -> Sede:
    """A new sede with ``tables`` physical tables numbered from 1, each with its PIN (audited)."""
    if not 1 <= tables <= MAX_TABLES:
        raise ActionRefused(_("A sede has from 1 to %(n)d tables.") % {"n": MAX_TABLES})
    with transaction.atomic(), acting(by):
        if Sede.objects.filter(name__iexact=name).exists():
            raise ActionRefused(_("There is already a sede named %(name)s.") % {"name": name})
        try:
            with transaction.atomic():
                sede = Sede.objects.create(name=name, plan=plan)
        except IntegrityError:
            # The same name saved at the same moment (a double submit): one sede, and the other is told.
            raise ActionRefused(_("There is already a sede named %(name)s.") % {"name": name}) from None
        Table.objects.bulk_create(Table(sede=sede, number=n) for n in range(1, tables + 1))
        record(sede, "sede_created", {"tables": ["", str(tables)]})
    return sede
