"""Who may see a mesa's log, who may add what to it, and the table PIN.

Terms
-----
role
    Who a request (or a service) is at one mesa:

    - ``juez``: the mesa's juez (``Mesa.juez``), signed in;
    - ``inspector``: the mesa's inspector (``Mesa.inspector``), signed in:
      the reglamento has "el Juez o el Inspector" verify a ronda and award
      its points (Art. 3e, 7a);
    - ``pin``: a device opened with the table's PIN (it logs as the juez);
    - ``director``: the championship's Director, only inside a ruling on an
      appeal (Art. 17) or a resolution (Art. 18): the services that log
      those say so; the Director's browser at the API is a viewer.

    The first three are the mesa's *officials*.
who may log what
    One table, :data:`MAY_LOG` (role x claim kind), decides every claim,
    for the claim log and the API alike:

    - the officials log the play (every kind of the engine but the four
      below), ``suspender``, ``reanudar`` and ``void``s of the officials'
      own entries;
    - the Director logs ``suspender``, ``reanudar``, ``void`` and
      ``ajuste``: an ``ajuste`` is the Director's alone (Art. 18, and the
      ruling "only the Director adjusts points"), and so is the mark
      ``director`` on a ``void``, ``suspender`` or ``reanudar`` (the log
      sets it on the Director's: the only void a suspended mesa takes,
      third rulings, "a suspended mesa takes nothing but reanudar");
    - anyone else logs nothing.

    A kind outside one's row is refused as forbidden (HTTP 403) with its
    article. Two refusals depend on the log and answer like a mesa that
    takes no claim now (HTTP 409, so the tablet drops the claim and goes
    on): while an admitted appeal waits for the Director's ruling, the
    Director alone logs at the mesa, whether admitting it suspended the
    mesa or the juez had suspended it already (Art. 17); and what the
    Director logged is final, so only the Director voids it.
act
    Log claims at a mesa: its officials. The juez's tablet (signed in as
    the juez, or opened with the table's PIN) also takes the planilla's
    signatures (Art. 16) and files appeals (Art. 17); the inspector's
    does not.
view
    Read the mesa, its state and its log: the officials, the organisers
    (``tournament.access.is_organiser``; the control desk is in the
    Organizadores group too) and the championship's Director (Art. 17–18).
    Anyone else gets 403 and none of the mesa's data.
table PIN
    Six digits of one physical table of a sede (``tournament.models.Table``),
    printed once with a QR code on the table's card for the whole
    championship. The QR code holds only the address of the table's PIN
    page (never the PIN), so a photo of it opens nothing. Entering the right
    PIN binds this browser session to the table (the grant remembers the
    PIN, so printing a new PIN revokes every device opened with the old
    one): the device may act at every mesa seated at that table, one after
    another, with no sign-in (*following the table*, below). Wrong PINs are
    counted twice: per network address (after ``PIN_MAX_FAILURES`` in
    ``PIN_FAILURE_WINDOW`` the page checks no more PINs from that address
    until the window has passed), and per table, from any address (after
    ``PIN_TABLE_MAX_FAILURES`` the table's PIN is checked no more, from
    anywhere, until the organiser prints a new one: six digits are a
    million guesses, and a guesser may have many addresses). Every guess is
    of one table: a table number that several sedes played today have (or,
    none played today, several sedes) is asked its sede before any PIN is
    checked, so every failure counts against its table. Devices already
    opened keep working.
following the table
    A device opened with a table's PIN shows the mesa seated there now
    (:func:`table_mesa`: the one in play, else the next to be played); once
    the mesa it shows is decided and its planilla signed, it moves on to
    the next mesa seated at the table, and between mesas it says who plays
    there next, or that nothing is seated yet (:func:`table_news`).
new PIN
    The organiser (or a Director) prints a new PIN for a table from the
    tables page (:func:`reissue_pin`): the old PIN opens nothing from then
    on, the devices opened with it lose access at once, the table's count of
    wrong PINs starts again, and the table records who printed it and when.
"""

from __future__ import annotations

import secrets
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, TypedDict

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import SessionAuthentication

from audit.context import acting
from engines.rules import KINDS
from refereeing.models import PIN_TABLE_MAX_FAILURES, Appeal, ClaimEntry, PinFailure, Signature
from tournament import policy
from tournament.access import played_on
from tournament.errors import Refusal
from tournament.locking import locked
from tournament.models import Mesa, Table, new_pin

