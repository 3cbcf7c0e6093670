"""The championship report (``report``): champion, standings, every mesa with its code, appeals, resolutions."""

import pytest
from django.urls import reverse

from refereeing.planilla import verification
from resolutions import register
from tests.support.factories import championship, jueces, organiser, pairs, play_to_the_end
from tests.support.factories import director as director_only
from tests.support.planilla import keep_rendering, pages_text
from tournament.draws import draws
from tournament.models import Pair

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_the_report_says_who_won_how_every_mesa_ended_and_what_the_director_decided(client):
    champ = championship(name="Copa Chimborazo")
    director = director_only("directora")
    director.first_name, director.last_name = "Ruth", "Vallejo"
    director.save()
    champ.director = director
    champ.save()
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    champion = play_to_the_end(champ)
    first = champ.mesas.get(bracket="W", round=1, position=1)
    register.resolve(
        champ,
        "Un teléfono sonó en la mesa.",
        "Amonestación verbal a la pareja B.",
        articles="Art. 18",
        mesas=[first],
        by=director,
    )
    client.force_login(director)
    response = client.get(reverse("report:championship", args=[champ.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages = pages_text(response.content)
    whole = " ".join(pages)
    assert f"CHAMPION {champion.name}" in whole  # the heading is set in capitals
    for mesa in champ.mesas.exclude(winner=None):
        assert verification.verification_code(mesa) in whole
    assert "Amonestación verbal a la pareja B." in whole and "Art. 18" in whole
    assert "not played" in whole  # the reset: the winners' bracket champion won the grand final
    assert "FINAL STANDINGS" in whole and "No appeal was filed." in whole
    keep_rendering(response.content, "report-en")


def test_only_organisers_and_the_director_print_it(client):
    champ = championship()
    client.force_login(jueces(1)[0])
    assert client.get(reverse("report:championship", args=[champ.pk])).status_code == 403
    assert client.get(reverse("report:championship", args=[987654])).status_code == 404


@pytest.mark.slow
def test_mid_event_the_standings_are_provisional_and_absent_pairs_are_listed_as_absent(client):
    champ = championship(name="Copa Chimborazo")
    present = pairs(champ, 4)
    absent = Pair.objects.create(championship=champ, name="Los Ausentes")
    draws.draw_bracket(champ, seed=1, by=None)
    client.force_login(organiser())
    url = reverse("report:championship", args=[champ.pk])

    mid_event = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content
    keep_rendering(mid_event, "report-provisional-es")
    whole = " ".join(pages_text(mid_event))
    assert "POSICIONES PROVISIONALES" in whole and "POSICIONES FINALES" not in whole
    assert "Los Ausentes 0 0 0 0–0 ausente" in whole
    assert all(pair.name in whole for pair in present)

    play_to_the_end(champ)
    whole = " ".join(pages_text(client.get(url, HTTP_ACCEPT_LANGUAGE="es").content))
    assert "POSICIONES FINALES" in whole and "POSICIONES PROVISIONALES" not in whole
    assert f"{absent.name} 0 0 0 0–0 ausente" in whole
