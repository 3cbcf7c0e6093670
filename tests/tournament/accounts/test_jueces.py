"""The organiser's jueces page: adding a juez's account and setting a new
password, without the admin, and without reaching any other account."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.support.factories import championship, jueces, organiser, pairs
from tournament import naming
from tournament.accounts import accounts
from tournament.draws import draws
from tournament.seating import seating
from tournament.seating.forms import JuezChoice

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NEW_JUEZ = {
    "first_name": "Rosa",
    "last_name": "Guamán",
    "username": "rguaman",
    "password1": "sota-caballo-rey",
    "password2": "sota-caballo-rey",
}


def test_only_organisers_reach_the_jueces_page(client, django_user_model):
    url = reverse("jueces:list")
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    [juez] = jueces(1)
    client.force_login(juez)
    assert client.get(url).status_code == 403
    assert client.post(url, NEW_JUEZ).status_code == 403
    assert client.get(reverse("jueces:password", args=[juez.pk])).status_code == 403
    assert not django_user_model.objects.filter(username="rguaman").exists()


@pytest.mark.slow
def test_an_added_juez_can_sign_in_and_be_given_a_table(org_client):
    response = org_client.post(reverse("jueces:list"), NEW_JUEZ, follow=True)
    assert "Rosa Guamán can now sign in as rguaman, and is available today." in response.content.decode()
    juez = get_user_model().objects.get(username="rguaman")
    assert juez in accounts.jueces() and not juez.is_staff
    assert juez in JuezChoice(busy={}, mesa=None).queryset
    assert Client().login(username="rguaman", password="sota-caballo-rey")
    assert "rguaman" in org_client.get(reverse("jueces:list")).content.decode()


@pytest.mark.parametrize(
    "change, error",
    [
        ({"username": "juez1"}, "A user with that username already exists."),
        ({"password2": "otra-cosa-distinta"}, "The two password fields didn"),
        ({"password1": "corta", "password2": "corta"}, "This password is too short."),
        ({"first_name": ""}, "This field is required."),
        ({"username": "no spaces"}, "Enter a valid username."),
    ],
)
def test_a_bad_juez_is_shown_with_its_error_and_nothing_saved(org_client, change, error):
    jueces(1)
    before = get_user_model().objects.count()
    response = org_client.post(reverse("jueces:list"), {**NEW_JUEZ, **change})
    assert response.status_code == 200
    assert error in response.content.decode()
    assert get_user_model().objects.count() == before


def test_a_new_password_replaces_the_old_and_signs_the_juez_out(org_client):
    [juez] = jueces(1)
    tablet = Client()
    tablet.force_login(juez)
    assert tablet.get(reverse("refereeing:mesa_list")).status_code == 200
    url = reverse("jueces:password", args=[juez.pk])
    response = org_client.post(url, {"new_password1": "as-de-oros-40", "new_password2": "as-de-oros-40"}, follow=True)
    assert "New password set for juez1" in response.content.decode()
    juez.refresh_from_db()
    assert juez.check_password("as-de-oros-40") and not juez.check_password("cuarenta")
    # The session the juez had is no longer valid (Django checks the password's hash).
    assert tablet.get(reverse("refereeing:mesa_list")).status_code == 302


def test_a_mismatched_new_password_changes_nothing(org_client):
    [juez] = jueces(1)
    response = org_client.post(
        reverse("jueces:password", args=[juez.pk]),
        {"new_password1": "as-de-oros-40", "new_password2": "as-de-copas-40"},
    )
    assert response.status_code == 200 and "The two password fields didn" in response.content.decode()
    juez.refresh_from_db()
    assert juez.check_password("cuarenta")


def test_organisers_cannot_reach_accounts_that_are_not_plain_jueces(org_client, django_user_model):
    other_organiser = organiser("org2")
    accounts.make_juez(other_organiser)  # even when also in the jueces' pool
    admin = django_user_model.objects.create_superuser("admin", password="cuarenta")
    accounts.make_juez(admin)
    player = django_user_model.objects.create_user("jugador", password="cuarenta")
    for user in (other_organiser, admin, player):
        url = reverse("jueces:password", args=[user.pk])
        assert org_client.get(url).status_code == 404
        assert (
            org_client.post(url, {"new_password1": "as-de-oros-40", "new_password2": "as-de-oros-40"}).status_code
            == 404
        )
        user.refresh_from_db()
        assert user.check_password("cuarenta")
    assert org_client.get(reverse("jueces:password", args=[999999])).status_code == 404
    listed = org_client.get(reverse("jueces:list")).content.decode().split('id="jueces"')[1].split("</table>")[0]
    assert "org2" not in listed and "admin" not in listed and "jugador" not in listed


def test_a_juez_who_leaves_is_deactivated_and_can_come_back(org_client):
    [juez] = jueces(1)
    url = reverse("jueces:active", args=[juez.pk])
    assert org_client.get(url).status_code == 405
    response = org_client.post(url, {"active": "0"}, follow=True)
    assert "juez1 can no longer sign in." in response.content.decode()
    assert not Client().login(username="juez1", password="cuarenta")
    assert juez not in accounts.jueces() and "inactive" in response.content.decode()
    org_client.post(url, {"active": "1"})
    assert Client().login(username="juez1", password="cuarenta")


def test_a_juez_with_a_mesa_to_referee_is_not_deactivated(org_client):
    jueces(2)
    champ = championship(tables=2)
    pairs(champ, 4)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    mesa = champ.mesas.exclude(juez=None).first()
    response = org_client.post(reverse("jueces:active", args=[mesa.juez_id]), {"active": "0"}, follow=True)
    assert escape(f"is still the juez of {naming.mesa_label(mesa)}") in response.content.decode()
    mesa.juez.refresh_from_db()
    assert mesa.juez.is_active


@pytest.mark.parametrize("body", [{}, {"active": "banana"}, {"active": ""}])
def test_a_malformed_activation_changes_nothing(org_client, body):
    [juez] = jueces(1)
    response = org_client.post(reverse("jueces:active", args=[juez.pk]), body)
    assert response.status_code == 400 and b"active must be 0 or 1." in response.content
    juez.refresh_from_db()
    assert juez.is_active


def test_organisers_cannot_deactivate_accounts_that_are_not_plain_jueces(org_client):
    other = organiser("org2")
    accounts.make_juez(other)
    assert org_client.post(reverse("jueces:active", args=[other.pk]), {"active": "0"}).status_code == 404
    other.refresh_from_db()
    assert other.is_active
