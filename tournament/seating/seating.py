"""Seating: which mesa is played at which physical table, by which juez, and when a round may start.

Terms
-----
holding a table
    A mesa that is not decided and has a table number holds that table of
    its championship's sede until it is decided. Championships at the same
    sede on overlapping days share its tables; a mesa at another sede, or
    at this one on other days, holds none of them. The other tables of the
    sede are free.
commitment
    Where a juez is busy: the undecided mesa, of any championship at any
    sede, the juez has been given. The jueces are one pool of the Comité.
free juez
    Active, marked available today (``tournament.accounts.accounts``), and busy with no
    mesa.
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

seated
    A mesa with both its table and its juez: it is called to that table
    (projector, the pairs' pages, the juez's tablet) and counts as waiting
    from that moment (``Mesa.seated_at``).
automatic seating
    A championship's setting: after every result (the claim that ends a
    mesa, a walkover, a correction) and after its draw, each playable mesa
    is seated as soon as a table and a juez are both free, in the same
    transaction, with its audit entries, whoever's act it follows. Once a
    result commits, the other championships that seat automatically take
    the places it freed (a shared sede's table, the pool's juez).
starting a mesa
    How a seated mesa becomes ready is the championship's ``start_mode``:
    the desk starts its round (``start_round``), the juez taps "Start mesa"
    at the table (``start_mesa``), or the juez's first claim starts it (the
    claim log asks ``starts_on_first_claim``). Any other claim on a mesa
    that has not started is refused with what to do (``not_started_reason``).
pace
    The median time its finished mesas took, from the first claim to the
    last; a mesa in play for more than half as long again is overdue.

Assigning locks the championship's row, then the active jueces' rows, so two
organisers assigning at once (in one championship or two) and the results
that seat mesas take turns and never give one juez or one table twice; the
championship first, as a result locks it before it seats, so neither waits
for the other in a circle.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from audit.context import acting, because, record, recording
from backup.auto import after_round_start
from live import notify
from tournament.accounts.accounts import available_today, jueces
from tournament.errors import ActionRefused
from tournament.locking import locked, reload_locked
from tournament.models import Championship, Mesa
from tournament.naming import by_person_name, mesa_place, person_name

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from django.contrib.auth.models import User
    from django.db.models import QuerySet


BRACKET_ORDER = [b for b, _label in Mesa.Bracket.choices]


@dataclass(frozen=True)
class Assignment:
    """What one mesa got: a table, and a juez when one was free (else None)."""

    mesa: Mesa
    table: int | None
    juez: User | None


def play_order(mesa: Mesa) -> tuple[int, int, int]:
    """Sort key for tables: by round, winners' before losers', then position."""
    return (mesa.round, BRACKET_ORDER.index(mesa.bracket), mesa.position)


def bracket_order(mesa: Mesa) -> tuple[int, int, int, int]:
    """Sort key for sheets and boards: the winners' rounds, the losers' rounds, the final, the reset (then 3rd place, groups)."""
    return (BRACKET_ORDER.index(mesa.bracket), mesa.group or 0, mesa.round, mesa.position)


def holding() -> QuerySet[Mesa]:
    """The undecided mesas of every championship that hold a table or a juez."""
    return (
        Mesa.objects.filter(status__in=Mesa.UNDECIDED)
        .filter(Q(table_number__isnull=False) | Q(juez__isnull=False))
        .select_related("championship")
    )


def sharing(championship: Championship) -> QuerySet[Championship]:
    """The championships that share ``championship``'s tables: at its sede on overlapping days (itself too)."""
    return Championship.objects.filter(
        sede_id=championship.sede_id,
        start_date__lte=championship.end_date,
        end_date__gte=championship.start_date,
    )


def holding_tables(championship: Championship) -> QuerySet[Mesa]:
    """The undecided mesas that hold a table of ``championship``'s sede now (see *holding a table*)."""
    return holding().filter(championship__in=sharing(championship), table_number__isnull=False)


