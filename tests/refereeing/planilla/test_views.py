"""Printing from the screens, who may print, and the public check of a code."""

import time

import pytest
from django.urls import reverse

from refereeing.access.permissions import table_of
from refereeing.models import Signature
from refereeing.planilla import sheet as planilla
from refereeing.planilla import verification
from tests.support import planilla_factories as factories
from tests.support.factories import organiser
from tests.support.planilla import pages_text, text
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = pytest.mark.django_db


def pdf_url(mesa):
    return reverse("planilla:mesa_pdf", args=[mesa.pk])


@pytest.fixture
def finished():
    mesa, _log = factories.zapateria_mesa()
    return mesa


def test_the_url_is_the_documented_one(finished):
    assert pdf_url(finished) == f"/planilla/mesa/{finished.pk}.pdf"


@pytest.mark.parametrize("who", ["juez", "inspector", "director", "organiser"])
@pytest.mark.slow
def test_the_mesa_s_people_may_print_its_planilla(client, finished, who):
    if who == "director":
        finished.championship.director = factories.user("director")
        finished.championship.save()
        person = finished.championship.director
    elif who == "organiser":
        person = organiser("organiser")
    else:
        person = getattr(finished, who)
    client.force_login(person)
    response = client.get(pdf_url(finished))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "Planilla de Juego" in text(response.content)


@pytest.mark.slow
def test_others_may_not(client, finished):
    response = client.get(pdf_url(finished))
    assert response.status_code == 302 and "/cuenta/entrar/" in response["Location"]
    client.force_login(factories.user("curioso"))
    assert client.get(pdf_url(finished)).status_code == 403
    other = factories.mesa(finished.championship, position=4)
    client.force_login(other.juez)  # the juez of another mesa
    assert client.get(pdf_url(finished)).status_code == 403


@pytest.mark.slow
def test_a_juez_tablet_opened_with_the_pin_may_print(client, finished):
    session = client.session
    table = table_of(finished)
    session["table_pins"] = {str(table.pk): table.pin}
    session.save()
    assert client.get(pdf_url(finished)).status_code == 200


@pytest.mark.slow
def test_the_pdf_is_in_the_user_s_language(client, finished):
    client.force_login(finished.juez)
    assert "Página 1 de 1" in text(client.get(pdf_url(finished)).content)
    english = client.get(pdf_url(finished), HTTP_ACCEPT_LANGUAGE="en")
    assert "Page 1 of 1" in text(english.content)


@pytest.mark.parametrize(
    "path",
    [
        "/planilla/mesa/999999.pdf",
        "/planilla/mesa/0.pdf",
        "/planilla/mesa/abc.pdf",
        "/planilla/mesa/99999999999999999999999.pdf",
        "/planilla/mesa/-1.pdf",
    ],
)
def test_bad_mesa_ids_are_404_not_500(client, path):
    client.force_login(organiser("staff"))
    assert client.get(path).status_code == 404


# --- the verification page ---------------------------------------------------


