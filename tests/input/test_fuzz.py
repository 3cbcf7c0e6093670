"""Random bodies and random text to every API endpoint and every form: never a
5xx, and a refused request leaves the database as it was.

Each endpoint (and the import of precedents, with any file) is posted to
by a user allowed to reach it (the mesa's juez, an organiser, the
Director, or nobody for the sign-in and PIN pages), with
bodies Hypothesis draws: the endpoint's own fields, good values among bad
ones, and text with lone surrogates, NUL and other controls, bidirectional
overrides, newlines and up to 300 kB. Forms travel as the browser sends
them (form-encoded UTF-8, a lone surrogate as the bytes a broken client
would send); JSON as the tablet sends it (ASCII, surrogates as ``\\u``
escapes).

"Refused" is a 4xx, or a form page drawn again (200); then every row of
the championship's tables, the claim log, signatures, appeals and accounts
is the same as before. Wrong PINs (kept on purpose, to slow guessing) and
sessions are not compared. Examples are bounded (``EXAMPLES`` each) so the
suite stays fast; the same test runs on SQLite and PostgreSQL.
"""

import datetime
import hashlib
import json
import urllib.parse
import uuid

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.rules import KINDS
from refereeing.access.permissions import table_of
from refereeing.appeals import procedure as appeals
from refereeing.models import PinFailure
from resolutions.models import Resolution
from tests.support.claims import SIGNED, api_client
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = pytest.mark.django_db

EXAMPLES = 50

# --- text and bodies ------------------------------------------------------------

NASTY = [
    "\ud800",
    "\udfff",
    "\x00",
    "\x1b",
    "\x7f",
    "\u202e",
    "\u2066",
    "\u2028",
    "\n",
    "\r\n",
    "\t",
    "é",
    "★",
    "🂡",
    "'",
    '"',
    "<",
    "&",
    "%",
    "\\",
]
TEXT = st.one_of(
    st.text(max_size=12),
    st.lists(st.sampled_from(NASTY) | st.text(max_size=3), max_size=8).map("".join),
    st.builds(
        lambda chunk, n: chunk * n,
        st.sampled_from(["x", "é", "\x00", "\ud800", "ab\n"]),
        st.sampled_from([121, 201, 501, 2001, 20_000, 300_000]),
    ),
)
NUMBER = st.one_of(st.integers(-3, 45), st.sampled_from([2**31, 2**63, 10**30, -(10**30)]))
SCALAR = st.one_of(st.none(), st.booleans(), NUMBER, st.floats(allow_nan=False, allow_infinity=False), TEXT)
JSON = st.recursive(
    SCALAR, lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3), max_leaves=6
)
FORM_VALUE = st.one_of(TEXT, NUMBER.map(str), st.sampled_from(["A", "B", "1", "2", "0", "yes", "no", "on", ""]))


def fields(names, good=None, extra=JSON):
    """A dict of some of ``names``, each a good value or anything, and maybe a key of its own."""
    good = good or {}
    return st.fixed_dictionaries(
        {}, optional={name: (st.just(good[name]) | extra) if name in good else extra for name in names}
    ) | st.dictionaries(TEXT, extra, max_size=3)


CARD = st.sampled_from(["A", "2", "7", "J", "Q", "K", "1", "8"]) | TEXT
CLAIM = st.fixed_dictionaries(
    {"kind": st.sampled_from(KINDS) | TEXT},
    optional={
        "pair": st.sampled_from(["A", "B"]) | JSON,
        "player": st.sampled_from([1, 2]) | JSON,
        "upheld": st.booleans() | JSON,
        "against": NUMBER | JSON,
        "target": NUMBER | JSON,
        "cards": st.fixed_dictionaries({"A": NUMBER, "B": NUMBER}) | JSON,
        "points": NUMBER | JSON,
        "reason": TEXT | JSON,
    },
)
CLAIM_BODY = (
    st.fixed_dictionaries(
        {"client_id": st.uuids().map(str) | JSON, "claim": CLAIM}, optional={"expected_seq": NUMBER | JSON}
    )
    | JSON
)
SIGNATURE_BODY = (
    st.fixed_dictionaries(
        {"role": st.sampled_from(["A", "B", "juez"]) | JSON, "name": TEXT | JSON},
        optional={"image": st.just(SIGNED) | TEXT | JSON},
    )
    | JSON
)
LEVANTE_BODY = (
    st.fixed_dictionaries(
        {"table": st.lists(CARD, max_size=6) | JSON, "played": CARD | JSON},
        optional={"previous": CARD | JSON, "taken": st.lists(CARD, max_size=4) | JSON, "mesa": NUMBER | JSON},
    )
    | JSON
)


