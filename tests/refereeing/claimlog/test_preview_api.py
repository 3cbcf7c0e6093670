"""The API's states carry the engine's preview, its labels and article links (contracts 1-3).

Every state the server sends (``GET /api/mesas/<id>/``, the claim POST's
answer, the poll) carries ``preview`` in the request's language; every
decision carries ``article_url`` into ``/reglas/`` (docs/REGLAS.md); the
rule set carries the labels of every claim kind.
"""

import uuid

import pytest

from engines.rules import KINDS
from engines.rules.messages import KIND_LABELS
from engines.rules.preview import counted
from refereeing.claimlog.log import record_claim
from refereeing.models import ClaimEntry
from tests.support.claims import CAIDA_A, MANO, ajuste, api_client, claim_body, post_json
from tournament.models import Championship


def claims_url(mesa):
    return f"/api/mesas/{mesa.pk}/claims/"


@pytest.mark.slow
def test_the_claim_answer_and_the_poll_carry_the_preview_in_the_requests_language(mesa, people):
    juez = api_client(people["juez"])
    post_json(juez, claims_url(mesa), claim_body(MANO))
    body = post_json(juez, claims_url(mesa), claim_body(CAIDA_A)).json()
    preview = body["state"]["preview"]
    # Art. 6: a caída by B now would score 2; the conteo waits for the last mano (Art. 3f).
    assert preview["claims"]["B"]["caida"] == {"points": {"A": 0, "B": 2}, "article_url": None}
    refusal = counted(preview, "A", 20)
    assert refusal == {
        "refused": "conteo_prematuro",
        "article": "Art. 3f",
        "message": "Aún no se han repartido todas las manos de la data.",
        "article_url": "/reglas/#art-3",
    }
    assert preview["conteo"]["B"] == [refusal]  # one refusal answers every count
    poll = juez.get(claims_url(mesa), {"after": 1}, HTTP_ACCEPT_LANGUAGE="en").json()
    assert counted(poll["state"]["preview"], "A", 20)["message"] == ("Not every hand of the data has been dealt yet.")
    assert poll["state"]["preview"]["claims"]["B"]["caida"] == preview["claims"]["B"]["caida"]
    assert poll["state"]["preview"]["claims"]["B"]["ronda"]["message"].startswith("Everyone has played")


