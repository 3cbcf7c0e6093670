"""A past championship brought in from a CSV of its results, so that a federation starts with its history.

The file
--------
One mesa a row, in the order the mesas ended, with a header row naming
the columns (any case, accents optional; ``,`` or ``;``):

``pareja_a``, ``pareja_b`` (required: the two pairs' names),
``ganadora`` (required: ``A``, ``B`` or the winner's name),
``chicas_a``, ``chicas_b`` (required: the chicas each pair won),
``zapateria`` (``sí`` when the mesa ended by zapatería, Art. 3g.6),
``ronda`` (the round, 1 to 99; 1 when empty), and each pair's club and
players: ``club_a``, ``jugador_a1``, ``cedula_a1``, ``jugador_a2``,
``cedula_a2`` and the same with ``b`` (``jugador_a2`` and ``jugador_b2``
empty in 1 vs 1).

A pair's club and players are given on its first row; a later row may
leave them empty, and if it gives them they must be the same. The winner
has the chicas a mesa takes (two), or one against none by zapatería.
Walkovers are left out: they rate no one.

Bounds, as the pairs' import's: :data:`MAX_BYTES` a file,
:data:`MAX_MESAS` rows, :data:`pairs_csv.MAX_PAIRS` pairs, every cell clean
text of its kind and within its column's length. The whole file is checked
first and a single bad line refuses it (a championship's record is kept
whole or not at all); the preview names every bad line, and shows who each
player is (``identity``: known, new, or uncertain for the desk to confirm).

Saved, it is a championship like any other, whose mesas are finished with
their results (bracket W, by round), ended in the file's order on its first
day, and rated: the ratings are rebuilt from its first mesa on.
"""

import datetime
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting, record
from engines.lookalikes import key
from engines.text import TextError, check_text, printable
from tournament import csv_files
from tournament.csv_files import ImportRefused
from tournament.errors import ActionRefused
from tournament.language import speak
from tournament.models import Mesa, Pair, Player

from . import identity, ratings

SIDES = ("a", "b")
COLUMNS = (
    "ronda",
    "pareja_a",
    "pareja_b",
    "ganadora",
    "chicas_a",
    "chicas_b",
    "zapateria",
    *(f"{column}_{side}" for side in SIDES for column in ("club",)),
    *(f"{kind}_{side}{n}" for side in SIDES for n in (1, 2) for kind in ("jugador", "cedula")),
)
REQUIRED = ("pareja_a", "pareja_b", "ganadora", "chicas_a", "chicas_b")
MAX_BYTES = 1024 * 1024
MAX_MESAS = 2048
MAX_PAIRS = 512
MAX_ROUND = 99
QUOTED = 40
YES = {"si", "sí", "x", "1", "yes"}
NO = {"", "no", "0"}


def _limit(column):
    if column.startswith("cedula"):
        return "line", Player._meta.get_field("id_number").max_length
    if column.startswith("jugador"):
        return "name", Player._meta.get_field("full_name").max_length
    if column.startswith("club"):
        return "name", Pair._meta.get_field("club").max_length
    return "name", Pair._meta.get_field("name").max_length


TEXTS = {c: _limit(c) for c in COLUMNS if c.startswith(("pareja", "club", "jugador", "cedula"))}


@dataclass
class PastPair:
    line: int  # its first row
    name: str
    club: str
    players: list  # [(name, cédula)]


@dataclass
class PastMesa:
    line: int
    round: int
    a: str  # the pairs' name keys
    b: str
    winner: str  # "A" or "B"
    chicas_a: int
    chicas_b: int
    zapateria: bool


@dataclass
class Preview:
    text: str = ""
    notice: str = ""
    pairs: dict = field(default_factory=dict)  # name key -> PastPair
    mesas: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # (line, reason)

    @property
    def ok(self):
        return bool(self.mesas) and not self.errors


