"""Persons, their questions, the Comité's changes and the ratings come back whole from a backup."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tournament.models import Doubt, Person, PersonChange, Player
from tournament.ratings import merging, ratings

from .conftest import edition, figures, play_all, roster

pytestmark = pytest.mark.slow


@pytest.mark.django_db(transaction=True)
def test_a_round_trip_keeps_the_persons_and_their_ratings(tmp_path):
    first = edition(2025, roster(4))
    play_all(first)
    # A namesake of another club (a question for the desk), and a merge into an older person (a person whose
    # merged_into points at a row written before it).
    second = edition(2026, [(n, "Guano" if i == 0 else c, p) for i, (n, c, p) in enumerate(roster(4))])
    play_all(second)
    comite = get_user_model().objects.create_superuser("comite", password=None)
    doubt = Doubt.objects.first()
    merging.merge(doubt.player.person, doubt.candidate, by=comite)
    before = (
        figures(),
        sorted(Person.objects.values_list("pk", "full_name", "club", "merged_into", "id_number")),
        sorted(Player.objects.values_list("pk", "person")),
        sorted(Doubt.objects.values_list("pk", "player", "candidate", "same")),
        sorted(PersonChange.objects.values_list("pk", "kind", "source", "target", "players")),
    )
    path = tmp_path / "copia.json.gz"
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path))
    after = (
        figures(),
        sorted(Person.objects.values_list("pk", "full_name", "club", "merged_into", "id_number")),
        sorted(Player.objects.values_list("pk", "person")),
        sorted(Doubt.objects.values_list("pk", "player", "candidate", "same")),
        sorted(PersonChange.objects.values_list("pk", "kind", "source", "target", "players")),
    )
    assert after == before
    ratings.rebuild()
    assert figures() == before[0]
