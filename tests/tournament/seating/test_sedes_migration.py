"""Championships made before sedes existed (issue #23): the migration gives each the sede its venue named (or
"Sede"), with tables covering the number it had and every table in use, and each table keeps the PIN of the
undecided mesa seated at it, so that the cards already printed still open it."""

import datetime

import pytest

from tests.support.migrations import latest, migrate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BEFORE = [("tournament", "0017_flow_seating"), ("refereeing", "0006_constraint_messages")]
AFTER = [("tournament", "0018_sedes"), ("refereeing", "0007_sedes")]


def test_existing_championships_get_a_sede_with_their_tables_and_their_mesas_pins():
    old = migrate(BEFORE)
    Championship = old.get_model("tournament", "Championship")
    Mesa = old.get_model("tournament", "Mesa")
    day = datetime.date(2026, 11, 21)
    riobamba = Championship.objects.create(name="Uno", start_date=day, end_date=day, venue="Coliseo", tables=4)
    again = Championship.objects.create(name="Dos", start_date=day, end_date=day, venue="Coliseo", tables=2)
    nameless = Championship.objects.create(name="Tres", start_date=day, end_date=day, tables=1)
    Pair = old.get_model("tournament", "Pair")
    one, two = (Pair.objects.create(championship=riobamba, name=n, token=n, name_key=n) for n in "ab")
    Mesa.objects.create(
        championship=riobamba, round=1, position=1, table_number=2, pin="111111", status="ready", pair_a=one, pair_b=two
    )
    # A table beyond the count the championship had, in use: it is made too.
    Mesa.objects.create(championship=riobamba, round=1, position=2, table_number=6, pin="222222", status="waiting")
    Mesa.objects.create(
        championship=riobamba,
        round=1,
        position=3,
        table_number=3,
        pin="333333",
        status="walkover",
        pair_a=one,
        winner=one,
    )
    try:
        new = migrate(AFTER)
        Championship = new.get_model("tournament", "Championship")
        Table = new.get_model("tournament", "Table")
        coliseo = Championship.objects.get(pk=riobamba.pk).sede
        assert coliseo.name == "Coliseo" and Championship.objects.get(pk=again.pk).sede_id == coliseo.pk
        assert Championship.objects.get(pk=nameless.pk).sede.name == "Sede"
        tables = {t.number: t.pin for t in Table.objects.filter(sede=coliseo)}
        assert sorted(tables) == [1, 2, 3, 4, 5, 6]
        assert tables[2] == "111111" and tables[6] == "222222"
        assert tables[3] != "333333"  # a decided mesa's PIN opens nothing any more
        assert all(len(pin) == 6 and pin.isdigit() for pin in tables.values())
    finally:
        migrate(latest())
