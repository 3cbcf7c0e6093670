"""The refereeing features' URLs, split by audience, keep the paths and names
that templates, scripts and printed QR codes use (ARCHITECTURE.md)."""

import pytest
from django.urls import resolve, reverse

from tests.support import factories, refusals
from tests.support.routes import CONVERTER, every_route, filled

# (name, args, path): every refereeing URL, as it was before the split.
URLS = [
    ("refereeing:mesa_list", [], "/mesa/"),
    ("refereeing:mesa_screen", [7], "/mesa/7/"),
    ("refereeing:file_appeal", [7], "/mesa/7/apelacion/"),
    ("api:mesa", [7], "/api/mesas/7/"),
    ("api:claims", [7], "/api/mesas/7/claims/"),
    ("api:signatures", [7], "/api/mesas/7/signatures/"),
    ("api:levante", [], "/api/levante/"),
    ("access:pin", [], "/acceso/"),
    ("access:mesa_pin", [7], "/acceso/mesa/7/"),
    ("access:old_table_card", [7], "/acceso/mesa/7/tarjeta/"),
    ("access:table_pin", [7], "/acceso/mesa-fisica/7/"),
    ("access:table_screen", [7], "/acceso/mesa-fisica/7/ahora/"),
    ("access:table_state", [7], "/acceso/mesa-fisica/7/estado/"),
    ("access:table_card", [7], "/acceso/mesa-fisica/7/tarjeta/"),
    ("access:new_pin", [7], "/acceso/mesa-fisica/7/pin-nuevo/"),
    ("planilla:mesa_pdf", [7], "/planilla/mesa/7.pdf"),
    ("planilla:batch", [7], "/planilla/campeonato/7/imprimir/"),
    ("planilla:job", ["abc"], "/planilla/lote/abc/"),
    ("planilla:job_status", ["abc"], "/planilla/lote/abc/estado.json"),
    ("planilla:job_pdf", ["abc"], "/planilla/lote/abc/planillas.pdf"),
    ("planilla:verify_form", [], "/planilla/verificar/"),
    ("planilla:verify", ["7-ABCD"], "/planilla/verificar/7-ABCD/"),
    ("appeals:list", [], "/apelaciones/"),
    ("appeals:detail", [7], "/apelaciones/7/"),
]


@pytest.mark.parametrize(("name", "args", "path"), URLS, ids=[name for name, _, _ in URLS])
def test_each_refereeing_url_keeps_its_path_and_name(name, args, path):
    assert reverse(name, args=args) == path
    match = resolve(path)
    assert f"{match.namespace}:{match.url_name}" == name


# --- a NUL in the address (issue 22) --------------------------------------------------


ROUTES = sorted(set(every_route()))


@pytest.fixture
def championship(db):
    return factories.championship()


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("jefe", password=None))
    client.raise_request_exception = False
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("route", [route for route in ROUTES if CONVERTER.search(route) and "<int:" not in route])
def test_a_nul_in_a_parameter_of_the_path_is_not_found(superuser_client, route):
    """Issue 22 repro: ``/pareja/%00AAAA…/`` answered 500 on PostgreSQL (its text cannot hold a NUL)."""
    response = superuser_client.get(filled(route, 1, "%00AAAAAAAAAAAAAAAAAAAAAAAA"))
    assert response.status_code == 404, response.content[:300]


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES)
def test_a_nul_anywhere_in_the_path_is_not_found(superuser_client, route):
    response = superuser_client.get(filled(route, 1, "x%00y") + "%00")
    assert response.status_code == 404, response.content[:300]


@pytest.mark.django_db
@pytest.mark.parametrize("route", ROUTES)
def test_a_nul_in_the_query_string_is_a_bad_request(superuser_client, championship, route):
    response = superuser_client.get(filled(route, championship.pk, "x") + "?q=x%00&page=1")
    assert response.status_code == 400, response.content[:300]


@pytest.mark.django_db
def test_a_nul_in_the_resolutions_search_is_a_bad_request_not_a_500(superuser_client, championship):
    """Issue 22 repro: ``/resoluciones/<id>/?q=x%00`` answered 500 on PostgreSQL."""
    response = superuser_client.get(f"/resoluciones/{championship.pk}/?q=x%00", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert "Solicitud mal formada." in response.content.decode()
    assert superuser_client.get(f"/resoluciones/{championship.pk}/?q=x").status_code == 200


@pytest.mark.django_db
def test_a_nul_answers_the_api_in_json(superuser_client):
    response = superuser_client.get("/api/mesas/1%00/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response.json() == refusals.refusal("Not found.", "not_found", 404)
