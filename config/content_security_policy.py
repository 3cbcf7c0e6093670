"""The Content-Security-Policy header, built once per process (issue #36, item 8).

django-csp builds the header from the settings on every response: for the
tablets' polls, one a second each, that was a measurable part of a
request's CPU. The settings do not change while a process runs, and no view
here changes the policy (no ``csp_update``, ``csp_replace`` or nonce), so
every response gets the same string: it is built the first time and kept.
A response that does carry its own parts (a django-csp decorator, a nonce
asked for) goes through django-csp's own code, as before; so do the
exemptions, the excluded prefixes and the debug pages.
"""

import functools
import http.client

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as PerResponseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed

# The header, whether report-only, its settings' name and the response's mark that exempts it.
HEADERS = (
    (HEADER, False, "CONTENT_SECURITY_POLICY", "_csp_exempt"),
    (HEADER_REPORT_ONLY, True, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro"),
)
# django-csp leaves these responses alone while DEBUG is on (Django's debug pages have inline scripts).
DEBUG_PAGES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)


@functools.cache
def policy(report_only):
    """The header's value from the settings ("" for none), and the path prefixes it is not sent on."""
    config = getattr(settings, HEADERS[report_only][2], None) or {}
    return build_policy(report_only=report_only), tuple(config.get("EXCLUDE_URL_PREFIXES", None) or ())


def _forget(setting, **kwargs):
    # Only a test changes settings at run time (override_settings, pytest-django's fixture): it gets its policy.
    if setting in (HEADERS[0][2], HEADERS[1][2]):
        policy.cache_clear()


setting_changed.connect(_forget, dispatch_uid="csp-once")


class CSPMiddleware(PerResponseCSPMiddleware):
    def process_response(self, request, response):
        plain = PolicyParts()
        parts = self.get_policy_parts(request=request, response=response)
        parts_ro = self.get_policy_parts(request=request, response=response, report_only=True)
        if parts != plain or parts_ro != plain:
            return super().process_response(request, response)
        if response.status_code in DEBUG_PAGES and settings.DEBUG:
            return response
        for header, report_only, _setting, exempt in HEADERS:
            value, excluded = policy(report_only)
            if value and header not in response and not getattr(response, exempt, False):
                if not request.path_info.startswith(excluded):
                    response[header] = value
        # As django-csp does: a nonce asked for after the header is written would not be in it, so that is an error.
        if getattr(request, "_csp_nonce", None) is None:
            request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