def form(names, good=None):
    return fields(names, good, FORM_VALUE)


# --- the place -----------------------------------------------------------------


@pytest.fixture
def place(played, other_mesa, people, settings):
    """A mesa in play with an appeal waiting for the Director, a finished mesa to sign, and a juez's account."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    force(Mesa.objects.filter(pk=other_mesa.pk), status=Mesa.Status.FINISHED, winner=other_mesa.pair_a, chicas_a=2)
    appeal = appeals.file_appeal(played, "B", 2, "La carta ya se jugó.", "Las Sotas uno", SIGNED, uuid.uuid4(), by=None)
    from tests.support.factories import jueces

    [account] = jueces(1)
    return {
        "mesa": played,
        "finished": other_mesa,
        "appeal": appeal,
        "championship": played.championship,
        "account": account,
        "people": people,
    }


def snapshot():
    """A digest of every row that a request could change, sessions and wrong PINs aside."""
    digest = hashlib.sha256()
    models = [
        m
        for m in apps.get_models()
        if m._meta.app_label in ("tournament", "refereeing", "auth") and m is not PinFailure
    ]
    for model in sorted(models, key=lambda m: m._meta.label):
        rows = model.objects.order_by("pk").values_list()
        digest.update(repr((model._meta.label, list(rows))).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# --- sending -------------------------------------------------------------------


def client_for(place, who):
    if who is None:
        client = api_client()
    else:
        client = api_client(get_user_model().objects.get(pk=place["people"][who].pk))
    client.get("/cuenta/entrar/")  # the CSRF cookie
    return client


def send_json(client, url, body):
    raw = json.dumps(body)  # ASCII: a surrogate travels as \ud800
    return client.post(url, raw, content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def send_form(client, url, data):
    data = {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    raw = urllib.parse.urlencode(data, encoding="utf-8", errors="surrogatepass")
    return client.post(url, raw, content_type="application/x-www-form-urlencoded")


def check(response, before):
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400 or response.status_code == 200:
        assert snapshot() == before, f"a refused request ({response.status_code}) changed the database"


def run(place, who, url, body, kind):
    client = client_for(place, who)
    before = snapshot()
    response = send_json(client, url, body) if kind == "json" else send_form(client, url, body)
    check(response, before)
    if kind == "json" and response.status_code >= 400:
        assert isinstance(response.json()["detail"], str)


SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


# --- the API ---------------------------------------------------------------------


@SETTINGS
@given(body=CLAIM_BODY)
def test_fuzz_api_claims(place, body):
    run(place, "juez", f"/api/mesas/{place['mesa'].pk}/claims/", body, "json")


@SETTINGS
@given(body=SIGNATURE_BODY)
def test_fuzz_api_signatures(place, body):
    run(place, "other_juez", f"/api/mesas/{place['finished'].pk}/signatures/", body, "json")


@SETTINGS
@given(body=LEVANTE_BODY)
def test_fuzz_api_levante(place, body):
    run(place, "juez", "/api/levante/", body, "json")


@SETTINGS
@given(after=TEXT | NUMBER.map(str), mesa=st.sampled_from(["mesa", "huge"]))
def test_fuzz_api_reads(place, after, mesa):
    client = client_for(place, "juez")
    mesa_id = place["mesa"].pk if mesa == "mesa" else 10**30
    before = snapshot()
    for url, name in (
        (f"/api/mesas/{mesa_id}/", "after"),
        (f"/api/mesas/{mesa_id}/claims/", "after"),
        ("/planilla/verificar/", "codigo"),
    ):
        query = urllib.parse.urlencode({name: after}, encoding="utf-8", errors="surrogatepass")
        check(client.get(f"{url}?{query}"), before)


# --- the forms -------------------------------------------------------------------


def championship_form():
    return form(
        [
            "name",
            "edition",
            "sede",
            "start_date",
            "end_date",
            "director",
            "ruleset_profile",
            "players_per_pair",
            "bracket_format",
            "third_place",
            "group_size",
            "advance_per_group",
            "appeal_window_minutes",
            "rule_chicas_to_win",
        ],
        {
            "name": "Copa",
            "start_date": "2026-11-21",
            "end_date": "2026-11-22",
            "ruleset_profile": "riobamba",
            "players_per_pair": "2",
            "bracket_format": "double",
            "group_size": "4",
            "advance_per_group": "0",
            "appeal_window_minutes": "10",
        },
    )


PAIR = [
    "name",
    "club",
    "seed",
    "arrival",
    "player1_name",
    "player1_id",
    "player1_phone",
    "player2_name",
    "player2_id",
    "player2_phone",
    "representative",
]
PAIR_GOOD = {"name": "Los Nuevos", "player1_name": "Ana", "player2_name": "Luis", "representative": "1"}

FORMS = {
    # name: (who, url from the place, body strategy)
    "championship_new": ("staff", lambda p: "/campeonatos/nuevo/", championship_form()),
    "championship_edit": ("staff", lambda p: f"/campeonatos/{p['championship'].pk}/editar/", championship_form()),
    "pair_new": ("staff", lambda p: f"/campeonatos/{p['championship'].pk}/parejas/nueva/", form(PAIR, PAIR_GOOD)),
    "pair_edit": (
        "staff",
        lambda p: f"/campeonatos/{p['championship'].pk}/parejas/{p['mesa'].pair_a_id}/",
        form(PAIR, PAIR_GOOD),
    ),
    "pairs_import": (
        "staff",
        lambda p: f"/campeonatos/{p['championship'].pk}/parejas/importar/",
        form(["text", "confirm"], {"confirm": "1"}).map(
            lambda d: {**d, "text": "pareja,jugador_1,jugador_2\n" + str(d.get("text", ""))}
        ),
    ),
    "draw": ("staff", lambda p: f"/campeonatos/{p['championship'].pk}/sorteo/", form(["seed"])),
    "mesa_table": (
        "staff",
        lambda p: f"/campeonatos/{p['championship'].pk}/mesas/{p['mesa'].pk}/mesa/",
        form(["table_number", "juez"]),
    ),
    "mesa_result": (
        "staff",
        lambda p: f"/campeonatos/{p['championship'].pk}/mesas/{p['finished'].pk}/resultado/",
        form(["winner", "chicas_a", "chicas_b", "zapateria", "override"]),
    ),
    "juez_new": (
        "staff",
        lambda p: "/jueces/",
        form(
            ["first_name", "last_name", "username", "password1", "password2"],
            {"username": "nuevo", "password1": "sota-caballo-rey", "password2": "sota-caballo-rey"},
        ),
    ),
    "juez_password": ("staff", lambda p: f"/jueces/{p['account'].pk}/clave/", form(["new_password1", "new_password2"])),
    "juez_active": ("staff", lambda p: f"/jueces/{p['account'].pk}/activo/", form(["active"])),
    "appeal_file": (
        "juez",
        lambda p: f"/mesa/{p['mesa'].pk}/apelacion/",
        form(
            ["pair", "seq", "reason", "name", "signature", "client_id"],
            {
                "pair": "A",
                "seq": "2",
                "reason": "Motivo",
                "name": "Ana",
                "signature": SIGNED,
                "client_id": "6f1c1c64-4b5e-4e52-9f55-1d9d3a1f8c11",
            },
        ),
    ),
    "appeal_rule": (
        "director",
        lambda p: f"/apelaciones/{p['appeal'].pk}/",
        form(
            [
                "step",
                "dismiss-ruling",
                "rule-upheld",
                "rule-ruling",
                "rule-undo",
                "rule-adjust_pair",
                "rule-adjust_points",
            ],
            {"step": "dismiss"},
        ),
    ),
    "batch": (
        "staff",
        lambda p: f"/planilla/campeonato/{p['championship'].pk}/imprimir/",
        st.fixed_dictionaries({"scope": TEXT.filter(lambda s: s.strip() != "all" and "-" not in s)}),
    ),
    "sign_in": (None, lambda p: "/cuenta/entrar/", form(["username", "password"], {"username": "juez"})),
    "pin_page": (None, lambda p: "/acceso/", form(["table", "pin"], {"table": "3"})),
    "table_pin_page": (None, lambda p: f"/acceso/mesa-fisica/{table_of(p['mesa']).pk}/", form(["pin"])),
    "sede": (
        "staff",
        lambda p: "/campeonatos/sedes/",
        form(["name", "tables", "plan"], {"name": "Coliseo", "tables": "8"}),
    ),
}


@pytest.mark.parametrize("name", list(FORMS))
@SETTINGS
@given(data=st.data())
def test_fuzz_forms(place, name, data):
    who, url, strategy = FORMS[name]
    body = data.draw(strategy, label="body")
    run(place, who, url(place), {key: str(value) for key, value in body.items()}, "form")


# --- the import of precedents (issue 22 item 2) -------------------------------------------------

OFFSET = st.integers(-1439, 1439).map(lambda minutes: datetime.timezone(datetime.timedelta(minutes=minutes)))
MOMENT = st.one_of(
    st.datetimes(timezones=OFFSET).map(lambda moment: moment.isoformat()),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+00:00",
            "2026-02-30T10:00:00-05:00",
            "2026-11-21T25:00:00-05:00",
            "2026-11-21T10:00:00+99:00",
            "9999-12-31T23:30:00-05:00",
            "2026-11-21T10:00:00.123456-05:00",
        ]
    ),
    TEXT,
)
PRECEDENT = st.fixed_dictionaries(
    {},
    optional={
        "number": NUMBER | JSON,
        "decided_at": MOMENT | JSON,
        "situation": st.just("Se cayó una carta.") | TEXT | JSON,
        "ruling": st.just("Se repite el reparto.") | TEXT | JSON,
        "articles": TEXT | JSON,
        "mesas": TEXT | JSON,
        "ajuste": st.none()
        | st.fixed_dictionaries({"mesa": TEXT | JSON, "pair": st.sampled_from(["A", "B"]) | JSON, "points": NUMBER})
        | JSON,
        "precedent_from": st.just("Riobamba 2025") | TEXT | JSON,
    },
)
EXPORT = st.fixed_dictionaries(
    {
        "format": st.just("mesa-de-control/resoluciones") | TEXT,
        "version": st.just(1) | NUMBER,
        "resolutions": st.lists(PRECEDENT | JSON, max_size=3) | JSON,
    }
)


def resolutions_rows():
    return list(Resolution.objects.order_by("pk").values_list())


@SETTINGS
@given(document=EXPORT | JSON, nesting=st.sampled_from([0, 0, 0, 9, 100_000]))
def test_fuzz_resolution_import(place, document, nesting):
    """Any file to the import: never a 5xx, a refused file stores nothing, and the register still answers."""
    championship = place["championship"]
    client = client_for(place, "director")
    raw = json.dumps(document)  # ASCII: a surrogate travels as \ud800
    if nesting:
        raw = raw.replace('"resolutions": ', '"resolutions": ' + "[" * nesting, 1) + "]" * nesting
    before, rows = snapshot(), resolutions_rows()
    response = client.post(
        f"/resoluciones/{championship.pk}/importar/",
        {
            "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
            "file": SimpleUploadedFile("r.json", raw.encode(), "application/json"),
        },
        follow=True,
    )
    assert response.status_code == 200, response.content[:500]
    assert snapshot() == before
    levels = [m.level_tag for m in response.context["messages"]]
    if "error" in levels:
        assert resolutions_rows() == rows, "a refused import stored something"
    else:
        assert levels == ["success"]
    page = client.get(f"/resoluciones/{championship.pk}/", {"q": "a"})
    assert page.status_code == 200
