"""The site answers in Spanish by default and in English on request."""

import pytest

# The home page lists the championships.
pytestmark = pytest.mark.django_db


def test_home_is_in_spanish_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    assert 'lang="es-ec"' in response.content.decode()


def test_static_assets_are_served_locally(client, settings):
    html = client.get("/").content.decode()
    assert "/static/vendor/bootstrap/bootstrap.min.css" in html
    assert "http://" not in html.replace("http://testserver", "") and "https://" not in html
