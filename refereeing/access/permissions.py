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
    Six digits the organiser prints for the table with a QR code. The QR
    code holds only the address of the mesa's PIN page (never the PIN), so
    a photo of it opens nothing. Entering the right PIN binds this browser
    session to the mesa (the grant remembers the PIN, so printing a new PIN
    revokes every device opened with the old one). Wrong PINs are counted
    twice: per network address (after ``PIN_MAX_FAILURES`` in
    ``PIN_FAILURE_WINDOW`` the page checks no more PINs from that address
    until the window has passed), and per mesa, from any address (after
    ``PIN_MESA_MAX_FAILURES`` the mesa's PIN is checked no more, from
    anywhere, until the organiser prints a new one: six digits are a
    million guesses, and a guesser may have many addresses). A wrong PIN
    typed with a table number counts against the mesa at that table now.
    Devices already opened keep working.
new PIN
    The organiser (or the Director) prints a new PIN for a mesa from the
    tables page: the old PIN opens nothing from then on, the devices opened
    with it lose access at once, the mesa's count of wrong PINs starts
    again, and the mesa records who printed it and when.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission

from refereeing.engine import KINDS
from refereeing.models import PIN_MESA_MAX_FAILURES, Appeal, ClaimEntry, PinFailure
from tournament.access import is_director, is_organiser
from tournament.locking import locked
from tournament.models import Mesa, new_pin

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
MAY_LOG = {
    JUEZ: _OFFICIALS,
    INSPECTOR: _OFFICIALS,
    PIN_DEVICE: _OFFICIALS,
    DIRECTOR: _DIRECTORS,
}
# The juez's own tablet (signed in, or opened with the PIN): the planilla's
# signatures are taken and appeals are filed on it (Art. 16–17).
JUEZ_TABLET = frozenset({JUEZ, PIN_DEVICE})

SESSION_KEY = "mesa_pins"  # {str(mesa id): the PIN that opened it}
# Per address: generous, since a venue's tablets may share one address (NAT).
PIN_MAX_FAILURES = 30
PIN_FAILURE_WINDOW = timedelta(minutes=15)


def role(request, mesa):
    """Which official this request is at ``mesa``: ``JUEZ``, ``PIN_DEVICE``, ``INSPECTOR`` or None.

    Never ``DIRECTOR``: the Director logs only in a ruling or a
    resolution, through the services that record them.
    """
    user = request.user
    signed_in = user.is_authenticated and user.is_active
    if signed_in and mesa.juez_id == user.pk:
        return JUEZ
    if has_pin_grant(request, mesa):
        return PIN_DEVICE
    if signed_in and mesa.inspector_id == user.pk:
        return INSPECTOR
    return None


def access(request, mesa):
    """``ACT``, ``VIEW`` or None: what this request may do at ``mesa``."""
    if role(request, mesa) in OFFICIALS:
        return ACT
    user = request.user
    if user.is_authenticated and user.is_active and (is_organiser(user) or is_director(user, mesa.championship)):
        return VIEW
    return None


def on_juez_tablet(request, mesa):
    """True on the juez's tablet: it takes the planilla's signatures and files appeals."""
    return role(request, mesa) in JUEZ_TABLET


def role_of(mesa, user):
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
    if mesa.championship.director_id == user.pk:
        return DIRECTOR
    return None


class Refused(Exception):
    """A claim ``role`` may not log; ``forbidden``: always (403), else not now (409)."""

    def __init__(self, message, forbidden):
        super().__init__(message)
        self.message = message
        self.forbidden = forbidden


def check_claim(role, mesa, claim):
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


def _refusal(role, kind):
    if kind == "ajuste":
        return _("Art. 18: only the championship's Director adjusts points, in a ruling or a resolution.")
    if role == DIRECTOR:
        return _(
            "Art. 17–18: the Director suspends, resumes, undoes and adjusts, in a ruling or a resolution;"
            " the play is logged by the mesa's juez."
        )
    return _("Art. 16: only the mesa's juez, its inspector or a device opened with the table's PIN log claims here.")


def client_address(request):
    """The device's network address as the app server saw it."""
    return request.META.get("REMOTE_ADDR") or None


# --- the table PIN ----------------------------------------------------------


def has_pin_grant(request, mesa):
    pin = request.session.get(SESSION_KEY, {}).get(str(mesa.pk))
    return pin is not None and secrets.compare_digest(pin, mesa.pin)


