"""The Director's resolutions (Art. 18, issue 11 item 4): written by the Director alone, an optional ajuste
through the claim log, searched on a page, exported and imported as the next championship's precedents."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from refereeing.models import ClaimEntry
from resolutions import register
from resolutions.models import Resolution
from tests.support.factories import championship as make_championship
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = pytest.mark.usefixtures("english")

SITUATION = "Una carta cayó al suelo durante el reparto y la vio un jugador de la otra pareja."
RULING = "Se repite el reparto sin sanción: el reglamento no lo prevé."


def client_of(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_director_records_a_resolution_with_an_ajuste_logged_through_the_claim_log(championship, played, people):
    """Art. 18: the ajuste is the Director's claim, decided by the engine like any claim."""
    resolution = register.resolve(
        championship, SITUATION, RULING, "Art. 18", [played], ajuste=(played, "B", 3), by=people["director"]
    )
    entry = ClaimEntry.objects.get(mesa=played, seq=resolution.ajuste_seq)
    assert entry.kind == "ajuste" and entry.juez == people["director"] and entry.accepted
    assert entry.claim == {"kind": "ajuste", "pair": "B", "points": 3, "reason": str(resolution)}
    played.refresh_from_db()
    assert played.state["scores"]["B"] == 3
    assert resolution.number == 1 and list(resolution.mesas.all()) == [played]
    recorded = AuditEntry.objects.get_for_object(resolution).first()
    assert recorded.championship_id == championship.pk and recorded.mesa_id == played.pk


def test_only_the_director_writes_one(championship, mesa, people):
    with pytest.raises(register.ResolutionError, match="Only the championship's Director"):
        register.resolve(championship, SITUATION, RULING, by=people["staff"])
    url = reverse("resolutions:list", args=[championship.pk])
    response = client_of(people["staff"]).post(url, {"situation": SITUATION, "ruling": RULING})
    assert response.status_code == 403
    assert client_of(people["staff"]).get(url).status_code == 200  # organisers read
    assert client_of(people["juez"]).get(url).status_code == 403
    assert not Resolution.objects.exists()


def test_an_ajuste_on_a_decided_mesa_stores_nothing(championship, mesa, people):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WALKOVER, winner=mesa.pair_a)
    mesa.refresh_from_db()
    with pytest.raises(register.ResolutionError, match="already decided"):
        register.resolve(championship, SITUATION, RULING, ajuste=(mesa, "A", 2), by=people["director"])
    assert not Resolution.objects.exists() and not ClaimEntry.objects.exists()


def test_an_ajuste_on_another_championships_mesa_is_refused(championship, mesa, people):
    other = make_championship(name="Otro", director=people["director"])
    with pytest.raises(register.ResolutionError, match="own championship"):
        register.resolve(other, SITUATION, RULING, ajuste=(mesa, "A", 2), by=people["director"])
    assert not Resolution.objects.exists()


@pytest.mark.parametrize("situation", ["con\x00nul", "x\ud800", "x" * 2001, "campana\x07", "  "])
def test_bad_texts_are_refused_and_nothing_is_stored(championship, people, situation):
    with pytest.raises(register.ResolutionError):
        register.resolve(championship, situation, RULING, by=people["director"])
    assert not Resolution.objects.exists()


def test_a_refusal_names_the_field_in_the_requests_language(championship, people):
    with pytest.raises(register.ResolutionError) as refused:
        register.resolve(championship, SITUATION, RULING, articles="Art. 9\nArt. 10", by=people["director"])
    assert refused.value.message == "'articles' must be a single line."
    resolution = register.resolve(championship, "  dos\r\nlíneas ", RULING, by=people["director"])
    assert resolution.situation == "dos\nlíneas"