def test_a_conteo_that_contradicts_the_log_is_refused_in_the_preview_and_in_the_log_art_10(mesa, people):
    """Ruling "conteo" (docs/REGLAS.md): A made a caída, so A cannot be counted at 0 cards."""
    juez = api_client(people["juez"])
    for claim in (MANO, CAIDA_A, MANO):
        post_json(juez, claims_url(mesa), claim_body(claim))
    mesa_body = juez.get(f"/api/mesas/{mesa.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    refusal = mesa_body["state"]["preview"]["conteo"]["A"][0]
    assert refusal["refused"] == "conteo_contradice_registro"
    assert refusal["article_url"] == "/reglas/#art-10"
    assert refusal["message"].startswith("The log has 1 accepted capture(s) by pair A")
    answer = post_json(juez, claims_url(mesa), claim_body({"kind": "conteo", "cards": {"A": 0, "B": 40}}))
    decision = answer.json()["entry"]["decision"]
    assert (decision["accepted"], decision["code"]) == (False, "conteo_contradice_registro")
    assert decision["article_url"] == "/reglas/#art-10"
    assert answer.json()["state"]["scores"] == {"A": 2, "B": 0}  # no falla, no 26 for B


def test_the_mesa_gives_every_kind_its_label_and_the_kinds_its_rule_set_scores(mesa, people):
    juez = api_client(people["juez"])
    body = juez.get(f"/api/mesas/{mesa.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["ruleset"]["labels"] == {kind: english for kind, (_es, english) in KIND_LABELS.items()}
    assert set(body["ruleset"]["labels"]) == set(KINDS)
    assert body["ruleset"]["kinds"] == [k for k in KINDS if k not in ("caida_en_ronda", "cuatro_caidas")]
    assert "preview" in body["state"] and body["state"]["preview"]["claims"]["-"]["mal_repartidas"]
    spanish = juez.get(f"/api/mesas/{mesa.pk}/").json()
    assert spanish["ruleset"]["labels"]["mal_repartidas"] == "Mal repartidas"
    Championship.objects.filter(pk=mesa.championship_id).update(ruleset_profile="a_todo_rigor")
    strict = juez.get(f"/api/mesas/{mesa.pk}/").json()
    assert {"caida_en_ronda", "cuatro_caidas"} <= set(strict["ruleset"]["kinds"])
    assert "cuatro_caidas" in strict["state"]["preview"]["claims"]["A"]


def test_every_decision_the_api_sends_links_its_article(mesa, people):
    juez = api_client(people["juez"])
    for claim in (MANO, CAIDA_A, {"kind": "void", "target": 2}):
        post_json(juez, claims_url(mesa), claim_body(claim))
    body = juez.get(f"/api/mesas/{mesa.pk}/").json()
    urls = [d["decision"]["article_url"] for d in body["decisions"]]
    # mano Art. 3d; the voided caída cites its void (Art. 16); the void Art. 16.
    assert urls == ["/reglas/#art-3", "/reglas/#art-16", "/reglas/#art-16"]
    poll = juez.get(claims_url(mesa), {"after": 0}).json()
    assert [e["decision"]["article_url"] for e in poll["entries"]] == [
        "/reglas/#art-3",
        "/reglas/#art-6",
        "/reglas/#art-16",
    ]


def test_the_rule_sets_buttons_are_its_pair_claims_labelled_from_the_engine(mesa, people):
    client = api_client(people["juez"])
    page = client.get(f"/mesa/{mesa.pk}/").content.decode()
    assert 'data-claim="caida_en_ronda"' not in page and 'data-claim="pedir_mal"' in page
    assert ">Pedir mal</button>" in page
    Championship.objects.filter(pk=mesa.championship_id).update(ruleset_profile="a_todo_rigor")
    page = client.get(f"/mesa/{mesa.pk}/").content.decode()
    assert 'data-claim="caida_en_ronda"' in page and ">Cuatro caídas</button>" in page


def test_the_state_previews_each_pairs_juego_y_veo_as_the_engine_decides_it_art_5(mesa, people):
    """What the juego y veo dialog offers: naming no play, and each play the pair may protest (fourth rulings)."""
    juez = api_client(people["juez"])
    post_json(juez, claims_url(mesa), claim_body(MANO))
    body = post_json(juez, claims_url(mesa), claim_body(CAIDA_A)).json()
    state = body["state"]
    assert state["protestable"] == {"A": [], "B": [2]}
    protests = state["preview"]["juego_y_veo"]
    assert set(protests["B"]) == {"none", "2"} and set(protests["A"]) == {"none"}
    # Riobamba (Art. 5c): upheld, A loses the caída's 2 and B gains 2; rejected, B's 0 stays 0.
    assert protests["B"]["2"]["upheld"] == {"points": {"A": -2, "B": 2}, "article_url": None}
    assert protests["B"]["2"]["rejected"] == {"points": {"A": 0, "B": 0}, "article_url": None}


def test_a_finished_mesa_sends_a_juego_y_veo_to_the_director_art_17_fourth_rulings(mesa, people):
    """Ruling "juego y veo mesa": the play that ended the mesa is not protested at the table; the pair appeals."""
    director = mesa.championship.director
    for claim in (ajuste("B", 12), ajuste("A", 40), ajuste("B", 12), ajuste("A", 38)):
        record_claim(mesa, claim, uuid.uuid4(), user=director)
    juez = api_client(people["juez"])
    post_json(juez, claims_url(mesa), claim_body(MANO))
    assert post_json(juez, claims_url(mesa), claim_body(CAIDA_A)).json()["state"]["finished"]
    state = juez.get(f"/api/mesas/{mesa.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()["state"]
    assert state["protestable"] == {"A": [], "B": []}
    refusal = state["preview"]["juego_y_veo"]["B"]["none"]["upheld"]
    assert refusal["refused"] == "juego_y_veo_mesa_terminada" and refusal["article_url"] == "/reglas/#art-17"
    assert "appeals to the Championship Director" in refusal["message"]
    protest = {"kind": "juego_y_veo", "pair": "B", "upheld": True, "against": 6}
    answer = post_json(juez, claims_url(mesa), claim_body(protest))
    assert answer.status_code == 409 and "apela al Director del Campeonato" in answer.json()["detail"]
    assert ClaimEntry.objects.filter(mesa=mesa).count() == 6
