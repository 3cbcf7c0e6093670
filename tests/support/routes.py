"""Every route of the site's URL map, and a route's address for the records of a test's championship.

What a route's parameter names depends on the route: ``pk`` is a championship under ``/campeonatos/``, an appeal
under ``/apelaciones/``, a mesa's planilla under ``/planilla/mesa/``, a juez under ``/jueces/``. ``KINDS`` says it,
so that the tests that read every route (the markup test, the matrix of who may do what) fill each parameter with
the record it means.
"""

import re

from django.urls import URLPattern, URLResolver, get_resolver

REGEX_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")


def every_route(patterns=None, prefix="/"):
    """Every route of the site's URL map, the admin's included, as a route's text
    (a regular expression's groups written as ``<name>``)."""
    for route, _pattern in every_route_with_view(patterns, prefix):
        yield route


def every_route_with_view(patterns=None, prefix="/", namespace=""):
    """Every route as (its text, its ``URLPattern``); the pattern's ``name`` is completed with its namespace."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for pattern in patterns:
        text = prefix + REGEX_GROUP.sub(r"<\1>", str(pattern.pattern).removeprefix("^").removesuffix("$"))
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from every_route_with_view(pattern.url_patterns, text, inner)
        elif isinstance(pattern, URLPattern):
            yield text, pattern


def filled(route, pk, text):
    """``route`` with each number ``pk`` and each other parameter ``text``."""
    return CONVERTER.sub(lambda match: str(pk) if match.group(1) == "int" else text, route)


# (a prefix of the route, the parameter's name) -> the kind of record it names; the first prefix that matches.
KINDS = [
    ("/apelaciones/", "pk", "appeal"),
    ("/planilla/mesa/", "pk", "mesa"),
    ("/jueces/", "pk", "juez"),
    ("/", "pk", "championship"),
    ("/", "mesa_pk", "mesa"),
    ("/", "mesa_id", "mesa"),
    ("/", "pair_pk", "pair"),
    ("/", "doubt_pk", "doubt"),
    ("/", "table_id", "table"),
    ("/", "juez_pk", "juez"),
    ("/", "token", "token"),
    ("/", "signed", "signed"),
    ("/", "bracket", "bracket"),
    ("/", "round_number", "round"),
    ("/", "job", "job"),
    ("/", "code", "code"),
    ("/", "slug", "slug"),
]


def kind_of(route, name):
    return next(kind for prefix, parameter, kind in KINDS if route.startswith(prefix) and parameter == name)


def address(route, values):
    """``route`` with each parameter the value ``values`` (a mapping kind -> value) gives its kind."""
    return CONVERTER.sub(lambda match: str(values[kind_of(route, match.group(2))]), route)


def parameters(route):
    return [match.group(2) for match in CONVERTER.finditer(route)]
