"""The screen's question to the engine about one claim (``POST /mesa/<id>/vista-previa/``, issue 32, item 2).

It answers what the state's preview does not hold, a conteo that leaves
cards out, with the entry the claim log then gives it; it logs nothing,
and only the mesa's officials may ask.
"""

import pytest

from refereeing.models import ClaimEntry
from tests.support.claims import MANO, api_client, caida, claim_body, post_json
from tests.support.tablet import log_claims

pytestmark = pytest.mark.django_db


def ask(client, mesa, claim):
    return post_json(client, f"/mesa/{mesa.pk}/vista-previa/", {"claim": claim})


def test_the_engine_previews_a_conteo_that_leaves_cards_out_as_the_log_then_decides_it_art_15h(mesa):
    log_claims(mesa, [MANO, caida("A"), MANO])
    juez = api_client(mesa.juez)
    conteo = {"kind": "conteo", "cards": {"A": 15, "B": 23}}
    answer = ask(juez, mesa, conteo)
    assert answer.status_code == 200
    # 23 cards: 6 + 3, rounded up to 10 (Art. 15h); two cards left on the table.
    assert answer.json() == {"last_seq": 3, "preview": {"points": {"A": 0, "B": 10}, "article_url": None}}
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 3
    logged = post_json(juez, f"/api/mesas/{mesa.pk}/claims/", claim_body(conteo)).json()["entry"]["decision"]
    assert logged["points"] == answer.json()["preview"]["points"]


def test_a_refusal_comes_in_the_requests_language_with_its_article_art_10(mesa):
    log_claims(mesa, [MANO, caida("A"), MANO])
    juez = api_client(mesa.juez)
    juez.credentials(HTTP_ACCEPT_LANGUAGE="en")
    answer = ask(juez, mesa, {"kind": "conteo", "cards": {"A": 0, "B": 38}})
    assert answer.json()["preview"] == {
        "refused": "conteo_contradice_registro",
        "article": "Art. 10, 15",
        "detail": {"pair": "A", "plays": 1, "least": 2},
        "message": "The log has 1 accepted capture(s) by pair A in this data: it cannot be counted at fewer than 2"
        " cards (nor give falla).",
        "article_url": "/reglas/#art-10",
    }


@pytest.mark.parametrize(
    "claim",
    [
        {"kind": "conteo", "cards": {"A": 41, "B": 0}},
        {"kind": "misa"},
        "mano",
        {"kind": "void", "target": 1},
        {"kind": "juego_y_veo", "pair": "A", "upheld": True, "against": 9},
    ],
)
def test_a_malformed_question_is_a_400_in_words(mesa, claim):
    log_claims(mesa, [MANO])
    answer = ask(api_client(mesa.juez), mesa, claim)
    assert answer.status_code == 400 and answer.json()["detail"]


def test_only_the_mesas_officials_ask(mesa, other_juez):
    assert ask(api_client(other_juez), mesa, MANO).status_code == 403
    assert ask(api_client(), mesa, MANO).status_code == 403
    assert post_json(api_client(mesa.juez), "/mesa/999999/vista-previa/", {"claim": MANO}).status_code == 404