# The PIN's grant in the session is the policy's (the ``tablet`` relation); the PIN's pages and tests read it here.
from tournament.policy import SESSION_KEY, has_pin_grant, has_table_grant, table_of  # noqa: F401
from tournament.seating.seating import play_order

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import QuerySet
    from django.http import HttpRequest
    from rest_framework.request import Request


ACT = "act"
VIEW = "view"

JUEZ = "juez"
INSPECTOR = "inspector"
PIN_DEVICE = "pin"
DIRECTOR = "director"
OFFICIALS = (JUEZ, INSPECTOR, PIN_DEVICE)

# The kinds the Director logs in a ruling or a resolution; every other kind
# is play, the officials'.
_DIRECTORS = frozenset({"suspender", "reanudar", "void", "ajuste"})
_PLAY = frozenset(KINDS) - _DIRECTORS
_OFFICIALS = _PLAY | {"suspender", "reanudar", "void"}

# Who may log what: role x claim kind (see the module's docstring).
MAY_LOG: dict[str | None, frozenset[str]] = {
    JUEZ: _OFFICIALS,
    INSPECTOR: _OFFICIALS,
    PIN_DEVICE: _OFFICIALS,
    DIRECTOR: _DIRECTORS,
}

# Per address: generous, since a venue's tablets may share one address (NAT).
PIN_MAX_FAILURES = 30
PIN_FAILURE_WINDOW = timedelta(minutes=15)


# The policy's relation of each official role (``tournament.policy``), in the order a request is named by.
_ROLE_OF = ((policy.JUEZ, JUEZ), (policy.TABLET, PIN_DEVICE), (policy.INSPECTOR, INSPECTOR))


def role(request: HttpRequest, mesa: Mesa) -> str | None:
    """Which official this request is at ``mesa``: ``JUEZ``, ``PIN_DEVICE``, ``INSPECTOR`` or None.

    Never ``DIRECTOR``: the Director logs only in a ruling or a
    resolution, through the services that record them.
    """
    return next((name for relation, name in _ROLE_OF if policy.holds(request, relation, mesa)), None)


def access(request: HttpRequest, mesa: Mesa) -> str | None:
    """``ACT``, ``VIEW`` or None: what this request may do at ``mesa``, as the policy says."""
    if policy.may(request, policy.ACT_AT_MESA, mesa):
        return ACT
    if policy.may(request, policy.VIEW_MESA, mesa):
        return VIEW
    return None


def tablet(mesa: Mesa) -> str:
    """How the audit trail names a device opened with the PIN of ``mesa``'s table: it has no account."""
    return _("Tablet of mesa %(mesa)s (PIN)") % {"mesa": mesa}


def juez_at_tablet(request: HttpRequest, mesa: Mesa) -> User | AnonymousUser | None:
    """Who acts on ``mesa``'s tablet: its juez, signed in there, or None for the tablet the table's PIN opened
    (whoever else may be signed in on it: the PIN is what lets it act)."""
    return request.user if role(request, mesa) == JUEZ else None


def on_juez_tablet(request: HttpRequest, mesa: Mesa) -> bool:
    """True on the juez's tablet: it takes the planilla's signatures and files appeals."""
    return policy.may(request, policy.JUEZ_TABLET, mesa)


def role_of(mesa: Mesa, user: AbstractBaseUser | None) -> str | None:
    """The role of a service's ``user`` at ``mesa`` (None: a device opened with the PIN).

    The services that log claims (the Director's rulings, tests, the demo)
    name the user; the Director is ``DIRECTOR`` here only because no
    request reaches this: the API asks :func:`role`.
    """
    if user is None:
        return PIN_DEVICE
    if mesa.juez_id == user.pk:
        return JUEZ
    if mesa.inspector_id == user.pk:
        return INSPECTOR
    if policy.may(user, policy.RULE_APPEAL, mesa):
        return DIRECTOR
    return None


class Refused(Refusal):
    """A claim ``role`` may not log; ``forbidden``: always (403), else not now (409)."""

    def __init__(self, message: object, forbidden: bool) -> None:
        super().__init__(message, code="not_allowed" if forbidden else "held", status=403 if forbidden else 409)
        self.forbidden = forbidden


