"""One refusal (#36): every domain error is a ``tournament.errors.Refusal``; the API answers each in one JSON
shape, a page shows one no view caught as a message on the page it came from."""

import pytest
from django.test import Client

from refereeing.access.permissions import Refused
from refereeing.appeals.procedure import AppealError
from refereeing.claimlog import log as claimlog
from refereeing.signatures import SignatureError
from resolutions.register import ResolutionError
from tests.support import refusals
from tests.support.claims import MANO, api_client, claim_body, post_json
from tournament.csv_files import ImportRefused
from tournament.errors import ActionRefused, Refusal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "error",
    [
        ActionRefused("Art. 12: x."),
        ImportRefused("x"),
        SignatureError("x"),
        Refused("Art. 17: x.", forbidden=True),
        AppealError("x"),
        ResolutionError("x"),
        claimlog.MalformedClaim("x"),
        claimlog.MesaClosed("x"),
        claimlog.NotAllowed("x"),
        claimlog.Conflict("x", state=None, last_seq=3),
    ],
)
def test_every_domain_error_is_a_refusal_with_a_code_a_message_and_a_status(error):
    assert isinstance(error, Refusal)
    answer = error.as_json()
    assert (
        set(answer) >= refusals.FIELDS and answer["message"] == answer["detail"] == "x" or "Art." in answer["message"]
    )
    assert isinstance(answer["code"], str) and answer["status"] in (400, 403, 409)


def test_the_article_is_the_one_a_message_starts_with_or_the_one_given():
    assert Refusal("Art. 3g.6: no.").article == "Art. 3g.6"
    assert Refusal("Sin artículo.").article is None
    assert Refusal("Sin artículo.", article="Art. 17").article == "Art. 17"


def test_a_stale_claim_is_refused_with_the_state_and_the_fields_the_tablet_reads(people, mesa):
    client = api_client(people["juez"])
    assert post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO, expected_seq=1)).status_code == 201
    response = post_json(client, f"/api/mesas/{mesa.pk}/claims/", claim_body(MANO, expected_seq=5))
    assert response.status_code == 409
    answer = response.json()
    # static/refereeing/mesa/queue.js reads ``last_seq`` and ``detail``; the rest is the refusal's shape.
    assert answer["code"] == "stale_seq" and answer["status"] == 409 and answer["last_seq"] == 1
    assert answer["detail"] == answer["message"] and "5" in answer["detail"]
    assert "scores" in answer["state"] and "preview" in answer["state"]


def refuse(*args, **kwargs):
    raise ActionRefused("Art. 12: the round cannot be shown now.")


def test_a_refusal_no_page_caught_is_a_message_on_the_page_it_came_from(people, championship, monkeypatch):
    monkeypatch.setattr("tournament.championships.views._rounds", refuse)
    client = Client()
    client.force_login(people["staff"])
    page = f"/campeonatos/{championship.pk}/"
    back = client.get(page, HTTP_REFERER="http://testserver/campeonatos/nuevo/", HTTP_ACCEPT_LANGUAGE="en")
    assert (back.status_code, back["Location"]) == (302, "http://testserver/campeonatos/nuevo/")
    shown = client.get("/campeonatos/nuevo/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Art. 12: the round cannot be shown now." in shown
    # A referer elsewhere is not followed: back to the page itself.
    elsewhere = client.get(page, HTTP_REFERER="https://example.com/", HTTP_ACCEPT_LANGUAGE="en")
    assert (elsewhere.status_code, elsewhere["Location"]) == (302, page)
    # A script asking for JSON gets the refusal's JSON.
    script = client.get(page, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert script.status_code == 409
    assert script.json() == refusals.refusal(
        "Art. 12: the round cannot be shown now.", "action_refused", 409, "Art. 12"
    )
