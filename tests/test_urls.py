"""The refereeing features' URLs, split by audience, keep the paths and names
that templates, scripts and printed QR codes use (ARCHITECTURE.md)."""

import pytest
from django.urls import resolve, reverse

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
    ("access:mesa_qr", [7], "/acceso/mesa/7/qr.svg"),
    ("access:table_card", [7], "/acceso/mesa/7/tarjeta/"),
    ("access:new_pin", [7], "/acceso/mesa/7/pin-nuevo/"),
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