def check_claim(role: str | None, mesa: Mesa, claim: dict[str, Any]) -> None:
    """Raise :class:`Refused` unless ``role`` may log ``claim`` at ``mesa`` now.

    ``mesa`` is the row the claim log has locked, so the appeal and the
    entry read here cannot change before the claim is recorded.
    """
    if claim["kind"] not in MAY_LOG.get(role, ()):
        raise Refused(_refusal(role, claim["kind"]), forbidden=True)
    if role == DIRECTOR:
        return
    if claim.get("director"):
        raise Refused(_("Art. 17: only the Director's own claims carry the Director's mark."), forbidden=True)
    # Admitting an appeal leaves its mesa suspended (it logs a suspender, or
    # the juez had suspended it already): a mesa in play is held by none,
    # and its claims cost no query here.
    if (
        mesa.status == Mesa.Status.SUSPENDED
        and Appeal.objects.filter(mesa=mesa, status=Appeal.Status.ADMITTED).exists()
    ):
        raise Refused(_("Art. 17: the mesa is suspended by an appeal until the Director's ruling."), forbidden=False)
    director = mesa.championship.director_id
    if (
        claim["kind"] == "void"
        and director is not None
        and ClaimEntry.objects.filter(mesa=mesa, seq=claim["target"], juez=director).exists()
    ):
        raise Refused(_("Art. 17: what the Director logged is final; only the Director can undo it."), forbidden=False)


def _refusal(role: str | None, kind: str) -> str:
    if kind == "ajuste":
        return _("Art. 18: only the championship's Director adjusts points, in a ruling or a resolution.")
    if role == DIRECTOR:
        return _(
            "Art. 17–18: the Director suspends, resumes, undoes and adjusts, in a ruling or a resolution;"
            " the play is logged by the mesa's juez."
        )
    return _("Art. 16: only the mesa's juez, its inspector or a device opened with the table's PIN log claims here.")


def client_address(request: HttpRequest) -> str | None:
    """The device's network address as the app server saw it."""
    return request.META.get("REMOTE_ADDR") or None


# --- the table PIN ----------------------------------------------------------


def grant_pin(request: HttpRequest, table: Table) -> None:
    """Bind this session to ``table``: it may act at its mesas until the PIN changes."""
    grants = dict(request.session.get(SESSION_KEY, {}))
    # A new session key when a device gains rights, so a session id planted
    # on it beforehand is worth nothing (session fixation).
    request.session.cycle_key()
    grants[str(table.pk)] = table.pin
    request.session[SESSION_KEY] = grants


def pin_throttled(request: HttpRequest) -> bool:
    """True when this address made too many wrong guesses lately."""
    since = timezone.now() - PIN_FAILURE_WINDOW
    return PinFailure.objects.filter(address=client_address(request), at__gte=since).count() >= PIN_MAX_FAILURES


def pin_blocked(table: Table) -> bool:
    """True when ``table``'s PIN took too many wrong guesses: it opens nothing until printed again."""
    return PinFailure.objects.against_current_pins().filter(table=table).count() >= PIN_TABLE_MAX_FAILURES


class PinBlocked(Exception):
    """The table's PIN is checked no more until the organiser prints a new one."""


class PinThrottled(Exception):
    """This address made too many wrong guesses lately: no PIN of it is checked for now."""


def tables_numbered(number: int, day: date | None = None) -> list[Table]:
    """The physical tables a device may mean by the table number ``number``: those of the sedes where a
    championship is played today (``day``), else of every sede. More than one: the device says which sede."""
    tables = Table.objects.filter(number=number).select_related("sede").order_by("sede__name")
    today = tables.filter(sede__in=played_on(day).values("sede"))
    return list(today) or list(tables)


def check_pin(request: HttpRequest, pin: object, table: Table) -> bool:
    """True when ``pin`` is ``table``'s: the session is granted the table; False when it is not, and the
    failure is counted against the address and against the table.

    Raises, checking nothing, :class:`PinThrottled` when this address is
    throttled and :class:`PinBlocked` when the table's PIN is blocked. The
    caller says which table: from the QR code's address, or from the number
    typed and, where that number is at several sedes, the sede chosen
    (:func:`tables_numbered`); a PIN is never tried against two tables.

    Each count is read and the guess recorded while the address and the
    table are held (issue 22): read first and recorded after, guesses that
    arrived together all saw the count under its limit, and a table took 11
    guesses instead of 10.
    """
    pin = str(pin).strip()
    with transaction.atomic():
        _hold_address(client_address(request))
        if pin_throttled(request):
            raise PinThrottled
        table = locked(Table.objects.filter(pk=table.pk)).get()
        if pin_blocked(table):
            raise PinBlocked
        if secrets.compare_digest(table.pin, pin):
            grant_pin(request, table)
            return True
        PinFailure.objects.create(address=client_address(request), table=table)
        return False


