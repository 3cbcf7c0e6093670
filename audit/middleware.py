"""Each request acts as its signed-in user, from its address; each organiser's change is one transaction.

Why not django-auditlog's own middleware: it connects a signal receiver per
request, named by the clock, which two threads of one worker can share;
a context variable per request cannot be mixed up.

Requests that may change something (not GET, HEAD or OPTIONS) run in one
transaction, so that what a view saves and the audit entries its saves
write are committed together or not at all (a request that fails, 5xx,
is rolled back whole). The tablets' API is left out:
the claim log records its own who, when and where, in its own
transaction, and the claim endpoint stays as fast as it was.
"""

from auditlog.context import disable_auditlog
from django.db import transaction

from . import context

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
OWN_RECORD = "/api/"  # the claim log and the signatures


class AuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(OWN_RECORD):
            with disable_auditlog():
                return self.get_response(request)
        with context.acting(getattr(request, "user", None), request.META.get("REMOTE_ADDR") or None):
            if request.method in SAFE_METHODS:
                return self.get_response(request)
            with transaction.atomic():
                response = self.get_response(request)
                # Django turns a view's exception into a 500 before it reaches this
                # middleware: a failed request is rolled back here, by its status.
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                return response
