"""Pairs checked in, or not, before arrival had three states (issue #35): checked in is present; not checked in
is withdrawn for a pair a drawn bracket left out (the desk confirmed at the draw that it had not come, or a
correction withdrew it), expected for any other (the bracket is not drawn yet, or it holds the pair); and back."""

import datetime

import pytest

from tests.support.migrations import latest, migrate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BEFORE = [("tournament", "0020_persons_and_ratings")]
AFTER = [("tournament", "0021_pair_arrival")]


def test_checked_in_becomes_present_and_not_checked_in_expected_or_withdrawn():
    old = migrate(BEFORE)
    Sede = old.get_model("tournament", "Sede")
    Championship = old.get_model("tournament", "Championship")
    Pair = old.get_model("tournament", "Pair")
    Mesa = old.get_model("tournament", "Mesa")
    day = datetime.date(2026, 11, 21)
    sede = Sede.objects.create(name="Coliseo")
    drawn = Championship.objects.create(name="Sorteado", start_date=day, end_date=day, sede=sede)
    waiting = Championship.objects.create(name="Por sortear", start_date=day, end_date=day, sede=sede)
    made = {}
    for champ, name, checked_in in (
        (drawn, "en el cuadro", True),
        (drawn, "rival", True),
        (drawn, "en el cuadro sin llegar", False),
        (drawn, "fuera del cuadro", False),
        (drawn, "presente fuera del cuadro", True),
        (waiting, "por llegar", False),
        (waiting, "llegó", True),
    ):
        made[name] = Pair.objects.create(
            championship=champ, name=name, name_key=name, token=name, checked_in=checked_in
        )
    Mesa.objects.create(championship=drawn, round=1, position=1, pair_a=made["en el cuadro"], pair_b=made["rival"])
    Mesa.objects.create(championship=drawn, round=1, position=2, pair_a=made["en el cuadro sin llegar"])
    try:
        new = migrate(AFTER)
        arrival = dict(new.get_model("tournament", "Pair").objects.values_list("name", "arrival"))
        assert arrival == {
            "en el cuadro": "present",
            "rival": "present",
            "en el cuadro sin llegar": "expected",
            "fuera del cuadro": "withdrawn",
            "presente fuera del cuadro": "present",
            "por llegar": "expected",
            "llegó": "present",
        }
        back = migrate(BEFORE)
        checked = dict(back.get_model("tournament", "Pair").objects.values_list("name", "checked_in"))
        assert {name for name, yes in checked.items() if yes} == {
            "en el cuadro",
            "rival",
            "presente fuera del cuadro",
            "llegó",
        }
    finally:
        migrate(latest())
