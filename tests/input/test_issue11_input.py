"""Issue 11's bad input, each case refused whole: 400 (413 for a huge body) naming
the field, in the request's language, nothing stored, and the mesa still served.

Every case here gave a 500, a DataError or a stored row before the input
checks (``engines.text``, ``parse_claim``'s bounds, the API's
body cap, ``refereeing.signatures``'s decoding).
"""

import uuid

import pytest
from django.contrib.auth import get_user_model

from refereeing.claimlog.log import MalformedClaim, record_claim
from refereeing.models import ClaimEntry, Signature
from tests.support.claims import CAIDA_A, api_client, data_url, png
from tests.support.rows import force
from tournament.models import Mesa

from .conftest import post_raw

pytestmark = pytest.mark.django_db


def claims_url(mesa):
    return f"/api/mesas/{mesa.pk}/claims/"


def ajuste(points=2, reason="prueba"):
    return {"kind": "ajuste", "pair": "A", "points": points, "reason": reason}


def log_body(claim):
    return {"client_id": str(uuid.uuid4()), "claim": claim}


def assert_mesa_still_served(client, mesa):
    """The mesa's API, its poll and its planilla answer as before."""
    assert client.get(f"/api/mesas/{mesa.pk}/").status_code == 200
    assert client.get(f"{claims_url(mesa)}?after=0").status_code == 200
    response = client.get(f"/planilla/mesa/{mesa.pk}.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")


