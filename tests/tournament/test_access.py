"""Who oversees a championship: one answer (``tournament.policy``'s ``read_records``, made of ``tournament.access``'s
facts) for every screen that asks (Art. 18)."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tests.support.factories import championship, jueces, organiser
from tournament.access import directed, is_director, overseen
from tournament.policy import READ_RECORDS, may

pytestmark = pytest.mark.django_db


def oversees(user, championship):
    return may(user, READ_RECORDS, championship)


@pytest.fixture
def two():
    director = User.objects.create_user("director", password="cuarenta")
    return director, championship(name="Copa Riobamba", director=director), championship(name="Copa Chimborazo")


def test_an_organiser_oversees_every_championship(two):
    _, riobamba, chimborazo = two
    staff = organiser()
    assert oversees(staff, riobamba) and oversees(staff, chimborazo)
    assert set(overseen(staff)) == {riobamba, chimborazo}
    assert not is_director(staff, riobamba)


def test_a_director_oversees_only_the_championship_they_direct(two):
    director, riobamba, chimborazo = two
    assert is_director(director, riobamba) and oversees(director, riobamba)
    assert not is_director(director, chimborazo) and not oversees(director, chimborazo)
    assert list(overseen(director)) == list(directed(director)) == [riobamba]


def test_a_disabled_director_oversees_nothing(two):
    director, riobamba, _ = two
    director.is_active = False
    director.save()
    assert not is_director(director, riobamba) and not oversees(director, riobamba)
    assert not directed(director).exists() and not overseen(director).exists()


def test_a_juez_and_a_stranger_oversee_nothing(two):
    _, riobamba, chimborazo = two
    (juez,) = jueces(1)
    for user in (juez, AnonymousUser()):
        assert not oversees(user, riobamba) and not oversees(user, chimborazo)
        assert not overseen(user).exists() and not directed(user).exists()


def test_no_director_means_nobody_directs_it(two):
    _, _, chimborazo = two
    assert chimborazo.director_id is None
    assert not is_director(AnonymousUser(), chimborazo)
