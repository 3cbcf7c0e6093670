"""The juez's list of mesas and who may open a mesa's screen (server side)."""

import pytest

from engines.rules.rules import build_ruleset
from tests.support.tablet import screen_config

pytestmark = pytest.mark.django_db


def test_the_list_shows_only_the_juezs_own_mesas(client, mesa, other_juez):
    client.force_login(mesa.juez)
    response = client.get("/mesa/")
    assert response.status_code == 200
    assert "Los Ases" in response.content.decode() and f'href="/mesa/{mesa.pk}/"' in response.content.decode()
    client.force_login(other_juez)
    assert "Los Ases" not in client.get("/mesa/").content.decode()


def test_pages_need_a_login(client, mesa):
    assert client.get("/mesa/").status_code == 302
    assert client.get(f"/mesa/{mesa.pk}/").status_code == 302


def test_another_juez_gets_a_403_page(client, mesa, other_juez):
    client.force_login(other_juez)
    response = client.get(f"/mesa/{mesa.pk}/")
    assert response.status_code == 403
    assert "No es su mesa" in response.content.decode()


def test_an_unknown_mesa_is_a_404(client, juez):
    client.force_login(juez)
    assert client.get("/mesa/999999/").status_code == 404


def test_the_screen_draws_both_pairs_and_marks_the_representative(client, mesa):
    client.force_login(mesa.juez)
    response = client.get(f"/mesa/{mesa.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Los Ases" in html and "Caballos de Espada" in html and "Marta Yépez" in html
    assert html.count('class="rep"') == 2
    config = screen_config(response)
    assert config["pairs"] == {"A": "Los Ases", "B": "Caballos de Espada"}
    assert config["seats"]["B2"] == "Jorge Cando"
    assert config["api"]["claims"] == f"/api/mesas/{mesa.pk}/claims/"
    assert config["labels"]["caida"] == "Caída"
    assert config["lang"] == "es"


def test_variant_claims_appear_only_where_the_rule_set_scores_them(client, mesa):
    client.force_login(mesa.juez)
    html = client.get(f"/mesa/{mesa.pk}/").content.decode()
    assert 'data-claim="caida_en_ronda"' not in html and 'data-claim="cuatro_caidas"' not in html
    mesa.championship.ruleset_profile = "a_todo_rigor"
    mesa.championship.save()
    assert build_ruleset("a_todo_rigor").caida_en_ronda is not None
    html = client.get(f"/mesa/{mesa.pk}/").content.decode()
    assert html.count('data-claim="caida_en_ronda"') == 2 and html.count('data-claim="cuatro_caidas"') == 2


def test_english_strings_reach_the_script(client, mesa):
    client.force_login(mesa.juez)
    client.cookies["django_language"] = "en"
    config = screen_config(client.get(f"/mesa/{mesa.pk}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert config["lang"] == "en"
    assert config["strings"]["banner.mesa_zapateria"] == "Mesa for %(pair)s by zapatería"


def test_the_inspector_logs_the_play_too_art_3e_7a(client, mesa, other_juez):
    """ "El Juez o el Inspector verificará la ronda" (Art. 3e, 7a): the inspector's screen has the buttons."""
    mesa.inspector = other_juez
    mesa.save()
    client.force_login(other_juez)
    response = client.get(f"/mesa/{mesa.pk}/")
    assert response.status_code == 200
    assert 'class="screen is-readonly"' not in response.content.decode()


def test_the_director_watches_without_buttons(client, mesa, other_juez):
    mesa.championship.director = other_juez
    mesa.championship.save()
    client.force_login(other_juez)
    response = client.get(f"/mesa/{mesa.pk}/")
    assert response.status_code == 200
    assert 'class="screen is-readonly"' in response.content.decode()
