"""Sedes and their physical tables, and the jueces available on a day.

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
available today
    The jueces are one pool of the Comité; an organiser marks who came
    today, and assignment gives tables only to them.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting, record
from tournament.errors import ActionRefused
from tournament.locking import locked
from tournament.models import JuezDay, Sede, Table

MAX_TABLES = 500


def create_sede(name, tables, plan="", *, by):
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


def available_today(day=None):
    """The ids of the jueces marked available on ``day`` (today, in the championship's time zone)."""
    return set(JuezDay.objects.filter(day=day or timezone.localdate()).values_list("juez_id", flat=True))


def mark_available(juez, available, *, by, day=None):
    """Mark ``juez`` available (``True``) or not on ``day`` (today); whether anything changed (audited when it does).

    A stated intent, never a toggle: a second tap changes nothing.
    """
    day = day or timezone.localdate()
    with transaction.atomic(), acting(by):
        list(locked(type(juez)._default_manager.filter(pk=juez.pk)).values_list("pk", flat=True))
        marks = JuezDay.objects.filter(juez=juez, day=day)
        if marks.exists() == available:
            return False
        if available:
            JuezDay.objects.create(juez=juez, day=day)
        else:
            marks.delete()
        record(juez, "juez_available" if available else "juez_unavailable", {"available": ["", day.isoformat()]})
        return True
