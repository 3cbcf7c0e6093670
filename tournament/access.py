"""Who a user is to the tournament: the facts the policy's relations are made of (``tournament.policy`` decides).

Organisers are active staff users with the ``tournament.run_championship``
permission (the "Organizadores" group has it). The Comité's administrator is a
superuser. A championship's Director is ``championship.director``; a juez is in
the "Jueces" group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from .models import Championship, Mesa, Table

if TYPE_CHECKING:
    from datetime import date

    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import QuerySet

    from tournament.models import Sede


def is_organiser(user: User | AnonymousUser) -> bool:
    return user.is_active and user.is_staff and user.has_perm("tournament.run_championship")


def is_committee(user: User | AnonymousUser) -> bool:
    """The Comité's administrator: makes the organisers' and Directors' accounts."""
    return user.is_active and user.is_superuser


def is_director(user: AbstractBaseUser | AnonymousUser, championship: Championship) -> bool:
    """The one answer to "is this user the championship's Director" (Art. 18)."""
    return user.is_authenticated and user.is_active and championship.director_id == user.pk


def directs_today(user: User | AnonymousUser, championship: Championship, day: date | None = None) -> bool:
    """The championship's Director, on its days: a championship over or not yet begun gives its Director no reach
    over what is played today (its records stay theirs to read)."""
    day = day or timezone.localdate()
    return is_director(user, championship) and championship.start_date <= day <= championship.end_date


def is_juez(user: User | AnonymousUser) -> bool:
    """A juez of the pool (the "Jueces" group, as ``tournament.accounts`` makes them)."""
    return user.is_active and user.groups.filter(name="Jueces").exists()


def directs_any(user: User | AnonymousUser) -> bool:
    """A Director of some championship: in the Directors' group, or named Director of one."""
    return user.is_active and (user.groups.filter(name="Directores").exists() or directed(user).exists())


def directed(user: User | AnonymousUser) -> QuerySet[Championship]:
    """The championships ``user`` directs (none for a stranger or a disabled account)."""
    if not (user.is_authenticated and user.is_active):
        return Championship.objects.none()
    return Championship.objects.filter(director=user)


def overseen(user: User | AnonymousUser) -> QuerySet[Championship]:
    """The championships whose records ``user`` reads (``tournament.policy``'s ``read_records``), as a queryset:
    every one for an organiser, else those they direct."""
    if is_organiser(user):
        return Championship.objects.all()
    return directed(user)


def played_on(day: date | None = None) -> QuerySet[Championship]:
    """The championships played on ``day`` (today, in the site's time zone): from their first day to their last."""
    day = day or timezone.localdate()
    return Championship.objects.filter(start_date__lte=day, end_date__gte=day)


def tables_reached(user: User | AnonymousUser, sede: Sede | int, day: date | None = None) -> QuerySet[Table]:
    """The tables of ``sede`` whose PIN ``user`` may read (their cards) and print again: the organisers every one;
    whoever oversees a championship played there today, the tables it is seated or to be seated at.

    A physical table is its sede's, shared by the championships played there: its PIN opens every mesa seated at
    it. So a Director reaches tables only on the days of their championship: the ones a mesa of theirs holds
    (undecided, seated there), or every one when no one else's championship is played at the sede that day (the
    mesas to be seated there are theirs). A Director of another championship at the sede, of one over, or of one
    not yet begun, reaches none.
    """
    tables = Table.objects.filter(sede=sede)
    if is_organiser(user):
        return tables
    today = played_on(day).filter(sede=sede)
    mine = today.filter(pk__in=directed(user).values("pk"))
    if not mine.exists():
        return tables.none()
    if not today.exclude(pk__in=mine.values("pk")).exists():
        return tables
    held = Mesa.objects.filter(championship__in=mine, table_number__isnull=False, status__in=Mesa.UNDECIDED)
    return tables.filter(number__in=held.values("table_number"))


def reaches_table(user: User | AnonymousUser, table: Table, day: date | None = None) -> bool:
    """Whether ``user`` may read ``table``'s PIN and print it again (:func:`tables_reached`)."""
    return tables_reached(user, table.sede_id, day).filter(pk=table.pk).exists()
