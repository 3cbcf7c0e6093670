"""A pair's page on the public mirror (#27.3): reached by a link the venue signs, never by the private token."""

import pytest
from django.test import override_settings
from django.urls import reverse

from mirror import links
from tests.support.factories import championship, organiser, pairs
from tests.support.planilla import pages_text
from tournament.models import Pair

pytestmark = pytest.mark.django_db

KEY = "k" * 40
ON_A_MIRROR = override_settings(MIRROR_URL="https://espejo.example.ec", MIRROR_LINK_KEY=KEY)


@pytest.fixture
def pair():
    return pairs(championship(name="Copa del Espejo"), 2)[0]


@ON_A_MIRROR
def test_the_signed_link_opens_the_pairs_page_and_never_carries_its_token(client, pair):
    url = links.mirror_url(pair)
    assert url.startswith("https://espejo.example.ec/pareja/enlace/") and pair.token not in url
    response = client.get(url.removeprefix("https://espejo.example.ec"))
    assert response.status_code == 200 and pair.name in response.content.decode()
    assert response["Referrer-Policy"] == "no-referrer"


@ON_A_MIRROR
def test_a_forged_cut_or_foreign_link_is_unknown(client, pair):
    value = links.signed(pair)
    for bad in (value[:-1] + ("A" if value[-1] != "A" else "B"), value[:10], "x" * 500, "1", ""):
        assert links.pair_named(bad, Pair.objects.all()) is None
    with override_settings(MIRROR_LINK_KEY="another key of another venue"):
        assert links.pair_named(value, Pair.objects.all()) is None
    assert client.get(reverse("public:pair_signed", args=["x" * 20])).status_code == 404


@ON_A_MIRROR
def test_a_new_private_link_revokes_the_mirror_link_too(client, pair):
    old = links.signed(pair)
    client.force_login(organiser())
    client.post(reverse("tournament:pair_new_link", args=[pair.championship_id, pair.pk]))
    pair.refresh_from_db()
    assert pair.link_version == 2
    assert links.pair_named(old, Pair.objects.all()) is None
    assert links.pair_named(links.signed(pair), Pair.objects.all()) == pair


def test_without_a_mirror_the_cards_print_no_mirror_link(client, pair):
    assert links.mirror_url(pair) is None
    client.force_login(organiser())
    page = client.get(reverse("tournament:pair_card", args=[pair.championship_id, pair.pk])).content.decode()
    assert "pair-mirror-link" not in page


@ON_A_MIRROR
@pytest.mark.slow
def test_the_cards_print_the_mirrors_address_beside_the_halls(client, pair):
    client.force_login(organiser())
    page = client.get(
        reverse("tournament:pair_card", args=[pair.championship_id, pair.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Desde cualquier lugar:" in page and links.mirror_url(pair) in page
    pdf = client.get(reverse("report:cards", args=[pair.championship_id]), HTTP_ACCEPT_LANGUAGE="es").content
    whole = "".join(pages_text(pdf)).replace(" ", "").replace("\n", "")
    assert "Desdecualquierlugar:" in whole and links.mirror_url(pair) in whole
