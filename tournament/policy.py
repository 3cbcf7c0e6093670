"""Who may do what, at which championship: the one table of acts against relations, and its guard.

A request (or a service's user) stands in one or more *relations* to what it acts on (a championship, a mesa, a
physical table, an appeal, a pair): :func:`relations` names them. :data:`MAY` says, for every act, the relations
that may do it. Every page, API view and command that acts on a championship asks here (``@allowed(act)`` on a
view, :class:`Allowed` on an API view, :func:`may` in a domain function or a command, ``{% may %}`` in a template);
nothing else decides.

The relations:

- ``comite``: the Comité's administrator (a superuser);
- ``organiser``: an organiser (``tournament.access.is_organiser``; the control desk too);
- ``director``: the championship's Director, on its days (``directs_today``): a championship over or not yet
  begun gives its Director no reach over what is played today;
- ``director_off_days``: the championship's Director on any other day: its records stay theirs to read;
- ``other_director``: a Director of another championship;
- ``juez``, ``inspector``: the mesa's juez, its inspector, signed in;
- ``other_juez``: a juez of the pool who is neither;
- ``tablet``: a device opened with the PIN of the physical table the mesa is seated at (or of the table itself);
- ``pair``: the holder of a pair's link (its address names it);
- ``signed_in``: anyone signed in;
- ``public``: anyone, signed in or not.

With nothing to act on (the appeals' list, the trail, the jueces' pages), a Director relates as ``director`` when
they direct any championship: the one meaning of "oversees any championship". A physical table relates its
organisers, and as ``director`` whoever oversees a championship seated or to be seated at it today
(:func:`tournament.access.tables_reached`); a PIN-opened device there is its ``tablet``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import date
from functools import wraps
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar, cast

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework.permissions import BasePermission

from . import access
from .models import Championship, Mesa, Pair, Table

_Record = TypeVar("_Record", bound="Model")

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import User
    from django.db.models import Model
    from django.http import HttpRequest, HttpResponse
    from rest_framework.request import Request
    from rest_framework.views import APIView

    # Who asks: a request, or a service's user (None: no one). What it acts on: a record, or nothing.
    Who: TypeAlias = HttpRequest | AbstractBaseUser | AnonymousUser | None
    Target: TypeAlias = Model | None
    View: TypeAlias = Callable[..., HttpResponse]

COMITE = "comite"
ORGANISER = "organiser"
DIRECTOR = "director"
DIRECTOR_OFF_DAYS = "director_off_days"
OTHER_DIRECTOR = "other_director"
JUEZ = "juez"
INSPECTOR = "inspector"
OTHER_JUEZ = "other_juez"
TABLET = "tablet"
PAIR = "pair"
SIGNED_IN = "signed_in"
PUBLIC = "public"

RELATIONS = (
    COMITE,
    ORGANISER,
    DIRECTOR,
    DIRECTOR_OFF_DAYS,
    OTHER_DIRECTOR,
    JUEZ,
    INSPECTOR,
    OTHER_JUEZ,
    TABLET,
    PAIR,
    SIGNED_IN,
    PUBLIC,
)

# The acts.
READ_PUBLIC = "read_public"  # the public pages: bracket, standings, live boards, rules, ranking, guides
READ_PAIR = "read_pair"  # a pair's own page, behind its link
OPEN_TABLE = "open_table"  # the PIN pages: anyone may type a PIN
OWN_MESAS = "own_mesas"  # a juez's list of their mesas, a print job's page
RUN = "run"  # an organiser's pages of a championship: edit, pairs, draw, tables, board, persons
RUN_SITE = "run_site"  # the organisers' pages of no one championship: a new one, sedes, jueces, history, mirror
MANAGE_ACCOUNTS = "manage_accounts"  # the Comité's accounts page
MERGE_PERSONS = "merge_persons"  # the Comité's merges and splits of persons
EMERGENCY_RESULT = "emergency_result"  # manage.py emergency_result
WALKOVER = "walkover"  # a walkover for an undecided mesa
CORRECT_RESULT = "correct_result"  # a decided mesa's correction (the Director's alone overrides, OVERRIDE)
OVERRIDE = "override"  # a blocked correction forced through (Art. 18)
READ_RECORDS = "read_records"  # report, cards, planillas printed, resolutions, appeals, trail
RULE_APPEAL = "rule_appeal"  # admit, dismiss, rule (Art. 17)
RESOLVE = "resolve"  # a resolution, an import of precedents (Art. 18)
PRINT_TABLE = "print_table"  # a physical table's card and its PIN, a new PIN
FOLLOW_TABLE = "follow_table"  # a PIN-opened device's screen of its table: the mesa seated there now
VIEW_MESA = "view_mesa"  # a mesa's screen, log and planilla
ACT_AT_MESA = "act_at_mesa"  # logging claims at a mesa, starting it
JUEZ_TABLET = "juez_tablet"  # the planilla's signatures, filing and acknowledging appeals (Art. 16-17)
ASK_ENGINE = "ask_engine"  # the engine's answers to a tablet about cards (the levante), no mesa's data

_OVERSEERS = frozenset({COMITE, ORGANISER, DIRECTOR})
_OFFICIALS = frozenset({JUEZ, INSPECTOR, TABLET})
_EVERYONE = frozenset(RELATIONS)

# Who may do what: act -> the relations that may.
MAY = {
    READ_PUBLIC: _EVERYONE,
    READ_PAIR: frozenset({PAIR}),
    OPEN_TABLE: _EVERYONE,
    OWN_MESAS: frozenset({SIGNED_IN}),
    RUN: frozenset({COMITE, ORGANISER}),
    RUN_SITE: frozenset({COMITE, ORGANISER}),
    MANAGE_ACCOUNTS: frozenset({COMITE}),
    MERGE_PERSONS: frozenset({COMITE}),
    EMERGENCY_RESULT: frozenset({COMITE}),
    WALKOVER: frozenset({COMITE, ORGANISER}),
    CORRECT_RESULT: _OVERSEERS,
    OVERRIDE: frozenset({DIRECTOR}),
    READ_RECORDS: _OVERSEERS | {DIRECTOR_OFF_DAYS},
    # The rulings are the championship's own record, whatever the day: its appeals and resolutions are its
    # Director's (Art. 17-18). What reaches over today's play (an override, a table's PIN) is the Director's on
    # the championship's days alone.
    RULE_APPEAL: frozenset({DIRECTOR, DIRECTOR_OFF_DAYS}),
    RESOLVE: frozenset({DIRECTOR, DIRECTOR_OFF_DAYS}),
    PRINT_TABLE: _OVERSEERS,
    FOLLOW_TABLE: frozenset({TABLET}),
    VIEW_MESA: _OVERSEERS | {DIRECTOR_OFF_DAYS} | _OFFICIALS,
    ACT_AT_MESA: _OFFICIALS,
    JUEZ_TABLET: frozenset({JUEZ, TABLET}),
    ASK_ENGINE: frozenset({SIGNED_IN, TABLET}),
}

# --- the table's PIN, as the session holds it ---------------------------------

SESSION_KEY = "table_pins"  # {str(table id): the PIN that opened it}


def table_of(mesa: Mesa) -> Table | None:
    """The physical table ``mesa`` is seated at (None: no table yet)."""
    if mesa.table_number is None:
        return None
    return Table.objects.filter(sede__championships=mesa.championship_id, number=mesa.table_number).first()


def has_table_grant(request: Who, table: Table) -> bool:
    """True when this session was opened with ``table``'s current PIN."""
    session = getattr(request, "session", None)
    pin = session.get(SESSION_KEY, {}).get(str(table.pk)) if session is not None else None
    return pin is not None and secrets.compare_digest(pin, table.pin)


