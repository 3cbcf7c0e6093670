"""The mirror's answers to any HTTP cache in front of several app servers (#27.2)."""

from django.http import HttpResponse
from django.test import RequestFactory

from mirror.caching import PublicCache

FRESH = "public, max-age=5, stale-while-revalidate=30"


def answer(status=200, body=b"<html>la tabla</html>", method="get", **headers):
    def view(request):
        response = HttpResponse(body, status=status)
        if "cookie" in headers:
            response.set_cookie("csrftoken", "x")
        if "cache_control" in headers:
            response["Cache-Control"] = headers["cache_control"]
        return response

    request = getattr(RequestFactory(), method)("/en-vivo/1/", HTTP_IF_NONE_MATCH=headers.get("etag", ""))
    return PublicCache(view)(request)


def test_a_page_is_kept_briefly_by_language_with_a_validator_any_server_gives_alike():
    first, second = answer(), answer()
    assert first["Cache-Control"] == FRESH
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in first["Vary"].split(",")}
    assert first["ETag"] == second["ETag"] != answer(body=b"<html>otra tabla</html>")["ETag"]


def test_a_cache_revalidating_gets_a_304_that_keeps_the_caching():
    etag = answer()["ETag"]
    again = answer(etag=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["Cache-Control"] == FRESH and again["ETag"] == etag
    assert answer(etag='"another"').status_code == 200


def test_a_404_is_kept_as_briefly_and_a_server_error_never():
    missing = answer(status=404)
    assert missing["Cache-Control"] == FRESH and not missing.has_header("ETag")
    assert answer(status=500)["Cache-Control"] == "no-store"
    assert answer(status=503)["Cache-Control"] == "no-store"


def test_an_answer_with_a_cookie_its_own_caching_or_to_a_post_is_left_alone():
    assert not answer(cookie=True).has_header("Cache-Control")
    assert answer(cache_control="no-store")["Cache-Control"] == "no-store"
    assert not answer(method="post").has_header("Cache-Control")
