"""Sign-in throttling (django-axes): per account and per address, on the site's sign-in and the admin's,
a clear page, and an organiser's unlock on the jueces page."""

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.test import Client
from django.urls import reverse

from tests.support.factories import jueces, organiser

pytestmark = [pytest.mark.django_db, pytest.mark.throttling]

LIMIT = 10


@pytest.fixture(autouse=True)
def fast_hashes(settings):
    # Each wrong password costs a full PBKDF2 otherwise: seconds per test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert settings.AXES_ENABLED and settings.AXES_FAILURE_LIMIT == LIMIT


def user(username, **extra):
    return get_user_model().objects.create_user(username, password="sota-caballo-rey", **extra)


def sign_in(client, username, password, url="/cuenta/entrar/", address="10.0.0.5"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(client):
    return SESSION_KEY in client.session


def test_fewer_failures_than_the_limit_still_let_the_right_password_in():
    user("rosa")
    client = Client()
    for _ in range(LIMIT - 1):
        assert sign_in(client, "rosa", "wrong").status_code == 200
    assert sign_in(client, "rosa", "sota-caballo-rey").status_code == 302
    assert signed_in(client)


def test_an_account_is_locked_after_the_limit_even_for_the_right_password_and_from_another_address():
    user("rosa")
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    for n in range(LIMIT):
        sign_in(client, "rosa", "wrong", address=f"10.0.1.{n}")
    response = sign_in(client, "rosa", "sota-caballo-rey", address="10.0.2.1")
    assert response.status_code == 429
    assert not signed_in(client)
    page = response.content.decode()
    assert "Demasiados intentos fallidos" in page
    assert "tras 10 contraseñas equivocadas. Inténtelo de nuevo en 15 minutos" in page
    # Another account from a fresh address is untouched.
    user("luis")
    assert sign_in(Client(), "luis", "sota-caballo-rey", address="10.0.3.1").status_code == 302


@pytest.mark.slow
def test_an_address_is_locked_after_the_limit_for_every_account():
    user("luis")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for n in range(LIMIT):
        sign_in(client, f"guess{n}", "wrong", address="10.0.9.9")
    response = sign_in(client, "luis", "sota-caballo-rey", address="10.0.9.9")
    assert response.status_code == 429
    assert "after 10 wrong passwords. Try again in 15 minutes, or ask an organiser" in response.content.decode()
    assert not signed_in(client)
    # The same account from another address signs in.
    other = Client()
    assert sign_in(other, "luis", "sota-caballo-rey", address="10.0.9.10").status_code == 302


@pytest.mark.slow
def test_the_admin_sign_in_is_throttled_too():
    user("jefe", is_staff=True, is_superuser=True)
    client = Client()
    for _ in range(LIMIT - 1):
        assert sign_in(client, "jefe", "wrong", url="/admin/login/").status_code == 200
    assert sign_in(client, "jefe", "wrong", url="/admin/login/").status_code == 429
    response = sign_in(client, "jefe", "sota-caballo-rey", url="/admin/login/")
    assert response.status_code == 429
    assert not signed_in(client)


@pytest.mark.slow
def test_an_organiser_sees_a_locked_juez_and_unlocks_the_account():
    juez, other_juez = jueces(2)
    juez.set_password("sota-caballo-rey")
    juez.save()
    name = juez.get_username()
    for _ in range(LIMIT):
        sign_in(Client(), name, "wrong", address="10.0.4.4")
    assert sign_in(Client(), name, "sota-caballo-rey", address="10.0.4.4").status_code == 429

    desk = Client(HTTP_ACCEPT_LANGUAGE="es")
    desk.force_login(organiser())
    page = desk.get(reverse("jueces:list")).content.decode()
    assert "bloqueado: demasiadas contraseñas equivocadas" in page
    unlock = reverse("jueces:unlock", args=[juez.pk])
    assert f'action="{unlock}"' in page and "Desbloquear" in page

    # A juez cannot unlock anyone, themselves included.
    other = Client()
    other.force_login(other_juez)
    assert other.post(unlock).status_code == 403

    response = desk.post(unlock, follow=True)
    assert "puede volver a intentar entrar" in response.content.decode()
    assert "bloqueado:" not in desk.get(reverse("jueces:list")).content.decode()
    # The juez's own tablet (the address of the failures) signs in again.
    tablet = Client()
    assert sign_in(tablet, name, "sota-caballo-rey", address="10.0.4.4").status_code == 302
    assert signed_in(tablet)


@pytest.mark.slow
def test_unlocking_leaves_an_address_locked_for_trying_other_accounts():
    [juez] = jueces(1)
    juez.set_password("sota-caballo-rey")
    juez.save()
    for n in range(LIMIT):
        sign_in(Client(), f"guess{n}", "wrong", address="10.0.5.5")
    desk = Client()
    desk.force_login(organiser())
    desk.post(reverse("jueces:unlock", args=[juez.pk]))
    assert sign_in(Client(), juez.get_username(), "sota-caballo-rey", address="10.0.5.5").status_code == 429
