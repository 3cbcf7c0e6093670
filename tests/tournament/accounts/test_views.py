"""The Comité's accounts page through Django's test client."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournament.accounts import accounts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_only_the_committee_makes_organisers_and_directors(org_client):
    url = reverse("roles:list")
    assert org_client.get(url).status_code == 403
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert client.get(url).status_code == 302  # to sign in
    admin = get_user_model().objects.create_superuser("comite", password="cuarenta")
    client.force_login(admin)
    response = client.post(
        url,
        {
            "first_name": "Ruth",
            "last_name": "Vallejo",
            "username": "rvallejo",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "director",
        },
        follow=True,
    )
    assert "Ruth Vallejo can now sign in as rvallejo (Director)." in response.content.decode()
    ruth = get_user_model().objects.get(username="rvallejo")
    assert ruth in accounts.directors() and not ruth.is_staff
    client.post(
        url,
        {
            "first_name": "Ana",
            "last_name": "Paz",
            "username": "apaz",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "organiser",
        },
    )
    ana = get_user_model().objects.get(username="apaz")
    assert ana.is_staff and ana.has_perm("tournament.run_championship")
    bad = client.post(
        url,
        {
            "first_name": "X\x00",
            "last_name": "Y",
            "username": "xy",
            "password1": "tres-cuarenta",
            "password2": "tres-cuarenta",
            "role": "rey",
        },
    )
    assert bad.status_code == 200 and not get_user_model().objects.filter(username="xy").exists()