def free_tables(championship: Championship, mesa: Mesa | None = None) -> list[int]:
    """The numbers of the tables of ``championship``'s sede that no mesa holds (``mesa``'s own counts as free)."""
    held = holding_tables(championship)
    if mesa is not None:
        held = held.exclude(pk=mesa.pk)
    taken = set(held.values_list("table_number", flat=True))
    return [n for n in championship.sede.tables.values_list("number", flat=True) if n not in taken]


def commitments() -> dict[int | None, Mesa]:
    """{juez id: the mesa that juez is busy with}, across every championship."""
    return {mesa.juez_id: mesa for mesa in holding().exclude(juez=None).order_by("pk")}


# Where a juez of the pool is today, as the tables page says it (:func:`pool`).
FREE, HERE, ELSEWHERE, UNAVAILABLE = "free", "here", "elsewhere", "unavailable"


@dataclass(frozen=True)
class PoolRow:
    """A juez of the pool and where the juez is today, for one championship's page: refereeing one of its
    mesas (``HERE``) or another championship's (``ELSEWHERE``; ``mesa`` says which, its table and championship),
    else ``FREE`` when available today, ``UNAVAILABLE`` when not; ``available``: marked available today (a
    juez refereeing may have been marked not available since: the mesa is still the juez's)."""

    juez: User
    name: str
    state: str
    mesa: Mesa | None
    available: bool


def pool(championship: Championship) -> list[PoolRow]:
    """Every active juez by name, each a :class:`PoolRow` for ``championship``: available is not free."""
    busy, here = commitments(), available_today()
    rows: list[PoolRow] = []
    for juez in by_person_name(jueces()):
        mesa = busy.get(juez.pk)
        if mesa is not None:
            state = HERE if mesa.championship_id == championship.pk else ELSEWHERE
        else:
            state = FREE if juez.pk in here else UNAVAILABLE
        rows.append(PoolRow(juez, person_name(juez), state, mesa, juez.pk in here))
    return rows


def free_jueces() -> list[User]:
    """The free jueces (see the terms), in the pool's order."""
    busy = set(holding().exclude(juez=None).values_list("juez_id", flat=True))
    here = available_today()
    return [j for j in jueces() if j.pk in here and j.pk not in busy]