def test_the_page_records_lists_and_searches(championship, played, people):
    director = client_of(people["director"])
    url = reverse("resolutions:list", args=[championship.pk])
    response = director.post(
        url,
        {
            "situation": SITUATION,
            "ruling": RULING,
            "articles": "Art. 18",
            "mesas": [played.pk],
            "ajuste_mesa": played.pk,
            "ajuste_pair": "A",
            "ajuste_points": "2",
        },
    )
    assert response.status_code == 302
    register.resolve(championship, "Un jugador usó el teléfono.", "Amonestación.", "Art. 16", by=people["director"])
    page = director.get(url, {"q": "reparto"}).content.decode()
    assert "Resolution 1" in page and "Resolution 2" not in page and "Adjustment at" in page
    page = director.get(url, {"q": "teléfono"}).content.decode()
    assert "Resolution 2" in page and "Resolution 1" not in page
    half = director.post(url, {"situation": SITUATION, "ruling": RULING, "ajuste_pair": "A"})
    assert half.status_code == 200 and "needs the mesa, the pair and the points" in half.content.decode()
    assert Resolution.objects.count() == 2


@pytest.mark.slow
def test_export_then_import_starts_the_next_championship_with_the_precedents(championship, played, people):
    register.resolve(
        championship, SITUATION, RULING, "Art. 18", [played], ajuste=(played, "A", 2), by=people["director"]
    )
    register.resolve(championship, "Corte de luz.", "Se suspende la ronda.", "Art. 16", by=people["director"])
    exported = client_of(people["staff"]).get(reverse("resolutions:export", args=[championship.pk]))
    assert exported["Content-Type"].startswith("application/json")
    document = json.loads(exported.content)
    assert [r["number"] for r in document["resolutions"]] == [1, 2]

    following = make_championship(name="Campeonato 2027", director=people["director"])
    response = client_of(people["director"]).post(
        reverse("resolutions:import", args=[following.pk]),
        {"file": SimpleUploadedFile("resoluciones.json", exported.content, "application/json")},
    )
    assert response.status_code == 302
    precedents = list(following.resolutions.order_by("number"))
    assert [p.situation for p in precedents] == [SITUATION, "Corte de luz."]
    assert precedents[0].precedent_from == str(championship) and precedents[0].ajuste_mesa is None
    assert "R1-1" in precedents[0].precedent_mesas and "+2" in precedents[0].ruling
    assert precedents[0].decided_at == championship.resolutions.get(number=1).decided_at
    # The precedents travel on: exported again, they still name where they came from.
    again = json.loads(register.export(following))
    assert again["resolutions"][0]["precedent_from"] == str(championship)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"\xff\xfe not json", "not a JSON export"),
        (b'{"format": "otra cosa", "version": 1, "resolutions": []}', "not a JSON export"),
        (b'{"format": "mesa-de-control/resoluciones", "version": 9, "resolutions": []}', "version"),
        (b'{"format": "mesa-de-control/resoluciones", "version": 1, "resolutions": []}', "no resolution"),
    ],
)
def test_a_bad_file_is_refused_with_a_clear_message(championship, people, content, message):
    with pytest.raises(register.ResolutionError, match=message):
        register.import_precedents(championship, content, by=people["director"])
    assert not Resolution.objects.exists()


def test_one_bad_resolution_refuses_the_whole_file(championship, people):
    good = {
        "number": 1,
        "decided_at": "2026-11-21T10:00:00.123456-05:00",
        "situation": SITUATION,
        "ruling": RULING,
        "articles": "Art. 18",
        "mesas": "",
        "ajuste": None,
        "precedent_from": "Riobamba 2025",
    }
    bad = {**good, "ruling": "con \x00 nul"}
    content = json.dumps({"format": register.EXPORT_FORMAT, "version": 1, "resolutions": [good, bad]}).encode()
    with pytest.raises(register.ResolutionError, match="Resolution 2 of the file"):
        register.import_precedents(championship, content, by=people["director"])
    response = client_of(people["director"]).post(
        reverse("resolutions:import", args=[championship.pk]),
        {"file": SimpleUploadedFile("r.json", content, "application/json")},
        follow=True,
    )
    assert "Resolution 2 of the file" in response.content.decode()
    assert not Resolution.objects.exists()
    no_zone = {**good, "decided_at": "2026-11-21T10:00:00"}
    content = json.dumps({"format": register.EXPORT_FORMAT, "version": 1, "resolutions": [no_zone]}).encode()
    with pytest.raises(register.ResolutionError, match="time zone"):
        register.import_precedents(championship, content, by=people["director"])
    assert (
        register.import_precedents(
            championship,
            json.dumps({"format": register.EXPORT_FORMAT, "version": 1, "resolutions": [good]}).encode(),
            by=people["director"],
        ).new
        == 1
    )