def has_pin_grant(request: Who, mesa: Mesa) -> bool:
    """True when this session was opened with the current PIN of the table ``mesa`` is seated at."""
    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_KEY) or mesa.table_number is None:
        return False
    table = table_of(mesa)
    return table is not None and has_table_grant(request, table)


# --- relations ----------------------------------------------------------------


def _user(who: Who) -> User | AnonymousUser:
    """The user of a request, or ``who`` itself (a service's user; None: no one)."""
    user = getattr(who, "user", who)
    return cast("User | AnonymousUser", user) if user is not None else AnonymousUser()


def championship_of(target: Target) -> Championship | None:
    """The championship ``target`` (a championship, mesa, appeal or pair) belongs to; None for a table or nothing."""
    if target is None or isinstance(target, Table):
        return None
    if isinstance(target, Championship):
        return target
    if isinstance(target, Mesa | Pair):
        return target.championship
    mesa = mesa_of(target)  # an appeal's
    return mesa.championship if mesa is not None else None


def mesa_of(target: Target) -> Mesa | None:
    if isinstance(target, Mesa):
        return target
    mesa = getattr(target, "mesa", None)
    return mesa if isinstance(mesa, Mesa) else None


def _directs(user: User, target: Target, day: date | None) -> bool:
    if isinstance(target, Table):
        return access.reaches_table(user, target, day)
    championship = championship_of(target)
    if championship is None:
        return access.directed(user).exists()
    return access.directs_today(user, championship, day)


