"""The matrix of who may do what (issue 33), generated, asserted against the policy's table.

Every route of the URL map (``tests.support.routes``, which walks ``get_resolver()``) and every path and method
of the API's schema (drf-spectacular's generator) is asked for, by an account in each relation of the policy
(``tournament.policy``), at the records of four championships: the one the accounts hold their roles in
(today), another played today at the same sede, one today at another sede, and one over at the same sede
(directed by the same Director). A page is asked with GET and POST; an API path with the methods its schema
names. Each answer must be what the table predicts for that account, that act and that record: a refusal (403,
a visitor sent to sign in, a device sent to its table's PIN page) where the table says no, any other answer
where it says yes, and never a 500.

The prediction is a copy of the table taken before the site runs; the site asks the live one. So a row loosened
in the live table (``test_a_loosened_row_is_caught``: each act's row in turn lets everyone) must fail the matrix.
"""

import datetime
import itertools
import re
import time
import uuid
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import Http404
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import resolve
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from refereeing.planilla import batch, pdf
from tests.support import factories, world
from tests.support.routes import CONVERTER, address, every_route_with_view
from tournament import policy
from tournament.models import Championship

pytestmark = pytest.mark.django_db

# The routes that act on no championship and ask no one: Django's own (the admin has its own permissions, the
# sign-in, the language), the API's description, the venue's certificate, the files served as they are, and the
# guides (the site's help, which imports nothing of the project).
OUTSIDE = ("/admin/", "/static/", "/i18n/", "/cuenta/", "/api/schema/", "/api/docs/", "/ca.crt", "/ayuda/")
PIN_PAGE = re.compile(r"/acceso/mesa-fisica/\d+/")


@pytest.fixture
def worlds(settings, tmp_path):
    """The four championships (``here``, ``same_sede``, ``other_sede``, ``past``) and the accounts, one role each."""
    settings.MEDIA_ROOT = tmp_path
    here = world.build(prefix="a")
    sede = here.championship.sede
    others = {
        "same_sede": world.build(prefix="b", sede=sede),
        "other_sede": world.build(prefix="c"),
        # Played today, so its Director could rule; then moved a year back: over.
        "past": world.build(prefix="p", sede=sede, director=here.director),
    }
    past = timezone.localdate() - datetime.timedelta(days=365)
    Championship.objects.filter(pk=others["past"].championship.pk).update(start_date=past, end_date=past)
    tablet = Client()
    tablet.post(f"/acceso/mesa-fisica/{here.table.pk}/", {"pin": here.table.pin})
    # The least trusted first: a loosened row shows at once.
    accounts = {
        policy.PUBLIC: Client(),
        policy.TABLET: tablet,
        policy.OTHER_JUEZ: signed_in(here.other_juez),
        policy.JUEZ: signed_in(here.juez),
        policy.OTHER_DIRECTOR: signed_in(others["same_sede"].director),
        policy.DIRECTOR: signed_in(here.director),
        policy.ORGANISER: signed_in(here.organiser),
        policy.COMITE: signed_in(factories.comite()),
    }
    return {"here": here, **others}, accounts


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def values(w):
    """Each kind of a route's parameter, filled from the world ``w``."""
    job = uuid.uuid4().hex
    batch._write(
        {"id": job, "championship": w.championship.pk, "user": w.organiser.pk, "title": str(w.championship)}
        | {"language": "es", "total": 1, "done": 1, "status": "done", "error": ""}
    )
    return w.route_values(job)


def api_methods():
    """The API's paths as the URL map writes them, each with the methods its schema names."""
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return {re.sub(r"\{(\w+)\}", r"<\1>", path): {m.upper() for m in methods} for path, methods in paths.items()}


def routes():
    """(route, methods) of every route the policy answers for; the routes outside it are named in ``OUTSIDE``."""
    api = api_methods()
    found = []
    for route, _pattern in sorted(set(every_route_with_view())):
        if route.startswith(OUTSIDE):
            continue
        bare = CONVERTER.sub(lambda m: f"<{m.group(2)}>", route)
        found.append((route, sorted(api.pop(bare, None) or {"GET", "POST"})))
    assert not api, f"the schema describes paths the URL map lacks: {api}"
    return found


def guard(view):
    """The view's (find(kwargs), act_of(request, target)): the guard on every page and API view."""
    cls = getattr(view, "cls", None)
    if cls is not None:  # DRF's
        acts = cls.acts
        return (
            cls().find,
            lambda request, target: acts.get(request.method, acts.get("")),
        )
    assert hasattr(view, "act_of"), f"{view.__module__}.{view.__name__} has no @allowed guard"
    return view.find, view.act_of


