"""Who may see a mesa's log, and who may add to it.

Terms
-----
act
    Log claims and take signatures at a mesa: only its juez (``Mesa.juez``),
    signed in, or a device the juez opened with the table's PIN. The
    reglamento makes the juez the one who verifies and awards every claim
    (Art. 16).
view
    Read the mesa, its state and its log: the juez, the mesa's inspector,
    the organisers (``tournament.access.is_organiser``; the control desk is
    in the Organizadores group too) and the championship's Director
    (Art. 17–18).
    Anyone else gets 403 and none of the mesa's data.
table PIN
    Six digits the organiser prints for the table with a QR code. The QR
    code holds only the address of the mesa's PIN page (never the PIN), so
    a photo of it opens nothing. Entering the right PIN binds this browser
    session to the mesa (the grant remembers the PIN, so printing a new PIN
    revokes every device opened with the old one). Wrong PINs are counted
    per network address, and after ``PIN_MAX_FAILURES`` in
    ``PIN_FAILURE_WINDOW`` the page refuses to check more from that address
    until the window has passed: six digits are a million guesses.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import BasePermission

from refereeing.models import PinFailure
from tournament.access import is_director, is_organiser
from tournament.models import Mesa

ACT = "act"
VIEW = "view"

SESSION_KEY = "mesa_pins"  # {str(mesa id): the PIN that opened it}
PIN_MAX_FAILURES = 5
PIN_FAILURE_WINDOW = timedelta(minutes=15)


def access(request, mesa):
    """``ACT``, ``VIEW`` or None: what this request may do at ``mesa``."""
    user = request.user
    if user.is_authenticated and user.is_active and mesa.juez_id == user.pk:
        return ACT
    if has_pin_grant(request, mesa):
        return ACT
    if not (user.is_authenticated and user.is_active):
        return None
    if mesa.inspector_id == user.pk or is_organiser(user) or is_director(user, mesa.championship):
        return VIEW
    return None


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


def check_pin(request, pin, table=None, mesa=None):
    """The mesa the PIN opens (and the session is granted), or None.

    Either ``mesa`` (from the QR code's address) or ``table`` (a number typed
    by the juez) says which table; the mesa at a table is the one being
    played there, or the last one finished there, whose signatures may still
    be due. Every wrong PIN is counted.
    """
    pin = str(pin).strip()
    found = None
    if mesa is not None:
        found = mesa if secrets.compare_digest(mesa.pin, pin) else None
    elif table is not None:
        found = (
            Mesa.objects.filter(table_number=table, pin=pin)
            .exclude(Q(status=Mesa.Status.WAITING) | Q(status=Mesa.Status.WALKOVER))
            .order_by("-championship__start_date", "-started_at")
            .first()
        )
    if found is None:
        PinFailure.objects.create(address=client_address(request), table_number=table or getattr(mesa, "table_number", None))
        return None
    grant_pin(request, found)
    return found


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
        return bool(
            (request.user and request.user.is_authenticated)
            or request.session.get(SESSION_KEY)
        )
