"""Seating's acts (``seating``): free tables and jueces given once, never one busy in another championship,
a table held by another mesa refused."""

import pytest

from tests.support.factories import championship, jueces, pairs
from tournament import errors
from tournament.draws import draws
from tournament.seating import seating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_assign_tables_gives_free_tables_and_jueces_once():
    champ = championship(tables=5)
    pairs(champ, 16)
    judges = jueces(3)
    draws.draw_bracket(champ, seed=3, by=None)
    assigned = seating.assign_tables(champ, by=None)
    assert [a.table for a in assigned] == [1, 2, 3, 4, 5]
    assert [a.juez for a in assigned] == [*judges, None, None]
    on_tables = champ.mesas.exclude(table_number=None)
    assert sorted(m.table_number for m in on_tables) == [1, 2, 3, 4, 5]
    assert sorted(m.juez_id for m in on_tables if m.juez_id) == sorted(j.pk for j in judges)
    assert seating.assign_tables(champ, by=None) == []


def test_a_juez_or_table_busy_in_another_championship_is_not_free():
    first = championship(name="Campeonato de Riobamba", tables=4)
    # At the same sede on the same days: the two share its tables (tests/tournament/seating/test_sedes.py: other sedes do not).
    second = championship(name="Copa de Quito", sede=first.sede)
    pairs(first, 4)
    pairs(second, 4)
    judges = jueces(3)
    draws.draw_bracket(first, seed=1, by=None)
    draws.draw_bracket(second, seed=1, by=None)
    taken = seating.assign_tables(first, by=None)
    assert [(a.table, a.juez) for a in taken] == [(1, judges[0]), (2, judges[1])]
    given = seating.assign_tables(second, by=None)
    # The sede's tables 1 and 2 and the first two jueces are busy with the first championship.
    assert [(a.table, a.juez) for a in given] == [(3, judges[2]), (4, None)]
    busy = seating.commitments()
    assert busy[judges[0].pk].championship == first and busy[judges[2].pk].championship == second
    mesa = given[1].mesa
    with pytest.raises(errors.ActionRefused) as refusal:
        seating.assign_table(mesa, 4, judges[0], by=None)
    assert (
        refusal.value.message == f"{judges[0].get_full_name() or judges[0].username} is the juez of "
        f"Winners' bracket R1-1 (table 1) in Campeonato de Riobamba."
    )
    with pytest.raises(errors.ActionRefused, match="Table 1 is held by .* in Campeonato de Riobamba"):
        seating.assign_table(mesa, 1, None, by=None)


def test_manual_table_refuses_a_table_held_by_another_mesa():
    champ = championship(tables=4)
    pairs(champ, 16)
    draws.draw_bracket(champ, seed=3, by=None)
    first, second = champ.mesas.filter(bracket="W", round=1).order_by("position")[:2]
    seating.assign_table(first, 2, None, by=None)
    with pytest.raises(errors.ActionRefused, match="Table 2 is held"):
        seating.assign_table(second, 2, None, by=None)
    second.refresh_from_db()
    assert second.table_number is None