def predicted(table, client, method, url):
    """What the policy's ``table`` says of ``client`` asking ``url``: "404", "yes" or "no"."""
    match = resolve(url.partition("?")[0])
    find, act_of = guard(match.func)
    session = client.session
    user = _user_of(session)
    who = SimpleNamespace(user=user, session=session, method=method, POST={})
    try:
        target = find(match.kwargs)
    except Http404:
        return "404", None
    act = act_of(who, target)
    return ("yes" if not table[act].isdisjoint(policy.relations(who, target)) else "no"), act


def _user_of(session):
    pk = session.get("_auth_user_id")
    return get_user_model().objects.get(pk=pk) if pk else AnonymousUser()


def answer(client, method, url, is_api):
    """The site's answer, its writes undone so that the next check finds the same world; an exception is a 500."""
    with transaction.atomic():
        try:
            if method == "GET":
                response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
            elif is_api:
                response = client.generic(method, url, "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
            else:
                response = client.generic(method, url, "", HTTP_ACCEPT_LANGUAGE="en")
        except Exception:  # a view run for whom it was never meant: a loosened row
            response = SimpleNamespace(status_code=500)
        transaction.set_rollback(True)
    return response


def refused(response, url):
    """A refusal: 403, a visitor sent to sign in, or a device sent from its table's screen to the table's PIN."""
    if response.status_code == 403:
        return True
    if response.status_code != 302:
        return False
    where = response["Location"].partition("?")[0]
    return where == resolve_url(settings.LOGIN_URL) or (
        PIN_PAGE.fullmatch(where) is not None and url.startswith(where) and url != where
    )


def matrix(worlds, accounts, table, acts=None):
    """Every check of the matrix, one at a time: (account, championship, method, url, act, prediction, answer,
    agrees); ``acts``: only the routes of those."""
    api = set(api_methods())
    for route, methods in routes():
        uses_records = bool(CONVERTER.search(route))
        for place, w in worlds.items() if uses_records else [("-", worlds["here"])]:
            filled = values(w)
            # A mesa's page asked of the mesa in play, and of the one decided (its result is corrected, not given).
            urls = {address(route, filled), address(route, {**filled, "mesa": w.finished.pk})}
            for url, (relation, client) in itertools.product(sorted(urls), accounts.items()):
                for method in methods:
                    expected, act = predicted(table, client, method, url)
                    if acts is not None and act not in acts:
                        continue
                    response = answer(client, method, url, CONVERTER.sub(r"<\2>", route) in api)
                    code = response.status_code
                    if code >= 500:
                        agrees = False
                    elif code == 405:
                        agrees = True  # the method is no one's: refused before anyone is asked
                    elif expected == "404":
                        agrees = code == 404
                    else:
                        agrees = refused(response, url) == (expected == "no")
                    yield relation, place, method, url, act, expected, code, agrees


@pytest.fixture
def no_print_jobs(monkeypatch):
    """Who may print is the question, not the printing: a print job's thread (which would render outside the
    test's transaction) starts none, and a PDF is a stub."""
    monkeypatch.setattr(batch, "start", lambda ids, **kwargs: uuid.uuid4().hex)
    monkeypatch.setattr(pdf, "render", lambda html: b"%PDF-1.7 stub")


@pytest.mark.slow
def test_every_route_answers_every_relation_as_the_policy_says(worlds, no_print_jobs):
    started = time.monotonic()
    table = dict(policy.MAY)
    checks = list(matrix(*worlds, table))
    wrong = [check[:-1] for check in checks if not check[-1]]
    assert not wrong, "\n".join(map(str, wrong[:40]))
    # The matrix reaches every kind of answer and every relation, at every championship.
    assert {c[0] for c in checks} == set(worlds[1]) and {c[1] for c in checks} >= set(worlds[0])
    assert {"yes", "no", "404"} <= {c[5] for c in checks}
    print(f"\nmatrix: {len(checks)} checks in {time.monotonic() - started:.1f} s")


# Acts no route's answer shows: asked by domain functions and commands, tested where they act.
NOT_ROUTED = {
    policy.OVERRIDE,  # results.correct_result (tests/tournament/results)
    policy.EMERGENCY_RESULT,  # manage.py emergency_result (tests/tournament/test_guards.py)
}
# Rows that let everyone in already: loosening them changes nothing.
OPEN = {act for act, relations in policy.MAY.items() if policy.PUBLIC in relations or act == policy.READ_PAIR}


@pytest.mark.slow
def test_a_loosened_row_is_caught(worlds, no_print_jobs, monkeypatch):
    """Each act's row in turn lets everyone (on the live table only): the matrix must find answers that differ."""
    table = dict(policy.MAY)
    uncaught = []
    for act in sorted(set(policy.MAY) - NOT_ROUTED - OPEN):
        with monkeypatch.context() as patch:
            patch.setitem(policy.MAY, act, frozenset(policy.RELATIONS))
            # The first disagreement is enough.
            if all(check[-1] for check in matrix(*worlds, table, acts={act})):
                uncaught.append(act)
    assert not uncaught
