"""The jueces' pool and the organisers' group: who may referee and who runs championships.

Terms
-----
juez
    A user in the ``Jueces`` group; an active one can be given a table.
organiser
    A staff user in the ``Organizadores`` group: draws, tables, results.
Director
    A user in the ``Directores`` group: the one a championship names as its
    Director (appeals, resolutions, overrides: Art. 17-18) is chosen among
    them.
Comité administrator
    A superuser: makes the organisers' and Directors' accounts (the
    organisers make the jueces').
juez account
    A juez who is neither staff nor an administrator: the accounts an
    organiser may manage, so that no organiser sets another organiser's
    password.
available today
    The jueces are one pool of the Comité; an organiser marks who came
    today (today in the championship's time zone), and assignment gives
    tables only to them. A new juez is available on the day it is made
    (it is made to referee), by the form and the import alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting, record
from tournament.errors import ActionRefused
from tournament.locking import locked
from tournament.models import JuezDay, Mesa
from tournament.naming import mesa_label, person_name

if TYPE_CHECKING:
    from datetime import date

    from django.db.models import QuerySet


JUECES_GROUP = "Jueces"
ORGANISERS_GROUP = "Organizadores"
DIRECTORS_GROUP = "Directores"
ROLES = ("organiser", "director")
# The role of a juez's account (``open_account``), given by an organiser, not by the Comité.
JUEZ = "juez"


def jueces() -> QuerySet[User]:
    """The active jueces: the pool the tables get their referee from."""
    return get_user_model().objects.filter(groups__name=JUECES_GROUP, is_active=True).order_by("pk")


def juez_accounts() -> QuerySet[User]:
    """The juez accounts an organiser may manage (see the terms above)."""
    return (
        get_user_model()
        .objects.filter(groups__name=JUECES_GROUP, is_staff=False, is_superuser=False)
        .order_by("first_name", "last_name", "username")
    )


def directors() -> QuerySet[User]:
    """The active Directors, by name: those a championship may name."""
    return (
        get_user_model()
        .objects.filter(groups__name=DIRECTORS_GROUP, is_active=True)
        .order_by("first_name", "last_name", "username")
    )


def role_accounts() -> QuerySet[User]:
    """The organisers and Directors, by name, each with ``roles``: what the Comité's page lists."""
    people = (
        get_user_model()
        .objects.filter(groups__name__in=[ORGANISERS_GROUP, DIRECTORS_GROUP])
        .distinct()
        .prefetch_related("groups")
        .order_by("first_name", "last_name", "username")
    )
    for person in people:
        names = {g.name for g in person.groups.all()}
        # Read by the Comité's page: an attribute of the instance, as the page lists the accounts themselves.
        setattr(  # noqa: B010
            person,
            "roles",
            [
                role
                for role, group in (("organiser", ORGANISERS_GROUP), ("director", DIRECTORS_GROUP))
                if group in names
            ],
        )
    return people


def give_role(user: User, role: str) -> None:
    """Make ``user`` an organiser (staff, in the organisers' group) or a Director (in the Directors' group)."""
    if role not in ROLES:
        raise ActionRefused(_("Unknown role: %(role)s.") % {"role": role})
    if role == "organiser":
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP if role == "organiser" else DIRECTORS_GROUP)
    user.groups.add(group)


def make_juez(user: User) -> None:
    """Put ``user`` in the jueces' pool, available today (see the terms; audited under the caller's actor)."""
    group, _created = Group.objects.get_or_create(name=JUECES_GROUP)
    user.groups.add(group)
    _available(user, timezone.localdate())


def available_today(day: date | None = None) -> set[int]:
    """The ids of the jueces marked available on ``day`` (today, in the championship's time zone)."""
    return set(JuezDay.objects.filter(day=day or timezone.localdate()).values_list("juez_id", flat=True))


def _available(juez: User, day: date) -> None:
    _mark, made = JuezDay.objects.get_or_create(juez=juez, day=day)
    if made:
        record(juez, "juez_available", {"available": ["", day.isoformat()]})


def mark_available(
    juez: User, available: bool, *, by: User, day: date | None = None, address: str | None = None
) -> bool:
    """Mark ``juez`` available (``True``) or not on ``day`` (today); whether anything changed (audited when it does).

    A stated intent, never a toggle: a second tap changes nothing.
    """
    day = day or timezone.localdate()
    with transaction.atomic(), acting(by, address):
        list(locked(type(juez)._default_manager.filter(pk=juez.pk)).values_list("pk", flat=True))
        marks = JuezDay.objects.filter(juez=juez, day=day)
        if marks.exists() == available:
            return False
        if available:
            _available(juez, day)
        else:
            marks.delete()
            record(juez, "juez_unavailable", {"available": ["", day.isoformat()]})
        return True


def mark_all_available(*, by: User, address: str | None = None) -> list[User]:
    """Mark every active juez not yet available today available, in one act; return them (each audited)."""
    day = timezone.localdate()
    with transaction.atomic(), acting(by, address):
        list(locked(jueces()).values_list("pk", flat=True))
        marked = list(jueces().exclude(pk__in=available_today(day)))
        for juez in marked:
            _available(juez, day)
        return marked


def open_account(
    *,
    username: str,
    password: str | None,
    first_name: str,
    last_name: str,
    role: str,
    by: User,
    address: str | None = None,
) -> User:
    """A new account that signs in as ``username`` with ``password``, named ``first_name`` ``last_name``:
    a juez's (``role`` :data:`JUEZ`: in the pool, available today), an organiser's or a Director's
    (:data:`ROLES`); ``by`` (from ``address``) is named in the entries."""
    if role != JUEZ and role not in ROLES:
        raise ActionRefused(_("Unknown role: %(role)s.") % {"role": role})
    with transaction.atomic(), acting(by, address):
        user = get_user_model().objects.create_user(
            username, password=password, first_name=first_name, last_name=last_name
        )
        if role == JUEZ:
            make_juez(user)
        else:
            give_role(user, role)
        return user


def set_password(user: User, password: str, *, by: User, address: str | None = None) -> User:
    """``user``'s new ``password``: the sessions signed in with the old one end (Django's session hash);
    ``by`` (from ``address``) is named in the entry."""
    with transaction.atomic(), acting(by, address):
        user.set_password(password)
        user.save(update_fields=["password"])
        return user


def set_juez_active(juez: User, active: bool, *, by: User, address: str | None = None) -> None:
    """Let a juez sign in again, or no longer (a juez who leaves the championship).

    Refused while the juez still has a mesa that is not decided: the
    organiser gives it to another juez first, so that no table is left with
    a juez who cannot sign in.
    """
    if not active:
        held = Mesa.objects.filter(juez=juez, status__in=Mesa.UNDECIDED).order_by("championship", "round", "position")
        if held:
            raise ActionRefused(
                _("%(name)s is still the juez of %(mesas)s; give it to another juez first.")
                % {"name": person_name(juez), "mesas": ", ".join(mesa_label(m) for m in held)},
                held,
            )
    with transaction.atomic(), acting(by, address):
        juez.is_active = active
        juez.save(update_fields=["is_active"])
