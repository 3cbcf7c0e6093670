"""Pairs in and out of CSV files, checked row by row before anything is saved.

The file
--------
One pair a row, with a header row naming the columns (Spanish, any case,
accents optional; ``,`` or ``;`` as separator, as Excel writes it here):

``pareja`` (required), ``jugador_1`` (required), ``cedula_1``, ``telefono_1``,
``jugador_2`` (required for pairs, empty in 1 vs 1), ``cedula_2``,
``telefono_2``, ``representante`` (1, 2 or a player's name; default 1), ``club``,
``cabeza_de_serie`` (a whole number from 1 to :data:`MAX_PAIRS`, unique).

Bounds, stated in the form: at most :data:`MAX_PAIRS` pairs in a file and in
the championship once imported (nine rounds of single elimination; a
championship of Cuarenta has a few hundred pairs at most, and the largest
file allowed is checked and saved in well under a second, so the
confirmation stays in the request), a header of at most the
known columns, :data:`MAX_CSV_BYTES` in all. Each is checked before the rows
are, and the work is linear in the file's size: a file of the largest size
is refused in one pass, never row by row.

Encoding, separators and the two styles of export (``excel``, ``plain``) are
every import's (``tournament.csv_files``): the export has the same columns,
the import reads both styles back, and a cell a spreadsheet would run as a
formula is written guarded and read back as it was.

Every cell is clean text of its kind (``engines.text``: a name
at most 120 characters, no control characters) and fits its column.
A pair name that reads as another's (``lookalikes.key``: case, accents,
spaces, invisible and look-alike letters) is repeated, as the database's
constraint on ``Pair.name_key`` decides.

Every bad row is reported with its line number and reason; the valid rows
are kept: the confirmation imports them and lists the bad ones, to be fixed
and imported again (the preview is the first step and saves nothing; the
confirmation re-reads and re-checks the same text under the championship's
row lock, so that two confirmations at once give one import and, for the
other, the rows it would repeat). What a pair may not share with another
(its name as people read it, its seed, its players' cédulas) is the one
rule of ``registration``, which the pair form asks too.

``representante`` is 1, 2 or one of the players' names as typed (case,
accents and spaces aside); empty is player 1. The template to fill in is the
header row in either style (:func:`template`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from audit.context import acting, record
from engines.lookalikes import key as name_key
from engines.text import TextError, check_text, printable
from tournament import csv_files
from tournament.csv_files import Preview
from tournament.language import speak
from tournament.locking import locked
from tournament.models import Championship, Pair, Player
from tournament.ratings import identity

from .registration import Register

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Iterator, Sequence

    from django.contrib.auth.models import User


COLUMNS = (
    "pareja",
    "jugador_1",
    "cedula_1",
    "telefono_1",
    "jugador_2",
    "cedula_2",
    "telefono_2",
    "representante",
    "club",
    "cabeza_de_serie",
)
REQUIRED = ("pareja", "jugador_1", "jugador_2")
# A file of a thousand pairs is about 150 kB; of MAX_PAIRS with every cell full, under 450 kB.
MAX_CSV_BYTES = 1024 * 1024
MAX_PAIRS = 512
LIMITS = {
    "pareja": Pair._meta.get_field("name").max_length,
    "club": Pair._meta.get_field("club").max_length,
    "jugador_1": Player._meta.get_field("full_name").max_length,
    "jugador_2": Player._meta.get_field("full_name").max_length,
    "cedula_1": Player._meta.get_field("id_number").max_length,
    "cedula_2": Player._meta.get_field("id_number").max_length,
    "telefono_1": Player._meta.get_field("phone").max_length,
    "telefono_2": Player._meta.get_field("phone").max_length,
}


# The kind of text each column holds (``engines.text``).
TEXT_KINDS = {column: "line" if column.startswith(("cedula", "telefono")) else "name" for column in LIMITS}


@dataclass
class PairRow:
    line: int
    values: dict[str, str]
    seed: int | None = None
    representative: int = 1
    name_key: str = ""


def read(championship: Championship, data: bytes) -> Preview[PairRow]:
    """Check a CSV file of pairs for ``championship``; see the module docstring."""
    text, notice = csv_files.decode(data)
    return check(championship, text, notice)


def check(championship: Championship, text: str, notice: str = "") -> Preview[PairRow]:
    preview: Preview[PairRow] = Preview(text=text, notice=notice)
    registered = championship.pairs.count()

    def too_many(rows: int) -> str:
        return _(
            "The file has %(n)d rows and the championship %(registered)d pairs; a championship has at most %(max)d pairs."
        ) % {"n": rows, "registered": registered, "max": MAX_PAIRS}

    found = csv_files.records(preview, COLUMNS, REQUIRED, MAX_PAIRS - registered, too_many)
    if found is None:
        return preview
    register = Register(championship)
    for line, values in found:
        row = PairRow(line=line, values=values)
        reasons = _row_reasons(championship, row)
        if values["pareja"]:
            ids = (values["cedula_1"], values["cedula_2"])
            refusals = register.refusals(values["pareja"], row.seed, ids, key=row.name_key)
            reasons += [reason for _field, reason in refusals]
            register.take(line, row.name_key, row.seed, ids)
        if reasons:
            preview.errors.append((line, "; ".join(reasons)))
        else:
            preview.rows.append(row)
    if not found and not preview.errors:
        preview.errors.append((1, _("The file has no pairs.")))
    return preview


def _row_reasons(championship: Championship, row: PairRow) -> list[str]:
    """What is wrong with the row's cells themselves; what it shares with other pairs is the register's."""
    values, reasons = row.values, []
    for column, limit in LIMITS.items():
        try:
            values[column] = check_text(
                values[column], TEXT_KINDS[column], field=column, required=False, max_length=limit
            )
        except TextError as error:
            reasons.append(speak(error))
    # After the check, which makes a cell of filler characters empty.
    required = ["pareja", "jugador_1"] + (["jugador_2"] if championship.players_per_pair == 2 else [])
    for column in required:
        if not values[column]:
            reasons.append(_("%(column)s is empty") % {"column": column})
    if championship.players_per_pair == 1 and values["jugador_2"]:
        reasons.append(_("jugador_2 must be empty in a 1 vs 1 championship"))
    row.name_key = name_key(values["pareja"])
    if values["cabeza_de_serie"]:
        seed = values["cabeza_de_serie"]
        # Digits only, and few of them: int() would take "+1", " 1", "١" or a thousand digits.
        row.seed = int(seed) if seed.isascii() and seed.isdigit() and len(seed) <= 4 else None
        if row.seed is None or not 1 <= row.seed <= MAX_PAIRS:
            reasons.append(
                _('cabeza_de_serie must be a whole number from 1 to %(max)d, not "%(value)s"')
                % {"max": MAX_PAIRS, "value": printable(seed, csv_files.QUOTED)}
            )
            row.seed = None
    representative = _representative(championship, values)
    if representative is None:
        reasons.append(
            _('representante must be 1, 2 or the name of one of the players, not "%(value)s"')
            % {"value": printable(values["representante"], csv_files.QUOTED)}
        )
    else:
        row.representative = representative
    return reasons


def _representative(championship: Championship, values: dict[str, str]) -> int | None:
    """The representative's number as people type it: empty (player 1), 1, 2 or a player's name
    (compared by its key: case, accents and spaces aside); None when it names neither player, or both."""
    typed = values["representante"].strip()
    numbers = range(1, championship.players_per_pair + 1)
    if not typed:
        return 1
    if typed in {str(n) for n in numbers}:
        return int(typed)
    named = [n for n in numbers if values[f"jugador_{n}"] and name_key(values[f"jugador_{n}"]) == name_key(typed)]
    return named[0] if len(named) == 1 else None


def identities(championship: Championship, preview: Preview[PairRow]) -> list[tuple[int, int, str, identity.Match]]:
    """[(line, player number, name, ``identity.Match``)] of the preview's players: who each is already
    (``tournament.ratings.identity``), for the desk to see, and to confirm where uncertain, before importing."""
    players = [
        (row.line, n, row.values[f"jugador_{n}"], row.values[f"cedula_{n}"], row.values["club"])
        for row in preview.rows
        for n in range(1, championship.players_per_pair + 1)
    ]
    matches = identity.identify(
        championship, [identity.Entry(name, number, club) for _l, _n, name, number, club in players]
    )
    return [(line, n, name, match) for (line, n, name, _id, _club), match in zip(players, matches)]


def save(
    championship: Championship,
    text: str,
    *,
    by: User,
    address: str | None = None,
    same: Iterable[tuple[Hashable, int]] = (),
) -> tuple[Preview[PairRow], int]:
    """Import the valid pairs of ``text`` (a previewed file): ``(preview, count)``; the lines with
    errors are left out, listed in the preview, to be fixed and imported again.

    The file is checked again under the championship's row lock, against the
    pairs registered by then (the pair form's ``registration.save_pair`` takes the same lock): of two
    confirmations at once, one imports and
    the other gets the rows it would repeat as errors (count 0), never a
    failure. The pairs and players are inserted in bulk
    (a file of :data:`MAX_PAIRS` takes well under a second), so the audit
    trail gets one entry for the import, naming its pairs, as for the other
    bulk acts; ``by`` (from ``address``) is named in it. Each player is linked
    to its person (``tournament.ratings.identity``); ``same``: the ((line,
    player number), person id) the desk confirmed in the preview.
    """
    with transaction.atomic(), acting(by, address):
        held = locked(Championship.objects.filter(pk=championship.pk)).get()
        preview = check(held, text)
        if not preview.rows:
            return preview, 0
        players = _create(held, preview.rows)
        identity.link(held, players, confirmed=same)
    return preview, len(preview.rows)


def _create(championship: Championship, rows: Sequence[PairRow]) -> list[tuple[Player, Hashable]]:
    pairs = Pair.objects.bulk_create(
        Pair(
            championship=championship,
            name=row.values["pareja"],
            name_key=row.name_key,
            club=row.values["club"],
            seed=row.seed,
        )
        for row in rows
    )
    players = Player.objects.bulk_create(
        Player(
            pair=pair,
            number=number,
            full_name=row.values[f"jugador_{number}"],
            id_number=row.values[f"cedula_{number}"],
            phone=row.values[f"telefono_{number}"],
            is_representative=row.representative == number,
        )
        for pair, row in zip(pairs, rows)
        for number in range(1, championship.players_per_pair + 1)
    )
    # A bulk insert sends no signal: the trail gets one entry naming the pairs.
    record(championship, "pairs_imported", {"pairs": ["", ", ".join(pair.name for pair in pairs)]})
    return [(player, (row.line, player.number)) for player, row in zip(players, _each_player(championship, rows))]


def _each_player(championship: Championship, rows: Iterable[PairRow]) -> Iterator[PairRow]:
    for row in rows:
        yield from [row] * championship.players_per_pair


def template(style: str = "excel") -> bytes:
    """The file to fill in: the header row alone, in ``style``."""
    return csv_files.write(style, COLUMNS, [])


def export(championship: Championship, style: str = "excel") -> bytes:
    """Every pair of the championship as a CSV of ``style`` (:data:`STYLES`) the import reads back."""
    return csv_files.write(style, COLUMNS, _rows(championship))


def _rows(championship: Championship) -> Iterator[list[object]]:
    for pair in championship.pairs.prefetch_related("players").order_by("seed", "name"):
        players = {p.number: p for p in pair.players.all()}
        row: list[object] = [pair.name]
        for number in (1, 2):
            p = players.get(number)
            row += [p.full_name, p.id_number, p.phone] if p else ["", "", ""]
        rep = pair.representative
        row += [rep.number if rep else "", pair.club, pair.seed or ""]
        yield row
