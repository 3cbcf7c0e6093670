"""The organisers' CSV files write no formula (issue 22 item 8): a cell Excel or LibreOffice would run
(``=``, ``+``, ``-``, ``@`` first) is guarded with a ``'``, and the import gives every text back as it was."""

import csv
import io

import pytest

from tests.support.factories import championship
from tournament import csv_files
from tournament.csv_files import neutralised, restored
from tournament.models import Pair, Player
from tournament.pairs import pairs_csv

pytestmark = pytest.mark.django_db

FORMULA = "=cmd|' /C calc'!A0"
TEXTS = {
    "pareja": FORMULA,
    "jugador_1": "-2+3+cmd|' /C calc'!A0",
    "telefono_1": "+593 99 123 4567",
    "jugador_2": "'=ya con comilla",
    "cedula_2": "''",
    "club": "@SUM(1+1)*cmd|' /C calc'!A0",
}
PLAIN = {"pareja": "'Los Tigres", "jugador_1": "Ana O'Brien", "jugador_2": "Luis", "club": "'"}


def register(champ, values):
    pair = Pair.objects.create(championship=champ, name=values["pareja"], club=values.get("club", ""))
    for number in (1, 2):
        Player.objects.create(
            pair=pair,
            number=number,
            full_name=values[f"jugador_{number}"],
            id_number=values.get(f"cedula_{number}", ""),
            phone=values.get(f"telefono_{number}", ""),
            is_representative=number == 1,
        )


@pytest.mark.parametrize("style", list(csv_files.STYLES))
def test_no_exported_cell_is_a_formula_and_the_round_trip_gives_every_text_back(style):
    champ = championship()
    register(champ, TEXTS)
    register(champ, PLAIN)
    exported = pairs_csv.export(champ, style)
    separator = csv_files.STYLES[style][0]
    rows = list(csv.reader(io.StringIO(exported.decode("utf-8-sig")), delimiter=separator))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'" + FORMULA in cells and "'+593 99 123 4567" in cells and "''=ya con comilla" in cells
    assert "'Los Tigres" in cells and "Ana O'Brien" in cells  # an apostrophe before anything else stays as typed

    other = championship(name="Copa de Quito")
    preview = pairs_csv.read(other, exported)
    assert preview.ok, preview.errors
    saved, count = pairs_csv.save(other, preview.text, by=None)
    assert saved.ok and count == 2, saved.errors
    for values in (TEXTS, PLAIN):
        pair = other.pairs.get(name=values["pareja"])
        assert pair.club == values.get("club", "")
        for number in (1, 2):
            player = pair.players.get(number=number)
            assert player.full_name == values[f"jugador_{number}"]
            assert player.id_number == values.get(f"cedula_{number}", "")
            assert player.phone == values.get(f"telefono_{number}", "")
    assert pairs_csv.export(other, style) == exported


@pytest.mark.parametrize(
    "text", ["", "'", "''", "'''", "=", "'=", "''=", "-1", "@", "\t=1", "'\t", "a=b", "'a", "O'Brien", "+"]
)
def test_a_guarded_cell_is_restored_whatever_it_held(text):
    assert restored(neutralised(text)) == text
    assert not neutralised(text).startswith(("=", "+", "-", "@", "\t", "\r"))