def _lock_jueces() -> None:
    list(
        get_user_model()
        .objects.select_for_update()
        .filter(pk__in=jueces().values("pk"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _seated(mesa: Mesa, fields: list[str]) -> list[str]:
    """Mark ``mesa`` seated (called) when it now has both its table and its juez; not seated when it lost either."""
    seated = mesa.table_number is not None and mesa.juez_id is not None
    when = (mesa.seated_at or timezone.now()) if seated else None
    if when != mesa.seated_at:
        mesa.seated_at = when
        fields.append("seated_at")
    return fields


def _unseated() -> QuerySet[Mesa]:
    """The playable mesas (both pairs known, not decided) that still lack a table or a juez."""
    return Mesa.objects.filter(
        status__in=(Mesa.Status.WAITING, Mesa.Status.READY), pair_a__isnull=False, pair_b__isnull=False
    ).filter(Q(table_number=None) | Q(juez=None))


def assign_tables(championship: Championship, *, by: User, address: str | None = None) -> list[Assignment]:
    """Give every playable mesa without a table a free table, and a free juez; the list of :class:`Assignment`.

    Playable: both pairs known and not decided. Mesas go out in bracket
    order (round, then winners' before losers', then position); those left
    over wait for a table to free up (:func:`why_unseated` says why).
    ``by`` (from ``address``): the user who seats them, named in each mesa's entry.
    """
    with acting(by, address):
        return _assign_tables(championship)


def _assign_tables(championship: Championship, whole: bool = False) -> list[Assignment]:
    """:func:`assign_tables` under the caller's actor; ``whole``: a mesa gets a table only with a juez
    (automatic seating calls no pair to a table without one)."""
    with transaction.atomic():
        reload_locked(championship)
        _lock_jueces()
        tables, people = free_tables(championship), free_jueces()
        mesas = _unseated().filter(championship=championship).select_for_update()
        assigned: list[Assignment] = []
        for mesa in sorted(mesas, key=play_order):
            if whole and (mesa.table_number is None and not tables or mesa.juez_id is None and not people):
                continue
            fields: list[str] = []
            if mesa.table_number is None and tables:
                mesa.table_number = tables.pop(0)
                fields.append("table_number")
            if mesa.juez_id is None and mesa.table_number is not None and people:
                mesa.juez = people.pop(0)
                fields.append("juez")
            if fields:
                mesa.save(update_fields=_seated(mesa, fields))
                assigned.append(Assignment(mesa, mesa.table_number, mesa.juez))
    return assigned


def auto_seat(championship: Championship, *, by: User | None) -> list[Assignment]:
    """Seat the championship's playable mesas that a free table and a free juez await, when it seats automatically.

    The list of :class:`Assignment`. ``by``: the user whose act freed the
    places or made the mesas playable; None: the actor of the act it
    follows, if any (nobody for a claim from a tablet opened with the
    table's PIN). Each mesa's entry in the trail says it was seated
    automatically, even inside the tablets' API, whose own claims the
    claim log records instead.
    """
    if not championship.auto_seating:
        return []
    actor = acting(by) if by is not None else contextlib.nullcontext()
    with transaction.atomic(), actor, recording(), because(_("Seated automatically")):
        return _assign_tables(championship, whole=True)


def auto_seat_others(championship: Championship) -> None:
    """Once the act that freed a table or a juez of ``championship`` commits, let every other championship that
    seats automatically and has a mesa waiting for a place take what is free, each in its own transaction.

    The jueces are one pool and a sede's tables are shared, so a result at
    one championship may free the very place another is waiting for.
    After the commit, so that no transaction holds two championships'
    locks (two results at two championships would wait on each other);
    robust, because the result is already kept and the next act seats
    again.
    """

    def seat() -> None:
        waiting = _unseated().exclude(championship=championship).values("championship")
        for other in Championship.objects.filter(auto_seating=True, pk__in=waiting).order_by("pk"):
            auto_seat(other, by=None)

    transaction.on_commit(seat, robust=True)


def why_unseated(championship: Championship) -> list[str]:
    """Why the playable mesas still without a table or a juez got none: a list of sentences (empty: none waits)."""
    waiting = _unseated().filter(championship=championship)
    reasons = []
    tableless = waiting.filter(table_number=None).count()
    if tableless:
        reasons.append(_no_table(championship, tableless))
    jueceless = waiting.filter(juez=None).count()
    if jueceless and not free_jueces():
        reasons.append(_no_juez(jueceless))
    return reasons


def _no_table(championship: Championship, count: int) -> str:
    sede = championship.sede
    total = sede.tables.count()
    holders: dict[Championship, list[int]] = {}
    for mesa in holding_tables(championship):
        # holding_tables holds only mesas at a table.
        holders.setdefault(mesa.championship, []).append(cast(int, mesa.table_number))
    held = ", ".join(
        _("%(championship)s holds %(n)d (%(tables)s)")
        % {"championship": c, "n": len(numbers), "tables": ", ".join(str(n) for n in sorted(numbers))}
        for c, numbers in sorted(holders.items(), key=lambda item: item[0].pk)
    )
    message = ngettext(
        "%(n)d mesa has no table: no table of %(sede)s is free (%(total)d tables",
        "%(n)d mesas have no table: no table of %(sede)s is free (%(total)d tables",
        count,
    ) % {"n": count, "sede": sede, "total": total}
    return message + (f"; {held})." if held else ").")


def _no_juez(count: int) -> str:
    here = available_today()
    pool = [j for j in jueces() if j.pk in here]
    if not pool:
        return ngettext(
            "%(n)d mesa has no juez: no juez is marked available today.",
            "%(n)d mesas have no juez: no juez is marked available today.",
            count,
        ) % {"n": count}
    return ngettext(
        "%(n)d mesa has no juez: the %(available)d jueces available today are all busy.",
        "%(n)d mesas have no juez: the %(available)d jueces available today are all busy.",
        count,
    ) % {"n": count, "available": len(pool)}


def assign_table(
    mesa: Mesa, table_number: int | None, juez: User | None, *, by: User, address: str | None = None
) -> None:
    """Put one mesa on a given table with a given juez (either may be None); ``by`` (from ``address``)
    is named in its entry."""
    if mesa.status in Mesa.DECIDED:
        raise ActionRefused(_("%(mesa)s is already decided.") % {"mesa": mesa_place(mesa)})
    championship = mesa.championship
    sede = championship.sede
    if table_number is not None and not sede.tables.filter(number=table_number).exists():
        raise ActionRefused(_("%(sede)s has no table %(table)d.") % {"sede": sede, "table": table_number})
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        _lock_jueces()
        if table_number is not None:
            holder = holding_tables(championship).exclude(pk=mesa.pk).filter(table_number=table_number).first()
            if holder:
                raise ActionRefused(
                    _("Table %(table)d is held by %(mesa)s.") % {"table": table_number, "mesa": mesa_place(holder)}
                )
        if juez is not None:
            holder = holding().exclude(pk=mesa.pk).filter(juez=juez).first()
            if holder:
                raise ActionRefused(
                    _("%(juez)s is the juez of %(mesa)s.") % {"juez": person_name(juez), "mesa": mesa_place(holder)}
                )
        mesa.table_number = table_number
        mesa.juez = juez
        mesa.save(update_fields=_seated(mesa, ["table_number", "juez"]))


def start_round(
    championship: Championship, bracket: str, round_number: int, *, by: User, address: str | None = None
) -> int:
    """Make ready every waiting mesa of one round whose two pairs are known; how many.

    ``by`` (from ``address``): the user who starts it, named in its entry.
    """
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        count = Mesa.objects.filter(championship=championship, bracket=bracket, round=round_number).make_ready()
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


def start_mesa(mesa: Mesa, *, by: User, address: str | None = None) -> Mesa:
    """The juez's tap at the table: a seated mesa that is waiting becomes ready for its first claim.

    Refused, saying what to do, unless the championship starts its mesas
    this way and the mesa is seated with both its pairs.
    """
    with transaction.atomic(), acting(by, address):
        mesa = locked(Mesa.objects.filter(pk=mesa.pk).select_related("championship")).get()
        if mesa.status != Mesa.Status.WAITING:
            raise ActionRefused(_("Mesa %(mesa)s is no longer waiting to start.") % {"mesa": mesa})
        if mesa.championship.start_mode == Championship.Start.FIRST_CLAIM:
            raise ActionRefused(_("Mesa %(mesa)s starts with its first claim: log it.") % {"mesa": mesa})
        if mesa.championship.start_mode != Championship.Start.TAP or not seated_with_pairs(mesa):
            raise ActionRefused(not_started_reason(mesa))
        mesa.status = Mesa.Status.READY
        mesa.save(update_fields=["status"])
    return mesa


def seated_with_pairs(mesa: Mesa) -> bool:
    """Whether ``mesa`` knows both its pairs and has its table and its juez."""
    return None not in (mesa.pair_a_id, mesa.pair_b_id, mesa.table_number, mesa.juez_id)


def starts_on_first_claim(mesa: Mesa) -> bool:
    """Whether a claim on ``mesa``, waiting, starts it: its championship says so and it is seated with its pairs."""
    return (
        mesa.status == Mesa.Status.WAITING
        and mesa.championship.start_mode == Championship.Start.FIRST_CLAIM
        and seated_with_pairs(mesa)
    )


def not_started_reason(mesa: Mesa) -> str:
    """What the juez reads when ``mesa`` refuses a claim because it has not started: what to do; "" if it has."""
    if mesa.status != Mesa.Status.WAITING:
        return ""
    if mesa.pair_a_id is None or mesa.pair_b_id is None:
        return _("Mesa %(mesa)s has not started: both its pairs are not known yet. Wait until they are called.") % {
            "mesa": mesa
        }
    if mesa.table_number is None or mesa.juez_id is None:
        return _(
            "Mesa %(mesa)s has not started: it has no table or no juez yet. The control desk seats it (Mesas y jueces)."
        ) % {"mesa": mesa}
    mode = mesa.championship.start_mode
    if mode == Championship.Start.TAP:
        return _(
            "Mesa %(mesa)s has not started: once both pairs are seated, tap “Start mesa” on this screen,"
            " then log the claim again."
        ) % {"mesa": mesa}
    if mode == Championship.Start.FIRST_CLAIM:
        return ""
    return _(
        "Mesa %(mesa)s has not started: the control desk starts its round (Summary, “Start N mesas”). Ask the desk,"
        " then log the claim again."
    ) % {"mesa": mesa}


# A mesa in play longer than its championship's pace times this is overdue;
# the pace needs this many finished mesas to be one.
OVERDUE_FACTOR = 1.5
PACE_SAMPLE = 3
# No chica to 40 is played this fast: a mesa whose claims all came within
# it was logged after the fact (the demo's, a sheet copied in), and would make
# every mesa in play look overdue.
PLAYED_AT_LEAST = timedelta(minutes=2)


def pace(mesas: Iterable[Mesa]) -> timedelta | None:
    """The median duration of the finished ``mesas`` played at the table (first claim to last); None with too few
    to say."""
    durations = sorted(
        m.finished_at - m.started_at
        for m in mesas
        if m.status == Mesa.Status.FINISHED
        and m.started_at is not None
        and m.finished_at is not None
        and m.finished_at - m.started_at >= PLAYED_AT_LEAST
    )
    if len(durations) < PACE_SAMPLE:
        return None
    # statistics.median's, spelled out: its types take numbers, not durations.
    middle = len(durations) // 2
    return durations[middle] if len(durations) % 2 else (durations[middle - 1] + durations[middle]) / 2


@dataclass(frozen=True)
class Flags:
    """What the control board points out: the pace, overdue mesas (ids), mesas waiting for a place (ids), idle tables."""

    pace: timedelta | None
    overdue: frozenset[int]
    unseated: frozenset[int]
    idle_tables: list[int]

    @property
    def pace_minutes(self) -> int | None:
        return None if self.pace is None else max(1, round(self.pace.total_seconds() / 60))


def flags(championship: Championship, mesas: Sequence[Mesa], now: datetime | None = None) -> Flags:
    """The control board's :class:`Flags` of ``championship``, whose mesas are ``mesas`` (all of them)."""
    now = now or timezone.now()
    usual = pace(mesas)
    overdue = frozenset(
        m.pk
        for m in mesas
        if usual is not None
        and m.status in (Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)
        and m.started_at is not None
        and now - m.started_at > usual * OVERDUE_FACTOR
    )
    unseated = frozenset(
        m.pk
        for m in mesas
        if not m.has_started and m.pair_a_id and m.pair_b_id and (m.table_number is None or m.juez_id is None)
    )
    return Flags(usual, overdue, unseated, free_tables(championship))


def in_bracket_order(championship: Championship) -> list[Mesa]:
    """Every mesa of the championship in one query, in bracket order."""
    mesas = championship.mesas.select_related("pair_a", "pair_b", "winner", "juez")
    return sorted(mesas, key=bracket_order)
