"""Seating: which mesa is played at which physical table, by which juez, and when a round may start.

Terms
-----
holding a table
    A mesa that is not decided and has a table number holds that table (and
    its juez) until it is decided, in whichever championship it is: the
    venue's tables and its jueces are shared by the championships played
    there at once. The other tables and jueces are free.
commitment
    Where a juez is busy: the undecided mesa, of any championship, the juez
    has been given.
play order
    Tables go out by round, winners' bracket before losers', then position.
bracket order
    Sheets and boards list the winners' bracket round by round, then the
    losers', the grand final and its reset.
starting a round
    Its waiting mesas whose two pairs are known become ready, with one
    entry in the audit trail and, once committed, one backup (``backup.auto``).
    The championship's row is locked first: of two starts of one round at
    once, the second finds nothing waiting and is refused.

Assigning locks the active jueces' rows first, so two organisers assigning
at once (in one championship or two) take turns and never give one juez or
one table twice.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from audit.context import record
from backup.auto import after_round_start
from live import notify

from .accounts import jueces
from .errors import ActionRefused
from .locking import reload_locked
from .models import Mesa
from .naming import mesa_place, person_name

BRACKET_ORDER = [b for b, _label in Mesa.Bracket.choices]


@dataclass(frozen=True)
class Assignment:
    """What one mesa got: a table, and a juez when one was free (else None)."""

    mesa: Mesa
    table: int
    juez: object


def play_order(mesa):
    """Sort key for tables: by round, winners' before losers', then position."""
    return (mesa.round, BRACKET_ORDER.index(mesa.bracket), mesa.position)


def bracket_order(mesa):
    """Sort key for sheets and boards: the winners' rounds, the losers' rounds, the final, the reset (then 3rd place, groups)."""
    return (BRACKET_ORDER.index(mesa.bracket), mesa.group or 0, mesa.round, mesa.position)


def holding():
    """The undecided mesas of every championship that hold a table or a juez."""
    return (
        Mesa.objects.filter(status__in=Mesa.UNDECIDED)
        .filter(Q(table_number__isnull=False) | Q(juez__isnull=False))
        .select_related("championship")
    )


def commitments():
    """{juez id: the mesa that juez is busy with}, across every championship."""
    return {mesa.juez_id: mesa for mesa in holding().exclude(juez=None).order_by("pk")}


def _lock_jueces():
    list(
        get_user_model()
        .objects.select_for_update()
        .filter(pk__in=jueces().values("pk"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def assign_tables(championship):
    """Give every playable mesa without a table a free table, and a free juez; the list of :class:`Assignment`.

    Playable: both pairs known and not decided. Mesas go out in bracket
    order (round, then winners' before losers', then position); those left
    over wait for a table to free up.
    """
    with transaction.atomic():
        _lock_jueces()
        held = list(holding())
        tables = {m.table_number for m in held if m.table_number is not None}
        busy = {m.juez_id for m in held if m.juez_id is not None}
        free_tables = [t for t in range(1, championship.tables + 1) if t not in tables]
        free_jueces = [j for j in jueces() if j.pk not in busy]
        mesas = (
            Mesa.objects.select_for_update()
            .filter(
                championship=championship,
                status__in=(Mesa.Status.WAITING, Mesa.Status.READY),
                pair_a__isnull=False,
                pair_b__isnull=False,
            )
            .filter(Q(table_number=None) | Q(juez=None))
        )
        assigned = []
        for mesa in sorted(mesas, key=play_order):
            fields = []
            if mesa.table_number is None and free_tables:
                mesa.table_number = free_tables.pop(0)
                fields.append("table_number")
            if mesa.juez_id is None and mesa.table_number is not None and free_jueces:
                mesa.juez = free_jueces.pop(0)
                fields.append("juez")
            if fields:
                mesa.save(update_fields=fields)
                assigned.append(Assignment(mesa, mesa.table_number, mesa.juez))
    return assigned


def assign_table(mesa, table_number, juez):
    """Put one mesa on a given table with a given juez (either may be None)."""
    if mesa.status in Mesa.DECIDED:
        raise ActionRefused(_("%(mesa)s is already decided.") % {"mesa": mesa_place(mesa)})
    championship = mesa.championship
    if table_number is not None and not 1 <= table_number <= championship.tables:
        raise ActionRefused(_("The table must be between 1 and %(n)d.") % {"n": championship.tables})
    with transaction.atomic():
        _lock_jueces()
        others = holding().exclude(pk=mesa.pk)
        if table_number is not None:
            holder = others.filter(table_number=table_number).first()
            if holder:
                raise ActionRefused(
                    _("Table %(table)d is held by %(mesa)s.") % {"table": table_number, "mesa": mesa_place(holder)}
                )
        if juez is not None:
            holder = others.filter(juez=juez).first()
            if holder:
                raise ActionRefused(
                    _("%(juez)s is the juez of %(mesa)s.") % {"juez": person_name(juez), "mesa": mesa_place(holder)}
                )
        mesa.table_number = table_number
        mesa.juez = juez
        mesa.save(update_fields=["table_number", "juez"])


def start_round(championship, bracket, round_number):
    """Make ready every waiting mesa of one round whose two pairs are known; how many."""
    with transaction.atomic():
        reload_locked(championship)
        count = Mesa.objects.filter(
            championship=championship,
            bracket=bracket,
            round=round_number,
            status=Mesa.Status.WAITING,
            pair_a__isnull=False,
            pair_b__isnull=False,
        ).update(status=Mesa.Status.READY)
        if not count:
            raise ActionRefused(
                _(
                    "No mesa of this round is waiting with both its pairs: it has started already, or its pairs are not known yet."
                )
            )
        record(championship, "round_started", {"round": ["", f"{bracket} {round_number}"], "mesas": ["", str(count)]})
        notify.changed(championship.pk)
        after_round_start(championship, bracket, round_number)
    return count
