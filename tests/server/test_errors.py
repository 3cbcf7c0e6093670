"""Errors: JSON under the API, a plain page elsewhere, a 503 for a service that does not answer, logged to stderr."""

import logging

import pytest
from django.db import OperationalError
from django.test import Client

from tests.support import refusals
from tests.support.claims import api_client

pytestmark = pytest.mark.django_db

DOWN_REDIS = {
    "default": {
        "BACKEND": "config.cache.Cache",  # the site's (config/settings.py)
        # Port 9 (discard) has no listener here: the connection is refused at once.
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


def crash(*args, **kwargs):
    raise RuntimeError("boom in a view")


def database_down(*args, **kwargs):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


def test_an_unexpected_error_in_the_api_is_a_json_500_logged_with_its_traceback(people, mesa, monkeypatch, caplog):
    monkeypatch.setattr("refereeing.claimlog.api.MesaDetail.get", crash)
    client = api_client(people["juez"])
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(f"/api/mesas/{mesa.pk}/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == refusals.FIELDS and "registrado" in response.json()["detail"]
    record = next(r for r in caplog.records if r.name == "django.request")
    assert record.exc_info and "boom in a view" in str(record.exc_info[1])


def test_an_unknown_api_address_is_a_json_404():
    response = Client().get("/api/nothing-here/")
    assert response.status_code == 404
    assert response.json() == refusals.refusal("No encontrado.", "not_found", 404)


def test_a_database_that_does_not_answer_is_a_json_503_on_the_api(people, mesa, monkeypatch):
    monkeypatch.setattr("refereeing.claimlog.api.MesaClaims.get", database_down)
    client = api_client(people["juez"])
    client.raise_request_exception = False
    response = client.get(f"/api/mesas/{mesa.pk}/claims/?after=0", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response.json() == refusals.refusal(
        "The database is not answering. Please try again in a moment; nothing you sent was lost.", "unavailable", 503
    )


def test_a_database_that_does_not_answer_is_a_plain_503_page_elsewhere(monkeypatch):
    monkeypatch.setattr("public.championship.render", database_down)  # the home page's
    client = Client(raise_request_exception=False)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert "La base de datos no responde" in response.content.decode()


@pytest.fixture
def redis_down(settings):
    settings.CACHES = DOWN_REDIS
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"


def test_with_redis_down_the_mesa_api_and_the_poll_answer_a_json_503(people, mesa, settings):
    client = api_client(people["juez"])  # signed in while Redis was up
    client.raise_request_exception = False
    settings.CACHES = DOWN_REDIS
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    for url in (f"/api/mesas/{mesa.pk}/", f"/api/mesas/{mesa.pk}/claims/?after=0"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 503, url
        assert "Redis" in response.json()["detail"]


def test_with_redis_down_a_sign_in_answers_a_plain_503_page(people, redis_down):
    people["juez"].set_password("sota-caballo-rey")
    people["juez"].save()
    client = Client(raise_request_exception=False)
    response = client.post("/cuenta/entrar/", {"username": "juez", "password": "sota-caballo-rey"})
    assert response.status_code == 503
    assert "Redis" in response.content.decode()


def test_a_database_found_down_is_not_asked_again_for_a_second_and_then_is(people, mesa, monkeypatch):
    from config import errors

    monkeypatch.setattr("refereeing.claimlog.api.MesaClaims.get", database_down)
    client = api_client(people["juez"])
    client.raise_request_exception = False
    assert client.get(f"/api/mesas/{mesa.pk}/claims/?after=0").status_code == 503
    monkeypatch.undo()
    # Within the pause no request asks the database: each is answered 503 at once.
    asked = []
    monkeypatch.setattr(
        "django.db.backends.base.base.BaseDatabaseWrapper.ensure_connection", lambda db: asked.append(db.alias)
    )
    paused = Client(raise_request_exception=False).get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert paused.status_code == 503 and "The database is not answering" in paused.content.decode()
    assert asked == []
    monkeypatch.undo()
    errors.paused_until["database"] -= errors.PAUSE_SECONDS  # the pause is over
    assert client.get(f"/api/mesas/{mesa.pk}/claims/?after=0").status_code == 200
