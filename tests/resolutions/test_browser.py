"""The Director in a real browser: a resolution with an ajuste on the resolutions' page, then the audit
trail filtered by mesa and person, at tablet and phone size. Screenshots go to artifacts/."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.support.claims import make_pair
from tests.support.factories import championship as make_championship
from tests.support.factories import director as director_only
from tournament.models import Mesa

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"audit-{name}.png"), full_page=True)


def sign_in(page, live_server, username, to):
    page.goto(live_server.url + "/cuenta/entrar/?next=" + to)
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "cuarenta")
    page.click("main button[type=submit]")


def test_the_director_rules_and_reads_the_trail(live_server, page):
    director = director_only("director")
    director.first_name, director.last_name = "Marco", "Vinueza"
    director.save()
    juez = get_user_model().objects.create_user("juez1", password="cuarenta", first_name="Rosa", last_name="Guamán")
    champ = make_championship(name="Copa Chimborazo", director=director)
    mesa = Mesa.objects.create(
        championship=champ,
        round=1,
        position=1,
        table_number=3,
        juez=juez,
        pair_a=make_pair(champ, "Los Ases", 1),
        pair_b=make_pair(champ, "Las Sotas", 2),
        status=Mesa.Status.READY,
    )
    sign_in(page, live_server, "director", f"/resoluciones/{champ.pk}/")
    page.fill("textarea[name=situation]", "Se cayó una carta boca arriba durante el reparto.")
    page.fill("textarea[name=ruling]", "Se repite el reparto; la pareja B recibe 2 puntos por la demora.")
    page.fill("input[name=articles]", "Art. 18; Art. 3e")
    page.select_option("select[name=mesas]", str(mesa.pk))
    page.select_option("select[name=ajuste_mesa]", str(mesa.pk))
    page.select_option("select[name=ajuste_pair]", "B")
    page.fill("input[name=ajuste_points]", "2")
    page.click("#resolution-form button[type=submit]")
    page.wait_for_selector("text=Resolución 1 registrada.")
    assert "Ajuste en" in page.inner_text("#resolutions")
    shot(page, "resolutions-tablet")
    mesa.refresh_from_db()
    assert mesa.state["scores"]["B"] == 2 and mesa.last_seq == 1

    page.click("text=Bitácora de auditoría")
    page.select_option("#f-mesa", str(mesa.pk))
    page.select_option("#f-person", str(director.pk))
    page.click("#audit-filter button[type=submit]")
    rows = page.inner_text("#audit tbody")
    assert "Marco Vinueza" in rows and "Resolución 1" in rows and "127.0.0.1" in rows
    assert "Creado" in rows and "mesas afectadas" in rows  # the resolution itself, filed under its mesa
    shot(page, "trail-tablet")
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "trail-phone")
    page.goto(live_server.url + f"/resoluciones/{champ.pk}/?q=carta")
    shot(page, "resolutions-phone")
    assert "Resolución 1" in page.inner_text("#resolutions")
