"""The championship's form through Django's test client: its rule set, a bad override answered as a form error,
the format frozen once drawn, the Directors and profiles it offers."""

import pytest
from django.urls import reverse

from tests.support.factories import (
    championship,
    jueces,
    pairs,
    sede,
)
from tests.support.factories import director as director_only
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.models import Championship

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def new_championship(**fields):
    """The championship form's fields for a new double-elimination championship at a new sede of 10 tables."""
    return {
        "start_date": "2026-11-21",
        "end_date": "2026-11-22",
        "ruleset_profile": "riobamba",
        "players_per_pair": 2,
        "bracket_format": "double",
        "group_size": 4,
        "advance_per_group": 0,
        "sede": sede(10).pk,
        "appeal_window_minutes": 10,
        **fields,
    }


def test_a_championship_is_created_with_overrides_and_shows_its_rule_set(org_client):
    response = org_client.post(
        reverse("tournament:new"),
        new_championship(name="Copa Chimborazo", rule_caida_limpia_points="4"),
    )
    champ = Championship.objects.get(name="Copa Chimborazo")
    assert response.status_code == 302
    assert champ.ruleset_overrides == {"caida_limpia_points": 4}
    page = org_client.get(reverse("tournament:detail", args=[champ.pk])).content.decode()
    assert "Caída and limpia" in page and "4 points" in page


def test_a_bad_override_is_a_form_error_not_a_500(org_client):
    response = org_client.post(
        reverse("tournament:new"),
        new_championship(name="Copa", rule_caida_limpia_points="7"),
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Championship.objects.exists()


@pytest.mark.slow
def test_the_format_cannot_change_once_drawn(org_client):
    champ = championship()
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=1, by=None)
    response = org_client.post(
        reverse("tournament:edit", args=[champ.pk]),
        {
            "name": champ.name,
            "start_date": "2026-11-21",
            "end_date": "2026-11-22",
            "ruleset_profile": "riobamba",
            "players_per_pair": 2,
            "bracket_format": "single",
            "group_size": 4,
            "advance_per_group": 0,
            "sede": champ.sede_id,
            "appeal_window_minutes": 10,
        },
    )
    assert "The bracket is drawn: this can no longer change." in response.content.decode()
    champ.refresh_from_db()
    assert champ.bracket_format == "double"


def test_the_championship_form_offers_directors_by_name_and_names_profiles_and_sources(org_client):
    director = director_only("ruth")
    director.first_name, director.last_name = "Ruth", "Vallejo"
    director.save()
    accounts.give_role(director, "director")
    jueces(1)
    page = org_client.get(reverse("tournament:new")).content.decode()
    director_field = page[page.index('name="director"') : page.index("</select>", page.index('name="director"'))]
    assert "Ruth Vallejo" in director_field and "juez1" not in director_field and "org" not in director_field
    # Each rule names the profile's value and its source as people know it.
    assert "as the profile says: no limit" in page  # the ronda limit, riobamba
    assert "(Riobamba reglamento, Art. 9a)" in page and "(Quito variant)" in page
    assert "Deck maker&#x27;s rules, Art. 15B" in page
    assert "seed 003" not in page and "002 Art." not in page
    assert 'data-formats="round_robin"' in page and 'data-formats="single"' in page
    page = org_client.post(reverse("tournament:new"), {"ruleset_profile": "pichincha"}).content.decode()
    assert "as the profile says: 30 points" in page  # the form sent back names the chosen profile's value


@pytest.mark.parametrize(
    "mode, offered",
    [(Championship.Start.DESK, True), (Championship.Start.TAP, False), (Championship.Start.FIRST_CLAIM, False)],
)
def test_the_summary_offers_to_start_a_round_only_where_the_desk_starts_the_mesas(org_client, mode, offered):
    """Where each mesa starts at its table (the juez's tap, or the juez's first claim), the desk has nothing to
    start: "Start N mesas" would make a new organiser believe it must be pressed."""
    champ = championship(start_mode=mode)
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=7, by=None)
    page = org_client.get(reverse("tournament:detail", args=[champ.pk])).content.decode()
    start = reverse("tournament:start_round", args=[champ.pk, "W", 1])
    assert (start in page) is offered and ("Start 2 mesas" in page) is offered
    assert ('id="start-mode"' in page) is not offered
