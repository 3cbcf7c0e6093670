"""The draw is offered seeds from the pairs' ratings (strength: mu - 3 sigma); the organiser accepts, changes or
seeds by hand; a late pair's place is offered the same way (docs/ratings.md, "Seeds by strength")."""

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from engines import bracket
from tests.support import factories
from tournament.draws import draws
from tournament.errors import ActionRefused
from tournament.models import Pair
from tournament.ratings import seeding, skill

from .conftest import edition, play_all, roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(db):
    """Eight pairs played in 2025, Pareja 01 winning every mesa; in 2026 the same eight and four newcomers."""
    first = edition(2025, roster(8))
    play_all(
        first,
        pick=lambda mesa: "A" if mesa.pair_a.name == "Pareja 01" else "B" if mesa.pair_b.name == "Pareja 01" else "A",
    )
    return edition(2026, roster(8) + roster(12, prefix="Nuevo")[8:])


def test_seed_counts_are_a_quarter_rounded_down_to_a_power_of_two():
    assert [seeding.seed_count(n) for n in (1, 2, 3, 7, 8, 16, 31, 32, 64, 100)] == [0, 2, 2, 2, 2, 4, 4, 8, 16, 16]


@pytest.mark.slow
def test_the_strongest_rated_pairs_are_offered_the_seeds_and_newcomers_none(rated):
    table = seeding.strengths(rated)
    assert [row.pair.name for row in table][:1] == ["Pareja 01"]
    offered = [(row.pair.name, row.offered) for row in table if row.offered]
    assert len(offered) == seeding.seed_count(12) == 2 and offered[0] == ("Pareja 01", 1)
    strengths = [row.strength for row in table if row.rated]
    assert strengths == sorted(strengths, reverse=True)
    newcomers = [row for row in table if row.pair.name >= "Pareja 09"]
    assert newcomers and all(not row.rated and row.offered is None and row.mesas == [0, 0] for row in newcomers)
    first = table[0]
    mu, sigma = skill.pair([(p.person.rating.mu, p.person.rating.sigma) for p in first.pair.players.all()])
    assert (first.mu, first.sigma, first.strength) == (mu, sigma, skill.strength(mu, sigma))


@pytest.mark.slow
def test_accepting_writes_the_offered_seeds_audited_and_the_draw_places_them(rated):
    Pair.objects.filter(championship=rated, name="Pareja 05").update(seed=1)  # a seed by hand, replaced
    organiser = factories.organiser()
    assert seeding.accept(rated, by=organiser) == 3
    seeds = dict(rated.pairs.exclude(seed=None).values_list("name", "seed"))
    assert seeds == {row.pair.name: row.offered for row in seeding.strengths(rated) if row.offered}
    assert AuditEntry.objects.filter(championship_id=rated.pk, actor=organiser, changes__has_key="seed").count() >= 3
    assert seeding.accept(rated, by=organiser) == 0
    draws.draw_bracket(rated, seed=7, by=organiser)
    top = rated.pairs.get(seed=1).pk
    assert rated.draw_order[0] == top
    with pytest.raises(ActionRefused, match="already drawn"):
        seeding.accept(rated, by=organiser)


@pytest.mark.slow
def test_the_page_shows_each_pairs_rating_and_how_sure_it_is_then_accepts(rated):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(factories.organiser())
    url = reverse("tournament:seeds", args=[rated.pk])
    page = client.get(url).content.decode()
    assert 'id="seeds-accept"' in page and "Pareja 01" in page and "no rated mesa" in page
    assert client.post(url).status_code == 302
    assert 'id="seeds-same"' in client.get(url).content.decode()
    assert f'href="{url}"' in client.get(reverse("tournament:detail", args=[rated.pk])).content.decode()
    assert Client().get(url).status_code == 302


@pytest.mark.slow
def test_a_late_pair_is_offered_the_seeded_place_its_strength_gives_it(rated):
    """The late pair takes the place; the pair that held it takes the next place of the order."""
    late = rated.pairs.get(name="Pareja 01")
    late.arrival = Pair.Arrival.EXPECTED
    late.save(update_fields=["arrival"])
    seeding.accept(rated, by=None)
    draws.draw_bracket(rated, seed=3, by=None)
    assert late.pk not in rated.draw_order
    rated.refresh_from_db()
    place = seeding.late_place(rated, late)
    assert place == 1
    assert seeding.late_place(rated, rated.pairs.get(name="Pareja 02")) is None  # drawn already
    unrated = Pair.objects.create(championship=rated, name="Tardíos", arrival=Pair.Arrival.EXPECTED)
    assert seeding.late_place(rated, unrated) is None
    held = rated.draw_order[0]
    correction = draws.correct_draw(rated, draws.ADD, late, place=place, by=None)
    assert correction.order[0] == late.pk and correction.order[-1] == held
    assert bracket.draw(correction.order, "double").order[0] == late.pk
    with pytest.raises(ActionRefused, match="place must be from 1"):
        draws.plan_correction(rated, draws.ADD, unrated, place=99)


@pytest.mark.slow
def test_the_correction_page_offers_the_late_pairs_place(rated):
    late = rated.pairs.get(name="Pareja 01")
    Pair.objects.filter(pk=late.pk).update(arrival=Pair.Arrival.EXPECTED)
    draws.draw_bracket(rated, seed=3, by=None)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(factories.organiser())
    url = reverse("tournament:draw_correct", args=[rated.pk])
    page = client.get(url, {"action": "add", "pair": late.pk}).content.decode()
    assert 'id="late-place"' in page and "place=1" in page
    preview = client.get(url, {"action": "add", "pair": late.pk, "place": 1}).content.decode()
    assert 'id="correction-preview"' in preview and 'name="place" value="1"' in preview