def _directs_off_days(user: User, target: Target, day: date | None) -> bool:
    championship = championship_of(target)
    return (
        championship is not None
        and access.is_director(user, championship)
        and not access.directs_today(user, championship, day)
    )


def _directs_another(user: User, target: Target, day: date | None) -> bool:
    championship = championship_of(target)
    return championship is not None and not access.is_director(user, championship) and access.directs_any(user)


def _officiates(user: User, mesa: Mesa | None) -> bool:
    return mesa is not None and user.pk in (mesa.juez_id, mesa.inspector_id)


def _tablet(who: Who, target: Target) -> bool:
    if isinstance(target, Table):
        return has_table_grant(who, target)
    mesa = mesa_of(target)
    if mesa is not None:
        return has_pin_grant(who, mesa)
    session = getattr(who, "session", None)
    return target is None and session is not None and bool(session.get(SESSION_KEY))  # opened at some table


# Each relation's test, cheapest first: ``may`` stops at the first that holds (the tablet's poll asks every second).
# (who: the request or the user; user: the signed-in active user or None; target; day) -> bool.
_HOLDS: dict[str, Callable[[Who, User | None, Target, date | None], bool]] = {
    PUBLIC: lambda who, user, target, day: True,
    SIGNED_IN: lambda who, user, target, day: user is not None,
    PAIR: lambda who, user, target, day: isinstance(target, Pair),
    COMITE: lambda who, user, target, day: user is not None and access.is_committee(user),
    JUEZ: lambda who, user, target, day: user is not None and getattr(mesa_of(target), "juez_id", None) == user.pk,
    INSPECTOR: lambda who, user, target, day: (
        user is not None
        and getattr(mesa_of(target), "inspector_id", None) == user.pk
        and getattr(mesa_of(target), "juez_id", None) != user.pk
    ),
    DIRECTOR: lambda who, user, target, day: user is not None and _directs(user, target, day),
    DIRECTOR_OFF_DAYS: lambda who, user, target, day: user is not None and _directs_off_days(user, target, day),
    TABLET: lambda who, user, target, day: who is not user and _tablet(who, target),
    ORGANISER: lambda who, user, target, day: user is not None and access.is_organiser(user),
    OTHER_DIRECTOR: lambda who, user, target, day: user is not None and _directs_another(user, target, day),
    OTHER_JUEZ: lambda who, user, target, day: (
        user is not None
        and mesa_of(target) is not None
        and not _officiates(user, mesa_of(target))
        and access.is_juez(user)
    ),
}


def _signed_in(who: Who) -> User | None:
    user = _user(who)
    return user if user.is_authenticated and user.is_active else None


def relations(who: Who, target: Target = None, day: date | None = None) -> set[str]:
    """The relations a request (or a user) ``who`` stands in to ``target`` (see the module's docstring)."""
    user = _signed_in(who)
    return {relation for relation, holds in _HOLDS.items() if holds(who, user, target, day)}


def holds(who: Who, relation: str, target: Target = None, day: date | None = None) -> bool:
    """Whether ``who`` stands in ``relation`` to ``target``."""
    return _HOLDS[relation](who, _signed_in(who), target, day)


def may(who: Who, act: str, target: Target = None, day: date | None = None) -> bool:
    """Whether the request (or user) ``who`` may do ``act`` to ``target``: the one answer of the table."""
    user = _signed_in(who)
    return any(holds(who, user, target, day) for relation, holds in _HOLDS.items() if relation in MAY[act])


# --- the guard ------------------------------------------------------------------

# A URL's parameter -> the record it names, for the routes whose ``pk`` names no championship: ``target=``.
_FOUND_BY = {
    "mesa_pk": Mesa,
    "mesa_id": Mesa,
    "table_id": Table,
}