@pytest.mark.slow
def test_the_printed_code_opens_the_mesa_s_record(client, finished):
    code = verification.verification_code(finished)
    response = client.get(reverse("planilla:verify", args=[code]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "El código coincide con el registro." in page
    assert finished.pair_a.name in page and finished.pair_b.name in page
    result = finished.state["chica_results"][0]
    assert f"1: {result['scores']['A']} – {result['scores']['B']}" in page
    assert "por zapatería (Art. 12)" in page and "Juan Pérez · " in page


@pytest.mark.slow
def test_the_code_is_on_the_pdf_and_its_qr_points_at_the_page(client, finished):
    client.force_login(finished.juez)
    whole = text(client.get(pdf_url(finished)).content)
    code = verification.verification_code(finished)
    assert f"http://testserver/planilla/verificar/{code}/" in whole
    sheet = planilla.build(finished, "http://testserver")
    assert sheet.qr_svg.startswith("<svg") and sheet.verify_url.endswith(f"/verificar/{code}/")


@pytest.mark.slow
def test_with_a_public_mirror_the_qr_points_at_the_mirrors_check_and_the_halls_address_is_printed_beside(
    client, finished, settings
):
    """A pair at home checks its planilla on the mirror (docs/mirror.md); at the hall the venue's address works too."""
    settings.MIRROR_URL = "https://espejo.example.ec"
    client.force_login(finished.juez)
    code = verification.verification_code(finished)
    whole = " ".join(text(client.get(pdf_url(finished)).content).split())
    assert f"Desde cualquier lugar: https://espejo.example.ec/planilla/verificar/{code}/" in whole
    assert f"En la sala: http://testserver/planilla/verificar/{code}/" in whole
    sheet = planilla.build(finished, "http://testserver")
    assert sheet.qr_svg == planilla.qr_svg(f"https://espejo.example.ec/planilla/verificar/{code}/")
    assert sheet.verify_url == f"http://testserver/planilla/verificar/{code}/"
    # The sheet printed before the mirror was set is not served again for it.
    settings.MIRROR_URL = ""
    alone = " ".join(text(client.get(pdf_url(finished)).content).split())
    assert "espejo.example.ec" not in alone and f"http://testserver/planilla/verificar/{code}/" in alone
    assert planilla.build(finished, "http://testserver").qr_svg == planilla.qr_svg(sheet.verify_url)


@pytest.mark.slow
def test_typed_codes_are_forgiving_about_case_and_look_alike_letters(client, finished):
    code = verification.verification_code(finished)
    typed = code.lower().replace("0", "o").replace("1", "l").replace("-", " ", 1)
    response = client.get(reverse("planilla:verify_form"), {"codigo": typed})
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize("change", ["claim", "signature", "result"])
@pytest.mark.slow
def test_any_later_change_makes_the_printed_code_fail(client, finished, change):
    code = verification.verification_code(finished)
    if change == "claim":
        entry = finished.claims.get(seq=2)
        entry.claim = {**entry.claim, "player": 1 if entry.claim.get("player") == 2 else 2}
        entry.save()
    elif change == "signature":
        Signature.objects.filter(mesa=finished, role="B").update(name="Otra Persona")
    else:
        # Behind the system's back (the model refuses a result written around the claim log).
        force(Mesa.objects.filter(pk=finished.pk), winner=finished.pair_b)
        finished.refresh_from_db()
    response = client.get(reverse("planilla:verify", args=[code]))
    assert response.status_code == 404
    page = response.content.decode()
    assert "Este código no corresponde a ninguna planilla." in page
    assert finished.pair_a.name not in page
    assert verification.verification_code(finished) != code


@pytest.mark.parametrize(
    "code",
    [
        "abc",
        "-",
        "1",
        "1-",
        "1-0000-0000-0000",
        "999999-0000-0000-0000",
        "99999999999999999999999-AAAA-AAAA-AAAA",
        "x-ABCD-EFGH-JKMN",
        "1-ABCD-EFGH-JKMN-PQRS",
        "1-ÁÉÍÓ-ÚÑ00-0000",
        "1--------",
    ],
)
@pytest.mark.slow
def test_wrong_codes_get_a_clear_404_never_500(client, finished, code):
    response = client.get(f"/planilla/verificar/{code}/")
    assert response.status_code == 404
    assert "Este código no corresponde a ninguna planilla." in response.content.decode()


@pytest.mark.slow
def test_a_code_with_a_nul_is_not_found_before_the_page_reads_it(client, finished):
    """A NUL in any address is the site's plain 404 (``config.nul_in_url``), never a 500."""
    response = client.get("/planilla/verificar/%00/")
    assert response.status_code == 404
    assert "No encontrado." in response.content.decode()


@pytest.mark.slow
def test_codes_survive_a_secret_key_rotation(client, finished, settings):
    code = verification.verification_code(finished)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-next-championship"
    assert verification.verification_code(finished) != code
    assert client.get(reverse("planilla:verify", args=[code])).status_code == 200


@pytest.mark.slow
def test_the_verification_page_of_a_mesa_in_play_says_it_is_provisional(client):
    mesa = factories.mesa()
    factories.Log(mesa).data("A", 26)
    response = client.get(reverse("planilla:verify", args=[verification.verification_code(mesa)]))
    assert response.status_code == 200
    assert "planilla es provisional" in response.content.decode()


def test_the_verification_form_page_loads(client):
    response = client.get(reverse("planilla:verify_form"))
    assert response.status_code == 200 and 'name="codigo"' in response.content.decode()


# --- many planillas as one PDF -------------------------------------------------


@pytest.mark.slow
def test_only_organisers_and_the_director_print_a_whole_championship(client, finished):
    url = reverse("planilla:batch", args=[finished.championship_id])
    client.force_login(finished.juez)
    assert client.get(url).status_code == 403
    client.force_login(organiser("staff"))
    assert client.get(url).status_code == 200
    assert client.get(reverse("planilla:batch", args=[987654])).status_code == 404


@pytest.mark.slow
def test_a_bad_choice_of_round_is_a_clear_400(client, finished):
    client.force_login(organiser("staff"))
    url = reverse("planilla:batch", args=[finished.championship_id])
    for scope in ("W-99", "nonsense", "W-x", ""):
        response = client.post(url, {"scope": scope})
        assert response.status_code == 400, scope
        assert "No hay ninguna mesa" in response.content.decode()


@pytest.mark.parametrize("job", ["nope", "0" * 32, "../../etc/passwd", "A" * 32])
def test_unknown_jobs_are_404(client, job):
    client.force_login(organiser("staff"))
    for name in ("planilla:job", "planilla:job_status", "planilla:job_pdf"):
        try:
            url = reverse(name, args=[job])
        except Exception:
            continue
        assert client.get(url).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_round_prints_as_one_pdf_in_the_background_with_progress(client):
    first, _log = factories.zapateria_mesa()
    second, _log = factories.short_mesa(factories.mesa(first.championship, position=4))
    staff = organiser("staff")
    client.force_login(staff)
    response = client.post(reverse("planilla:batch", args=[first.championship_id]), {"scope": "W-2"})
    assert response.status_code == 302
    job_page = response["Location"]
    job = job_page.rstrip("/").rsplit("/", 1)[1]
    assert "Imprimiendo planillas" in client.get(job_page).content.decode()
    deadline = time.monotonic() + 90
    while True:
        status = client.get(reverse("planilla:job_status", args=[job])).json()
        assert status["status"] in ("queued", "running", "done"), status
        assert status["total"] == 2 and 0 <= status["done"] <= 2
        if status["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert status["status"] == "done" and status["done"] == 2
    pdf = client.get(status["pdf"])
    assert pdf.status_code == 200
    pages = pages_text(b"".join(pdf.streaming_content))
    # One page for the zapatería, two for the other: each keeps its own numbers.
    assert len(pages) == 3
    assert "Página 1 de 1" in pages[0] and "Página 1 de 2" in pages[1] and "Página 2 de 2" in pages[2]
    assert verification.verification_code(first) in pages[0] and verification.verification_code(second) in pages[2]
    # A job is its championship's record: not for whom the policy does not let read them (issue #33).
    client.force_login(factories.user("otro"))
    assert client.get(reverse("planilla:job_status", args=[job])).status_code == 403


@pytest.mark.parametrize("status", ["waiting", "walkover"])
@pytest.mark.slow
def test_a_mesa_with_no_log_still_prints(client, status):
    mesa = factories.mesa()
    if status == "waiting":
        force(Mesa.objects.filter(pk=mesa.pk), pair_a=None, pair_b=None, status=status)
    else:
        force(Mesa.objects.filter(pk=mesa.pk), winner=mesa.pair_a, status=status)
    mesa.refresh_from_db()
    client.force_login(mesa.juez)
    response = client.get(pdf_url(mesa))
    assert response.status_code == 200
    whole = text(response.content)
    assert ("PROVISIONAL" in whole) == (status == "waiting")
    assert ("Walkover: no se jugó ninguna chica." in whole) == (status == "walkover")
    assert ("por definir" in whole) == (status == "waiting")
    assert ("Los Ases de Guano" in whole) == (status == "walkover")


@pytest.mark.slow
def test_a_batch_prints_in_the_order_of_play(client, monkeypatch):
    """Winners' rounds, then losers' rounds, then the grand final and its reset."""
    champ = factories.championship()
    places = [("GR", 1, 1), ("GF", 1, 1), ("L", 2, 1), ("W", 2, 1), ("L", 1, 1), ("W", 1, 2), ("W", 1, 1)]
    made = {
        place: factories.mesa(champ, position=10 * n + place[2], bracket=place[0], round=place[1])
        for n, place in enumerate(places)
    }
    started = {}
    monkeypatch.setattr(
        "refereeing.planilla.views.planilla_batch.start", lambda ids, **kwargs: started.setdefault("ids", ids) and "job"
    )
    client.force_login(organiser("staff"))
    client.post(reverse("planilla:batch", args=[champ.pk]), {"scope": "all"})
    order = {m.pk: place for place, m in made.items()}
    assert [order[pk][:2] for pk in started["ids"]] == [
        ("W", 1),
        ("W", 1),
        ("W", 2),
        ("L", 1),
        ("L", 2),
        ("GF", 1),
        ("GR", 1),
    ]
    choices = client.get(reverse("planilla:batch", args=[champ.pk])).content.decode()
    assert choices.index('value="W-2"') < choices.index('value="L-1"') < choices.index('value="GF-1"')