# The first key of the advisory locks that hold an address's PIN guesses.
_ADDRESS_LOCK = 0x50494E  # "PIN"


def _hold_address(address: str | None) -> None:
    """Hold ``address``'s PIN guesses until the transaction ends: one at a time.

    PostgreSQL takes an advisory lock keyed by the address; SQLite's
    transactions take the database's write lock when they begin
    (``transaction_mode`` IMMEDIATE in the settings), which holds every
    guess already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_ADDRESS_LOCK, address or ""])


def reissue_pin(table: Table, *, by: User) -> Table:
    """Print a new PIN for ``table`` (by ``by``, audited): the old one, and every device it opened, open nothing from now on."""
    with transaction.atomic(), acting(by):
        table = locked(Table.objects.filter(pk=table.pk)).get()
        pin = new_pin()
        while pin == table.pin:
            pin = new_pin()
        table.pin, table.pin_issued_at, table.pin_issued_by = pin, timezone.now(), by
        table.save(update_fields=["pin", "pin_issued_at", "pin_issued_by"])
    return table


# --- following the table ------------------------------------------------------


def _seated(table: Table) -> QuerySet[Mesa]:
    return Mesa.objects.filter(championship__sede=table.sede_id, table_number=table.number).select_related(
        "championship", "pair_a", "pair_b"
    )


def table_mesa(table: Table) -> Mesa | None:
    """The mesa a device at ``table`` shows now: the one in play there, else the next to play there (None: none seated)."""
    undecided = _seated(table).filter(status__in=Mesa.UNDECIDED, pair_a__isnull=False, pair_b__isnull=False)
    in_play = (Mesa.Status.IN_PLAY, Mesa.Status.SUSPENDED)
    return min(
        undecided,
        key=lambda m: (m.status not in in_play, m.championship.start_date, m.championship_id, play_order(m)),
        default=None,
    )


def done_with(mesa: Mesa) -> bool:
    """True when a device may leave ``mesa`` for the next one at its table: decided, and its planilla signed (Art. 16)."""
    if mesa.status == Mesa.Status.WALKOVER:
        return True
    return mesa.status == Mesa.Status.FINISHED and Signature.objects.filter(mesa=mesa).count() >= len(
        Signature.Role.choices
    )


def table_news(table: Table, shown: Mesa | None = None) -> TableNews:
    """What a device at ``table`` showing ``shown`` (a mesa, or None) is told: {mesa, go, message}.

    ``mesa``: the mesa the table shows now (None: nothing seated); ``go``:
    the device moves there at once (what it shows is done with, or seated
    elsewhere now); ``message``: who plays there next, or that nothing is.
    """
    mesa = table_mesa(table)
    if mesa is None:
        return {
            "mesa": None,
            "go": False,
            "message": _("Nothing is seated at table %(table)d yet.") % {"table": table.number},
        }
    moved = shown is None or shown.table_number != table.number or shown.championship.sede_id != table.sede_id
    return {
        "mesa": mesa,
        "go": mesa != shown and (shown is None or moved or done_with(shown)),
        "message": _("Next at table %(table)d: %(a)s against %(b)s.")
        % {"table": table.number, "a": mesa.pair_a, "b": mesa.pair_b},
    }


class TableNews(TypedDict):
    """What :func:`table_news` tells a device at a table."""

    mesa: Mesa | None
    go: bool
    message: str


# --- the API's guards ---------------------------------------------------------


class SessionOrPinAuthentication(SessionAuthentication):
    """Django's session, and CSRF checks for PIN devices too.

    DRF checks the CSRF token only for signed-in users; a device opened
    with a PIN is anonymous but holds rights in its session, so it must
    send the token as well.
    """

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        result = super().authenticate(request)
        if result is None and request._request.session.get(SESSION_KEY):
            self.enforce_csrf(request)
        return result
