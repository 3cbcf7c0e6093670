"""Pairs registered before the name key existed (issue 22, point 7): the
migration gives every pair its key, pairs already registered under names
people read alike keep their rows, the later one renamed visibly, so that
the unique constraint can be added; a backup made before the key restores
with every key set."""

import datetime
import json

import pytest
from django.core.management import call_command

from engines.lookalikes import key
from tests.support.migrations import latest, migrate
from tournament.models import Pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BEFORE = [("tournament", "0012_pair_token_unique")]
AFTER = [("tournament", "0013_pairs_name_key")]


def test_existing_pairs_get_their_key_and_look_alikes_are_renamed():
    old = migrate(BEFORE)
    Championship = old.get_model("tournament", "Championship")
    Pair = old.get_model("tournament", "Pair")
    day = datetime.date(2026, 11, 21)
    one = Championship.objects.create(name="Uno", start_date=day, end_date=day)
    two = Championship.objects.create(name="Dos", start_date=day, end_date=day)
    first = Pair.objects.create(championship=one, name="Los Tigres", token="a")
    alike = Pair.objects.create(championship=one, name="los tigres", token="b")
    cyrillic = Pair.objects.create(championship=one, name="Los T\u0456gres", token="c")
    elsewhere = Pair.objects.create(championship=two, name="Los Tigres", token="d")
    try:
        new = migrate(AFTER)
        Pair = new.get_model("tournament", "Pair")
        rows = {p.pk: (p.name, p.name_key) for p in Pair.objects.all()}
        assert rows[first.pk] == ("Los Tigres", key("Los Tigres"))
        assert rows[alike.pk] == (f"los tigres ({alike.pk})", key(f"los tigres ({alike.pk})"))
        assert rows[cyrillic.pk][0] == f"Los T\u0456gres ({cyrillic.pk})"
        assert rows[elsewhere.pk] == ("Los Tigres", key("Los Tigres"))
        assert len({(p.championship_id, p.name_key) for p in Pair.objects.all()}) == 4
    finally:
        migrate(latest())


def test_a_backup_made_before_the_key_restores_with_every_key_set(tmp_path):
    from tests.support.factories import championship, pairs

    champ = championship()
    pairs(champ, 3)
    path = tmp_path / "copia.json"
    call_command("backup", str(path))
    document = json.loads(path.read_text())
    for row in document["objects"]:
        if row["model"] == "tournament.pair":
            del row["fields"]["name_key"]
    path.write_text(json.dumps(document))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path))
    assert sorted(Pair.objects.values_list("name_key", flat=True)) == [key(f"Pareja {n:04d}") for n in (1, 2, 3)]
