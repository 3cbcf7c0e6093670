"""The mirror's URLs (#27.2): every path keeps its name, and only the public ones have their view."""

import re

import pytest
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, resolve

from config import urls_mirror


def _patterns(patterns, namespace=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(
                pattern.url_patterns, namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            )
        else:
            yield f"{namespace}{pattern.name}", pattern


def test_only_the_public_pages_are_mounted_on_the_mirror():
    mounted = dict(_patterns(urls_mirror.urlpatterns))
    public = {name for name, pattern in mounted.items() if pattern.callback is not urls_mirror.not_on_mirror}
    assert public == urls_mirror.PUBLIC | {"set_language"}
    for name in ("login", "admin:index", "api:claims", "tournament:board", "refereeing:mesa_screen", "audit:trail"):
        assert mounted[name].callback is urls_mirror.not_on_mirror, name
    assert all(isinstance(p, URLPattern) for p in mounted.values())


# A value for each kind of parameter the mirror's routes take, so that each route is asked at an address of its own.
SAMPLES = {"int": "1", "str": "x", "slug": "organizador", "path": "x/y", "uuid": "00000000-0000-0000-0000-000000000001"}


def _sample_path(prefix, pattern):
    """An address that ``pattern`` (under ``prefix``) resolves; a regular expression's groups become ``x``."""
    route = str(pattern.pattern)
    if route.startswith("^") or route.endswith("$"):
        route = re.sub(r"\(\?P<\w+>[^)]*\)", "x", route.strip("^$")).replace("\\", "")
    return prefix + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)


def _routes(patterns, prefix="/", namespace=""):
    """(name, an address of it) of every route."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            yield from _routes(pattern.url_patterns, _sample_path(prefix, pattern), inner)
        else:
            yield f"{namespace}{pattern.name}", _sample_path(prefix, pattern)


def _resolves(path):
    try:
        return resolve(path, urlconf=urls_mirror).view_name
    except Resolver404:
        return None


@pytest.fixture
def mirror_client(settings):
    """The test client of a mirror (``MIRROR=true``): its URLs and middleware, CSRF checked as in production."""
    settings.MIRROR = True
    settings.ROOT_URLCONF = "config.urls_mirror"
    after = settings.MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1
    settings.MIDDLEWARE = [*settings.MIDDLEWARE[:after], *settings.MIRROR_MIDDLEWARE, *settings.MIDDLEWARE[after:]]
    return Client(enforce_csrf_checks=True)


@pytest.mark.django_db
@pytest.mark.slow
def test_the_mirror_refuses_every_method_but_get_and_head_at_every_route(mirror_client):
    routes = list(_routes(urls_mirror.urlpatterns))
    assert {name for name, _path in routes} == set(dict(_patterns(urls_mirror.urlpatterns)))
    resolved = [path for name, path in routes if _resolves(path) == name]
    assert len(resolved) > 0.9 * len(routes), "the addresses asked are the routes' own"
    for name, path in routes:
        if name == "set_language":
            continue
        for method in ("post", "put", "patch", "delete", "options"):
            answer = getattr(mirror_client, method)(path)
            assert answer.status_code == 405, (method, name, path, answer.status_code)
            assert answer["Allow"] == "GET, HEAD"
        assert mirror_client.get(path).status_code != 405, (name, path)
        assert mirror_client.head(path).status_code != 405, (name, path)
    # The six public pages that answered a POST with 200, at real addresses, and one the router does not know.
    for path in ("/", "/reglas/", "/ayuda/", "/ayuda/organizador/", "/campeonatos/1/llaves/", "/no-existe/"):
        assert mirror_client.post(path, {"x": "1"}).status_code == 405, path
    assert mirror_client.get("/reglas/").status_code == 200
    # The language switch posts the visitor's choice (its cookie only).
    answer = mirror_client.post("/i18n/setlang/", {"language": "en", "next": "/reglas/"})
    assert answer.status_code == 302 and answer.cookies["django_language"].value == "en"