def target_of(kwargs: dict[str, Any], pk: type[Model] | None = Championship) -> Target:
    """What the URL's parameters name: a mesa, a table, a pair (by its link's token), or the record ``pk``
    names (a championship unless the view says otherwise); None when they name none. A missing one is 404."""
    if "token" in kwargs:
        return get_object_or_404(Pair.objects.select_related("championship"), token=kwargs["token"])
    for name, model in _FOUND_BY.items():
        if name in kwargs:
            found = get_object_or_404(model, pk=kwargs[name])
            if isinstance(found, Mesa) and "pk" in kwargs and found.championship_id != kwargs["pk"]:
                raise Http404
            return found
    if "pk" in kwargs and pk is not None:
        return get_object_or_404(pk, pk=kwargs["pk"])
    return None


def refuse(request: HttpRequest, target: Target = None) -> HttpResponse:
    """The answer to a request the table refuses: a visitor signs in first; anyone else gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def allowed(
    act: str,
    pk: type[Model] | None = Championship,
    find: Callable[[dict[str, Any]], Target] | None = None,
    refused: Callable[[HttpRequest, Target], HttpResponse] = refuse,
    act_of: Callable[[HttpRequest, Target], str] | None = None,
    **by_method: str,
) -> Callable[[View], View]:
    """A view's guard: the view runs only for whom :data:`MAY` lets do its act to what the URL names; anyone
    else gets ``refused(request, target)``.

    The act: ``act``, or for a method named in ``by_method`` its own (``POST=RESOLVE``), or what
    ``act_of(request, target)`` says where the request's data decides it. What the URL names:
    :func:`target_of` (``pk``: the model a ``pk`` parameter names, None for none), or ``find(kwargs)``. The
    guarded view carries both (``act_of``, ``find``) for the tests that read every route."""

    def act_for(request: HttpRequest, target: Target) -> str:
        return act_of(request, target) if act_of else by_method.get(request.method or "", act)

    def found(kwargs: dict[str, Any]) -> Target:
        return find(kwargs) if find else target_of(kwargs, pk)

    def decorator(view: View) -> View:
        @wraps(view)
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            target = found(kwargs)
            if not may(request, act_for(request, target), target):
                return refused(request, target)
            request.guarded = target  # type: ignore[attr-defined]  # read once: the view takes it (``guarded``)
            return view(request, *args, **kwargs)

        guarded.act_of, guarded.find = act_for, found  # type: ignore[attr-defined]
        return guarded

    return decorator


def guarded(request: HttpRequest, model: type[_Record], pk: int) -> _Record:
    """The record ``pk`` of ``model`` a view works on: the one its guard read for the request, else read now (404
    when there is none), so that a guarded page reads its championship once."""
    target = getattr(request, "guarded", None)
    if isinstance(target, model) and target.pk == pk:
        return target
    return get_object_or_404(model, pk=pk)


class _GuardedView(Protocol):
    """What :class:`Allowed` reads of an API view."""

    kwargs: dict[str, Any]
    acts: dict[str, str]
    refusals: dict[str | None, str]
    object_act: str
    guarded: Target

    def find(self, kwargs: dict[str, Any]) -> Target: ...


class Allowed(BasePermission):
    """An API view's guard: the view's ``acts`` (method -> act; "" for any other) for what its URL names (the view's
    ``find(kwargs)``, kept as its ``guarded`` for it to take), and its ``object_act`` for a record it reads, by the
    same table. A refusal is DRF's 403 with the view's
    ``refusals[act]``. A method in the view's ``under_lock`` is asked by the view itself, of the row it locks for
    the act (the claim log's), so the tablet's claim reads its mesa once."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        guarded = cast(_GuardedView, view)
        acts = guarded.acts
        act = acts.get(request.method or "", acts.get(""))
        self.message = guarded.refusals.get(act)
        if act is None or request.method in getattr(view, "under_lock", ()):
            # A method the view has no act for it does not answer (DRF's 405); one it asks of the policy itself,
            # under the row lock it takes for the act.
            return True
        guarded.guarded = target = guarded.find(guarded.kwargs)  # read once: the view takes it
        return may(request._request, act, target)

    def has_object_permission(self, request: Request, view: APIView, obj: Model) -> bool:
        guarded = cast(_GuardedView, view)
        self.message = guarded.refusals.get(guarded.object_act)
        return may(request._request, guarded.object_act, obj)
