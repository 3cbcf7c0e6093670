"""What the site answers when a request fails: JSON under the API, a plain page elsewhere.

Rules
-----
- An *API request* is one under ``/api/`` or one that asks for JSON
  (``Accept: application/json``, as the screens' scripts do). Its every
  error is JSON in a refusal's shape (``{"code", "message", "article", "status", "detail"}``,
  ``config.refusals``) in the request's language, a 500 and
  the 404 of an unknown address included (DRF answers its own errors so
  already; these handlers cover the rest).
- A form body over Django's upload limit is 413, as an API body over its
  cap is (``refereeing.claimlog.api``), not a 400.
- A database or Redis that does not answer is *unavailable*, not a bug: the
  answer is 503 saying which of the two and to try again, never a 500.
- Every 500 and 503 is logged with its traceback by Django's
  ``django.request`` logger (``settings.LOGGING``: stderr).
- The pages here render without the request's context (no session, no
  user): the session may live in the very service that is down.
- A service found not answering is not asked again for ``PAUSE_SECONDS``:
  the requests meanwhile get its 503 at once (``AnswerWhileDown``). Each
  request that finds it down waits for it (a second or two), and those
  queued behind it in the worker (``config.serving``: one view at a time)
  waited for each in turn: under claim load a 503 took up to 10 s
  (``benchmarks/chaos.py``). The first request after the pause asks again.
"""

import sys
import time

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from tournament.errors import Refusal

PAUSE_SECONDS = 1.0
# service ("database", "redis") -> the moment (time.monotonic) until which it is not asked
paused_until = {}


def wants_json(request):
    """True for a request of the API or of a script asking for JSON."""
    return request.path.startswith("/api/") or request.headers.get("Accept", "").startswith("application/json")


def unavailable_service(error):
    """``"database"`` or ``"redis"`` when ``error`` (or what caused it) is that service not answering, else None."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, (RedisConnectionError, RedisTimeoutError)):
            return "redis"
        if isinstance(error, (OperationalError, InterfaceError)) or (
            isinstance(error, DatabaseError) and "connect" in str(error).lower()
        ):
            return "database"
        error = error.__cause__ or error.__context__
    return None


def unavailable_message(service):
    if service == "redis":
        return _("The cache server (Redis) is not answering. Please try again in a moment; nothing you sent was lost.")
    return _("The database is not answering. Please try again in a moment; nothing you sent was lost.")


# The code of each answer here, as a refusal names it (``tournament.errors.Refusal``).
CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 413: "too_large", 500: "server_error"}


def _answer(request, status, detail, title):
    if wants_json(request):
        return JsonResponse(
            Refusal(detail, code=CODES.get(status, "unavailable"), status=status).as_json(), status=status
        )
    html = render_to_string("errors/error.html", {"status": status, "title": title, "detail": detail})
    return HttpResponse(html, status=status)


def server_error(request):
    """handler500: an unexpected error, or a service that is down (503)."""
    service = unavailable_service(sys.exc_info()[1])
    if service:
        paused_until[service] = time.monotonic() + PAUSE_SECONDS
        return _answer(request, 503, unavailable_message(service), _("Service unavailable"))
    return _answer(
        request,
        500,
        _("Server error. It has been logged; please try again, and tell the control desk if it happens again."),
        _("Server error"),
    )


def not_found(request, exception=None):
    return _answer(request, 404, _("Not found."), _("Not found"))


def forbidden(request, exception=None):
    return _answer(request, 403, _("You do not have permission to perform this action."), _("Forbidden"))


def bad_request(request, exception=None):
    if isinstance(exception, RequestDataTooBig):  # a form body over DATA_UPLOAD_MAX_MEMORY_SIZE
        return _answer(
            request,
            413,
            _("The request is too large: at most %(limit)d bytes.") % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            _("Request too large"),
        )
    return _answer(request, 400, _("Malformed request."), _("Bad request"))


class AnswerWhileDown:
    """Middleware, before anything that reads the session: a 503 at once while a service is paused."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        now = time.monotonic()
        down = next((service for service, until in paused_until.items() if now < until), None)
        if down is None:
            return self.get_response(request)
        with translation.override(translation.get_language_from_request(request)):
            return _answer(request, 503, unavailable_message(down), _("Service unavailable"))