def grant_pin(request, mesa):
    """Bind this session to ``mesa``: it may act there until the PIN changes."""
    grants = dict(request.session.get(SESSION_KEY, {}))
    # A new session key when a device gains rights, so a session id planted
    # on it beforehand is worth nothing (session fixation).
    request.session.cycle_key()
    grants[str(mesa.pk)] = mesa.pin
    request.session[SESSION_KEY] = grants


def pin_throttled(request):
    """True when this address made too many wrong guesses lately."""
    since = timezone.now() - PIN_FAILURE_WINDOW
    return PinFailure.objects.filter(address=client_address(request), at__gte=since).count() >= PIN_MAX_FAILURES


def pin_blocked(mesa):
    """True when ``mesa``'s PIN took too many wrong guesses: it opens nothing until printed again."""
    return PinFailure.objects.against_current_pins().filter(mesa=mesa).count() >= PIN_MESA_MAX_FAILURES


class PinBlocked(Exception):
    """The mesa's PIN is checked no more until the organiser prints a new one."""


class PinThrottled(Exception):
    """This address made too many wrong guesses lately: no PIN of it is checked for now."""


def check_pin(request, pin, table=None, mesa=None):
    """The mesa the PIN opens (and the session is granted), or None.

    Either ``mesa`` (from the QR code's address) or ``table`` (a number typed
    by the juez) says which table; the mesa at a table is the one being
    played there, or the last one finished there, whose signatures may still
    be due. Every wrong PIN is counted, against that mesa too. Raises,
    checking nothing, :class:`PinThrottled` when this address is throttled
    and :class:`PinBlocked` when that mesa's PIN is blocked.

    Each count is read and the guess recorded while the address and the
    mesa are held (issue 22): read first and recorded after, guesses that
    arrived together all saw the count under its limit, and a mesa took 11
    guesses instead of 10.
    """
    pin = str(pin).strip()
    with transaction.atomic():
        _hold_address(client_address(request))
        if pin_throttled(request):
            raise PinThrottled
        if mesa is None and table is not None:
            at_table = (
                Mesa.objects.filter(table_number=table)
                .exclude(Q(status=Mesa.Status.WAITING) | Q(status=Mesa.Status.WALKOVER))
                .order_by("-championship__start_date", "-started_at")
            )
            mesa = at_table.filter(pin=pin).first() or at_table.first()
        if mesa is not None:
            mesa = locked(Mesa.objects.filter(pk=mesa.pk)).get()
            if pin_blocked(mesa):
                raise PinBlocked
            if secrets.compare_digest(mesa.pin, pin):
                grant_pin(request, mesa)
                return mesa
        PinFailure.objects.create(
            address=client_address(request),
            mesa=mesa,
            table_number=table if table is not None else getattr(mesa, "table_number", None),
        )
        return None


# The first key of the advisory locks that hold an address's PIN guesses.
_ADDRESS_LOCK = 0x50494E  # "PIN"


def _hold_address(address):
    """Hold ``address``'s PIN guesses until the transaction ends: one at a time.

    PostgreSQL takes an advisory lock keyed by the address; SQLite's
    transactions take the database's write lock when they begin
    (``transaction_mode`` IMMEDIATE in the settings), which holds every
    guess already.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_ADDRESS_LOCK, address or ""])


def reissue_pin(mesa, user):
    """Print a new PIN for ``mesa`` (by ``user``): the old one opens nothing from now on."""
    with transaction.atomic():
        mesa = Mesa.objects.select_for_update().get(pk=mesa.pk)
        pin = new_pin()
        while pin == mesa.pin:
            pin = new_pin()
        mesa.pin, mesa.pin_issued_at, mesa.pin_issued_by = pin, timezone.now(), user
        mesa.save(update_fields=["pin", "pin_issued_at", "pin_issued_by"])
    return mesa


# --- the API's guards ---------------------------------------------------------


class SessionOrPinAuthentication(SessionAuthentication):
    """Django's session, and CSRF checks for PIN devices too.

    DRF checks the CSRF token only for signed-in users; a device opened
    with a PIN is anonymous but holds rights in its session, so it must
    send the token as well.
    """

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is None and request._request.session.get(SESSION_KEY):
            self.enforce_csrf(request)
        return result


class SignedInOrPinDevice(BasePermission):
    """Let in signed-in users and PIN devices; each view then asks ``access``."""

    def has_permission(self, request, view):
        return bool((request.user and request.user.is_authenticated) or request.session.get(SESSION_KEY))
