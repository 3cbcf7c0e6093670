"""The Content-Security-Policy header is built once per process and is django-csp's policy (issue #36, item 8)."""

from csp.constants import HEADER
from csp.decorators import csp_exempt, csp_update
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory

from config import content_security_policy
from config.content_security_policy import CSPMiddleware


def served(view=lambda request: HttpResponse("ok"), path="/"):
    request = RequestFactory().get(path)
    return CSPMiddleware(view)(request)


def test_every_answer_carries_django_csps_policy_built_once():
    content_security_policy.policy.cache_clear()
    first, second = served(), served()
    assert first[HEADER] == second[HEADER] == build_policy()
    assert "script-src 'self'" in first[HEADER]
    # Built for the first answer (the header and its report-only twin), read for the second.
    info = content_security_policy.policy.cache_info()
    assert (info.misses, info.hits) == (2, 2)


def test_a_changed_setting_gives_its_policy(settings):
    served()
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {**directives, "connect-src": ["'self'", "https://streams.test"]}}
    assert "connect-src 'self' https://streams.test" in served()[HEADER]


def test_an_exempt_view_and_a_view_with_its_own_policy_keep_django_csps_behaviour():
    assert HEADER not in served(csp_exempt()(lambda request: HttpResponse("ok")))
    updated = served(csp_update({"img-src": ["https://img.test"]})(lambda request: HttpResponse("ok")))
    assert "https://img.test" in updated[HEADER]
    # A header the view set itself is left alone.
    own = HttpResponse("ok")
    own[HEADER] = "default-src 'none'"
    assert served(lambda request: own)[HEADER] == "default-src 'none'"