def read(data, players_per_pair):
    """Check the file's bytes (see the module docstring): UTF-8, else Windows-1252, as the pairs' import."""
    if len(data) > MAX_BYTES:
        raise ImportRefused(_("The file is too large: at most %(n)d kB.") % {"n": MAX_BYTES // 1024})
    text, notice = csv_files.decode(data)
    return check(text, players_per_pair, notice)


def check(text, players_per_pair, notice=""):
    preview = Preview(text=text, notice=notice)

    def too_many(rows):
        return _("The file has %(n)d rows; a championship's record has at most %(max)d mesas.") % {
            "n": rows,
            "max": MAX_MESAS,
        }

    found = csv_files.records(preview, COLUMNS, REQUIRED, MAX_MESAS, too_many)
    if found is None:
        return preview
    for line, values in found:
        reasons = _row(preview, line, values, players_per_pair)
        if reasons:
            preview.errors.append((line, "; ".join(reasons)))
    if len(preview.pairs) > MAX_PAIRS:
        preview.errors.append(
            (
                1,
                _("The file names %(n)d pairs; a championship has at most %(max)d.")
                % {"n": len(preview.pairs), "max": MAX_PAIRS},
            )
        )
    if not found and not preview.errors:
        preview.errors.append((1, _("The file has no mesas.")))
    return preview


def _row(preview, line, values, players_per_pair):
    """The reasons ``values`` (one row) is wrong; a right row adds its mesa and any new pair to ``preview``."""
    reasons = []
    for column, (kind, limit) in TEXTS.items():
        try:
            values[column] = check_text(values[column], kind, field=column, required=False, max_length=limit)
        except TextError as error:
            reasons.append(speak(error))
    keys = {}
    for side in SIDES:
        name = values[f"pareja_{side}"]
        if not name:
            reasons.append(_("%(column)s is empty") % {"column": f"pareja_{side}"})
            continue
        keys[side] = key(name)
        reasons += _pair(preview, line, side, values, keys[side], players_per_pair)
    if len(keys) == 2 and keys["a"] == keys["b"]:
        reasons.append(_("a pair cannot play itself"))
    chicas = {}
    for side in SIDES:
        typed = values[f"chicas_{side}"]
        chicas[side] = int(typed) if typed.isascii() and typed.isdigit() and len(typed) <= 1 else None
        if chicas[side] is None:
            reasons.append(
                _('%(column)s must be a whole number of chicas, not "%(value)s"')
                % {"column": f"chicas_{side}", "value": printable(typed, QUOTED)}
            )
    winner = _winner(values, keys)
    if winner is None:
        reasons.append(
            _('ganadora must be A, B or the name of one of the two pairs, not "%(value)s"')
            % {"value": printable(values["ganadora"], QUOTED)}
        )
    zapateria = values["zapateria"].lower()
    if zapateria not in YES | NO:
        reasons.append(
            _('zapateria must be "sí" or empty, not "%(value)s"') % {"value": printable(values["zapateria"], QUOTED)}
        )
    round_ = values["ronda"] or "1"
    if not (round_.isascii() and round_.isdigit() and len(round_) <= 2 and int(round_) >= 1):
        reasons.append(
            _('ronda must be a whole number from 1 to %(max)d, not "%(value)s"')
            % {"max": MAX_ROUND, "value": printable(round_, QUOTED)}
        )
    if reasons:
        return reasons
    won, lost = (chicas["a"], chicas["b"]) if winner == "A" else (chicas["b"], chicas["a"])
    by_zapateria = zapateria in YES
    if (won, lost) != (1, 0) if by_zapateria else (won != 2 or lost > 1):
        return [
            _("the winner takes one chica to none by zapatería (Art. 3g.6, 12)")
            if by_zapateria
            else _("the winner takes two chicas, the loser none or one (Art. 3g.7)")
        ]
    preview.mesas.append(
        PastMesa(line, int(round_), keys["a"], keys["b"], winner, chicas["a"], chicas["b"], by_zapateria)
    )
    return []


def _winner(values, keys):
    typed = values["ganadora"].strip()
    if typed.upper() in ("A", "B"):
        return typed.upper()
    named = [side.upper() for side in SIDES if side in keys and key(typed) == keys[side]]
    return named[0] if len(named) == 1 else None


def _pair(preview, line, side, values, name_key, players_per_pair):
    """The reasons a row's pair on ``side`` disagrees with itself or with its first row; a new pair is kept."""
    players = [(values[f"jugador_{side}{n}"], values[f"cedula_{side}{n}"]) for n in (1, 2)]
    club = values[f"club_{side}"]
    known = preview.pairs.get(name_key)
    given = any(name for name, _number in players) or club
    if known is not None:
        same = [key(name) for name, _number in players[:players_per_pair]] == [key(n) for n, _c in known.players]
        if given and (not same or key(club) != key(known.club)):
            return [
                _("the players or club of %(pair)s differ from line %(line)d")
                % {"pair": values[f"pareja_{side}"], "line": known.line}
            ]
        return []
    reasons = []
    for n in range(1, players_per_pair + 1):
        if not players[n - 1][0]:
            reasons.append(
                _("jugador_%(side)s%(n)d is empty (a pair's first row names its players)") % {"side": side, "n": n}
            )
    if players_per_pair == 1 and players[1][0]:
        reasons.append(_("jugador_%(side)s2 must be empty in a 1 vs 1 championship") % {"side": side})
    numbers = [number for _name, number in players[:players_per_pair] if number]
    taken = {n for p in preview.pairs.values() for _name, n in p.players if n}
    if len(set(numbers)) < len(numbers) or set(numbers) & taken:
        reasons.append(_("an ID number of %(pair)s is another player's") % {"pair": values[f"pareja_{side}"]})
    if not reasons:
        preview.pairs[name_key] = PastPair(line, values[f"pareja_{side}"], club, players[:players_per_pair])
    return reasons


def identities(championship, preview):
    """[(line, player number, name, ``identity.Match``)] of the pairs' players, as the pairs' import gives them:
    the line is the pair's first row (a box ticked in the preview names it)."""
    players = [
        (pair.line, n, name, number, pair.club)
        for pair in preview.pairs.values()
        for n, (name, number) in enumerate(pair.players, start=1)
    ]
    matches = identity.identify(
        championship, [identity.Entry(name, number, club) for _l, _n, name, number, club in players]
    )
    return [(line, n, name, match) for (line, n, name, _id, _club), match in zip(players, matches)]


def save(championship, text, *, by, address=None, same=()):
    """Save ``championship`` (unsaved, its fields from the form) with the record in ``text`` (a previewed file,
    checked again: any bad line refuses it whole, with nothing saved). ``same``: the identities the desk
    confirmed (``identity.confirmed``). Returns the preview; audited as one act."""
    preview = check(text, championship.players_per_pair)
    if not preview.ok:
        raise ActionRefused(_("The file has errors: fix them and preview it again."))
    with transaction.atomic(), acting(by, address):
        championship.save()
        pairs = {
            k: Pair(championship=championship, name=p.name, name_key=k, club=p.club, arrival=Pair.Arrival.PRESENT)
            for k, p in preview.pairs.items()
        }
        Pair.objects.bulk_create(pairs.values())
        players = Player.objects.bulk_create(
            Player(pair=pairs[k], number=n, full_name=name, id_number=number, is_representative=n == 1)
            for k, p in preview.pairs.items()
            for n, (name, number) in enumerate(p.players, start=1)
        )
        identity.link(
            championship,
            [(player, (preview.pairs[player.pair.name_key].line, player.number)) for player in players],
            confirmed=same,
            rate=False,
        )
        first = _ended(championship)
        positions = Counter()
        mesas = []
        for index, past in enumerate(preview.mesas):
            positions[past.round] += 1
            a, b = pairs[past.a], pairs[past.b]
            mesas.append(
                Mesa(
                    championship=championship,
                    bracket=Mesa.Bracket.WINNERS,
                    round=past.round,
                    position=positions[past.round],
                    pair_a=a,
                    pair_b=b,
                    status=Mesa.Status.FINISHED,
                    winner=a if past.winner == "A" else b,
                    chicas_a=past.chicas_a,
                    chicas_b=past.chicas_b,
                    zapateria=past.zapateria,
                    finished_at=first + datetime.timedelta(minutes=index),
                )
            )
        Mesa.objects.bulk_create(mesas)
        record(
            championship,
            "history_imported",
            {"pairs": ["", str(len(pairs))], "mesas": ["", str(len(mesas))]},
        )
        ratings.rebuild(since=(first, min(m.pk for m in mesas)))
    return preview


def _ended(championship):
    """When the record's first mesa ended: noon of the championship's first day, in the site's time zone."""
    noon = datetime.datetime.combine(championship.start_date, datetime.time(12))
    return timezone.make_aware(noon)
