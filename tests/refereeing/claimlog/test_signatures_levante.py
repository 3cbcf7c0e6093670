"""Signing the finished mesa's planilla (Art. 16), and the levante checker (Art. 5)."""

import pytest

from refereeing.models import Signature
from tests.support.claims import api_client, data_url, png, post_json
from tests.support.refusals import refusal
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = pytest.mark.django_db


def finish(mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.FINISHED, winner=mesa.pair_a, chicas_a=2)


def sign(client, mesa, role="A", name="Los Ases uno", image=None):
    body = {"role": role, "name": name, "image": data_url(png()) if image is None else image}
    return post_json(client, f"/api/mesas/{mesa.pk}/signatures/", body)


def test_each_role_signs_a_finished_mesa_once(people, mesa):
    finish(mesa)
    juez = api_client(people["juez"])
    for role in ("A", "B", "juez"):
        response = sign(juez, mesa, role=role, name=f"firma {role}")
        assert response.status_code == 201, response.content
        assert response.json()["role"] == role
    again = sign(juez, mesa, role="A", name="otra persona")
    assert again.status_code == 409 and again.json()["detail"]
    assert Signature.objects.get(mesa=mesa, role="A").name == "firma A"
    # The mesa's page lists who signed.
    assert [s["role"] for s in juez.get(f"/api/mesas/{mesa.pk}/").json()["signatures"]] == ["A", "B", "juez"]


def test_a_mesa_in_play_cannot_be_signed(people, mesa):
    response = sign(api_client(people["juez"]), mesa)
    assert response.status_code == 400
    assert "terminado" in response.json()["detail"]
    assert Signature.objects.count() == 0


@pytest.mark.parametrize(
    "image",
    [
        "",
        "hola",
        "data:image/jpeg;base64,/9j/4AAQSkZJRg==",
        "data:image/png;base64,not base64!!",
        data_url(b"GIF89a" + b"\x00" * 30),
        data_url(b"\x89PNG\r\n\x1a\n" + b"\x00" * 4),
        data_url(png(width=0)),
        data_url(png(width=100_000)),
        "data:image/png;base64," + "A" * 270_000,  # over the image's 200 kB, within the body's cap
        12,
        None,
    ],
)
def test_a_signature_that_is_not_a_small_png_is_refused(people, mesa, image):
    finish(mesa)
    response = post_json(
        api_client(people["juez"]), f"/api/mesas/{mesa.pk}/signatures/", {"role": "A", "name": "x", "image": image}
    )
    assert response.status_code == 400, response.content
    assert Signature.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"role": "C", "name": "x"},
        {"role": "A", "name": ""},
        {"role": "A", "name": "  "},
        {"role": "A", "name": "x" * 151},
        {"role": ["A"], "name": "x"},
        {"role": "A", "name": 5},
    ],
)
def test_a_bad_role_or_name_is_refused(people, mesa, body):
    finish(mesa)
    response = post_json(
        api_client(people["juez"]), f"/api/mesas/{mesa.pk}/signatures/", {**body, "image": data_url(png())}
    )
    assert response.status_code == 400
    assert Signature.objects.count() == 0


def test_the_inspector_cannot_sign(people, mesa):
    finish(mesa)
    assert sign(api_client(people["inspector"]), mesa).status_code == 403


# --- the levante checker ------------------------------------------------------


def levante(client, body):
    return post_json(client, "/api/levante/", body)


def test_the_levante_checker_lists_captures_and_judges_the_cards_taken(people):
    juez = api_client(people["juez"])
    # Seed 003: a 7 on 3 4 J Q K takes 3 + 4 by sum, then J, Q, K.
    response = levante(
        juez, {"table": ["3", "4", "J", "Q", "K"], "played": "7", "previous": None, "taken": ["3", "4", "J"]}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["captures"] == [{"cards": ["3", "4", "J", "Q", "K"], "caida": False, "limpia": True}]
    # Art. 16 (riobamba): the forgotten escalera cards are set aside.
    assert body["verdict"]["verdict"] == "incomplete"
    assert body["verdict"]["left_behind"] == ["Q", "K"] and body["verdict"]["arranche"] == "set_aside"
    assert body["verdict"]["article_url"] == "/reglas/#art-16"  # its article in docs/REGLAS.md


def test_the_levante_checker_uses_the_mesas_rule_set(people, mesa, championship):
    championship.ruleset_profile = "pichincha"
    championship.save()
    body = {"table": ["3", "4", "J", "Q", "K"], "played": "7", "previous": None, "taken": ["3", "4"], "mesa": mesa.pk}
    response = levante(api_client(people["juez"]), body)
    # 002 Art. 13: the opponents may take the forgotten cards.
    assert response.json()["verdict"]["arranche"] == "opponents"
    assert levante(api_client(people["other_juez"]), body).status_code == 403


@pytest.mark.parametrize(
    "body",
    [
        [],
        "7",
        {"table": "3 4", "played": "7"},
        {"table": ["3"], "played": 7},
        {"table": ["3"], "played": "9"},
        {"table": ["K"] * 5, "played": "7"},
        {"table": ["3"], "played": "7", "previous": "5"},
        {"table": ["3"], "played": "7", "taken": {"3": 1}},
        {"table": ["3"], "played": "7", "mesa": "uno"},
        {"table": [["3"]], "played": "7"},
    ],
)
def test_bad_levante_input_answers_400(people, body):
    response = levante(api_client(people["juez"]), body)
    assert response.status_code == 400, response.content
    assert response.json()["detail"]


@pytest.mark.parametrize(
    "language, detail",
    [
        ("es", "Carta desconocida «9»; use A (o 1), 2–7, J, Q o K."),
        ("en", "Unknown card '9'; use A (or 1), 2-7, J, Q or K."),
    ],
)
def test_a_bad_card_is_refused_in_the_requests_language_only(people, language, detail):
    juez = api_client(people["juez"])
    juez.get("/cuenta/entrar/")  # the CSRF cookie
    response = juez.post(
        "/api/levante/",
        {"table": ["3"], "played": "9"},
        format="json",
        HTTP_X_CSRFTOKEN=juez.cookies["csrftoken"].value,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert response.json() == refusal(detail, "parse_error", 400)


def test_the_levante_checker_needs_a_signed_in_user_or_a_pin_device():
    assert levante(api_client(), {"table": [], "played": "7"}).status_code == 403