@pytest.mark.parametrize(
    "reason, fragment",
    [
        ("x\ud800", "surrogate"),
        ("x\x00y", "U+0000"),
        ("x\x1b[31m", "U+001B"),
        ("una\nlínea", None),  # a reason may hold a newline: accepted
        ("x" * 501, "at most 500"),
    ],
    ids=["lone surrogate", "NUL", "escape", "newline", "501 characters"],
)
@pytest.mark.slow
def test_an_ajuste_reason_that_is_not_clean_text_is_refused_whole(played, people, reason, fragment):
    """Issue 11: a surrogate in a reason was stored, answered 500, and lost the mesa for everyone."""
    juez = api_client(people["juez"])
    before = ClaimEntry.objects.count()
    if fragment is None:
        # Only the Director adjusts (Art. 18); the reason is checked the same way for everyone.
        answer = record_claim(played, ajuste(reason=reason), uuid.uuid4(), user=people["director"])
        assert answer.entry.claim["reason"] == reason
    else:
        # Refused as malformed before anyone's right to log it is asked.
        response = post_raw(juez, claims_url(played), log_body(ajuste(reason=reason)), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 400, response.content
        detail = response.json()["detail"]
        assert "'ajuste.reason'" in detail and fragment in detail
        assert ClaimEntry.objects.count() == before
    assert_mesa_still_served(juez, played)


@pytest.mark.slow
def test_the_refusal_is_in_the_request_language_only(played, people):
    """Issue 13 item 5: Spanish for a Spanish request, English for an English one, never both glued."""
    juez = api_client(people["juez"])
    spanish = post_raw(juez, claims_url(played), log_body(ajuste(reason="x\x00")), HTTP_ACCEPT_LANGUAGE="es-EC")
    english = post_raw(juez, claims_url(played), log_body(ajuste(reason="x\x00")), HTTP_ACCEPT_LANGUAGE="en")
    assert spanish.json()["detail"] == "«ajuste.reason» tiene un carácter de control (U+0000), que no se admite."
    assert english.json()["detail"] == "'ajuste.reason' holds a control character (U+0000), which is not allowed."
    unknown = post_raw(juez, claims_url(played), log_body({"kind": "escalera"}), HTTP_ACCEPT_LANGUAGE="en")
    assert unknown.status_code == 400 and " / " not in unknown.json()["detail"]
    assert unknown.json()["detail"].startswith("Unknown claim kind 'escalera'")


@pytest.mark.parametrize("points", [10**30, 41, -41, 0, 39.0], ids=["10^30", "41", "-41", "0", "float"])
@pytest.mark.slow
def test_an_ajuste_beyond_what_a_chica_holds_is_refused(played, people, points):
    """Issue 11: +39 and 10^30 were accepted; 10^30 ended the mesa (Art. 18: at most a chica's 40)."""
    with pytest.raises(MalformedClaim, match="points"):
        record_claim(played, ajuste(points=points), uuid.uuid4(), user=people["director"])
    response = post_raw(api_client(people["juez"]), claims_url(played), log_body(ajuste(points=points)))
    assert response.status_code in (400, 403), response.content
    played.refresh_from_db()
    assert played.last_seq == 2 and played.status == Mesa.Status.IN_PLAY


@pytest.mark.slow
def test_an_ajuste_of_40_either_way_is_accepted(played, people):
    answer = record_claim(played, ajuste(points=-40), uuid.uuid4(), user=people["director"])
    assert answer.decision["accepted"]


@pytest.mark.parametrize(
    "claim, field",
    [
        ({"kind": "conteo", "cards": {"A": 41, "B": 0}}, "cards"),
        ({"kind": "conteo", "cards": {"A": 10**30, "B": 0}}, "cards"),
        ({"kind": "void", "target": 3}, "target"),  # the log holds 2 claims
        ({"kind": "void", "target": 10**30}, "target"),
        ({"kind": "juego_y_veo", "pair": "B", "upheld": True, "against": 99}, "against"),
    ],
)
def test_numbers_beyond_the_log_or_the_deck_are_refused(played, people, claim, field):
    response = post_raw(api_client(people["juez"]), claims_url(played), log_body(claim), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.content
    assert field in response.json()["detail"]
    assert ClaimEntry.objects.filter(mesa=played).count() == 2


@pytest.mark.slow
def test_a_5_mb_reason_answers_413_and_stores_nothing(played, people):
    """Issue 11: a 5 MB reason was stored; the mesa's API answer became 5 MB and its planilla took 19 s."""
    juez = api_client(people["juez"])
    response = post_raw(juez, claims_url(played), log_body(ajuste(reason="x" * 5_000_000)), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert response.json()["detail"].startswith("The request is too large")
    assert ClaimEntry.objects.filter(mesa=played).count() == 2
    assert_mesa_still_served(juez, played)


@pytest.mark.slow
def test_postgresql_nul_in_a_reason_is_a_400_not_a_data_error(played, people):
    """Issue 11: on PostgreSQL a NUL in a reason was a DataError (500); on both databases it is refused."""
    juez = api_client(people["juez"])
    response = post_raw(juez, claims_url(played), log_body(ajuste(reason="\x00")))
    assert response.status_code == 400
    # The same request with a good reason then goes through: nothing was left half-done.
    assert post_raw(juez, claims_url(played), log_body(CAIDA_A)).status_code == 201


# --- signatures ---------------------------------------------------------------


def finish(mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.FINISHED, winner=mesa.pair_a, chicas_a=2)


def sign(client, mesa, name="Los Ases uno", image=None, role="A"):
    return post_raw(
        client,
        f"/api/mesas/{mesa.pk}/signatures/",
        {"role": role, "name": name, "image": data_url(png()) if image is None else image},
        HTTP_ACCEPT_LANGUAGE="en",
    )


@pytest.mark.parametrize(
    "name, fragment",
    [
        ("Rosa\x00", "U+0000"),
        ("Rosa\ud800", "surrogate"),
        ("Rosa\nGuamán", "single line"),
        ("x" * 121, "at most 120"),
        ("Rosa\u202egnamuG", "U+202E"),
    ],
    ids=["NUL", "lone surrogate", "newline", "121 characters", "bidi override"],
)
@pytest.mark.slow
def test_a_signature_name_that_is_not_clean_text_is_refused(mesa, people, name, fragment):
    """Issue 11: a NUL or a surrogate in a signature's name gave a 500."""
    finish(mesa)
    juez = api_client(people["juez"])
    response = sign(juez, mesa, name=name)
    assert response.status_code == 400, response.content
    assert "'name'" in response.json()["detail"] and fragment in response.json()["detail"]
    assert not Signature.objects.exists()
    assert_mesa_still_served(juez, mesa)


@pytest.mark.parametrize(
    "image, fragment",
    [
        (data_url(png()[:30]), "damaged or incomplete"),
        (data_url(png()[:-13]), "damaged or incomplete"),
        (data_url(png()[:45] + b"\x00" + png()[46:]), "damaged or incomplete"),
        (data_url(png(ink=False)), "empty"),
        (data_url(png(width=1001, height=1001)), "impossible size"),
    ],
    ids=["30 bytes", "no IEND", "corrupt IDAT", "blank", "a million pixels"],
)
def test_a_signature_that_is_not_a_real_drawing_is_refused_and_the_mesa_is_not_signed(mesa, people, image, fragment):
    """Issue 11 item 8: a truncated PNG (30 bytes) was accepted and the mesa counted as signed."""
    finish(mesa)
    juez = api_client(people["juez"])
    response = sign(juez, mesa, image=image)
    assert response.status_code == 400, response.content
    assert fragment in response.json()["detail"]
    assert not Signature.objects.filter(mesa=mesa).exists()
    assert juez.get(f"/api/mesas/{mesa.pk}/").json()["signatures"] == []


def test_a_real_drawing_signs(mesa, people):
    finish(mesa)
    assert sign(api_client(people["juez"]), mesa).status_code == 201


@pytest.mark.slow
def test_a_signature_body_over_its_cap_answers_413(mesa, people):
    finish(mesa)
    response = sign(api_client(people["juez"]), mesa, image="data:image/png;base64," + "A" * 400_000)
    assert response.status_code == 413
    assert not Signature.objects.exists()


# --- the levante checker --------------------------------------------------------


@pytest.mark.parametrize(
    "body, field",
    [
        ({"table": ["3\x00"], "played": "4", "taken": []}, "table"),
        ({"table": ["3"], "played": "4\ud800", "taken": []}, "played"),
        ({"table": ["3"], "played": "4", "taken": ["x" * 9]}, "taken"),
        ({"table": ["3"], "played": "4", "previous": "\x00", "taken": []}, "previous"),
        ({"table": ["3"], "played": "4", "taken": [], "mesa": 10**30}, "mesa"),
    ],
    ids=["NUL card", "surrogate card", "long card", "NUL previous", "huge mesa id"],
)
def test_a_levante_card_that_is_not_clean_text_is_refused(mesa, people, body, field):
    """Issue 11: a NUL or a surrogate in a levante card gave a 500."""
    response = post_raw(api_client(people["juez"]), "/api/levante/", body, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.content
    assert field in response.json()["detail"]


@pytest.mark.parametrize("url", ["/cuenta/entrar/", "/jueces/"])
def test_a_form_body_over_the_upload_limit_answers_413_and_changes_nothing(client, people, settings, url):
    """Issue 11: every body is capped; a form body over Django's limit is 413 (was a 400), on a page or the sign-in."""
    if url == "/jueces/":  # an organiser's page
        client.force_login(people["staff"])
    users = get_user_model().objects.count()
    body = "first_name=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = client.post(url, body, content_type="application/x-www-form-urlencoded", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 413
    assert "The request is too large" in response.content.decode()
    assert get_user_model().objects.count() == users
