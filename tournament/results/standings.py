"""Standings and the bracket's sections (the report's order of mesas), computed from mesas already loaded.

Terms
-----
standing
    A pair's record: mesas played (decided), won, lost, chicas won and
    lost. Each round-robin group has its own table, ranked by the bracket
    engine (wins, chica difference, point difference, head-to-head); the
    elimination mesas have one table: the pairs still in by wins, then the
    pairs that are out, the later they went out the higher.
out
    Eliminated, as the bracket engine says (``tournament.draws.advancement``):
    one defeat in single elimination, two in double (Art. 12: a first
    defeat does not eliminate).

Nothing here queries the database: the views load the mesas once, so the
pages make the same number of queries whatever the championship's size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from tournament.draws import advancement
from tournament.draws.draws import group_standings
from tournament.seating.seating import BRACKET_ORDER

if TYPE_CHECKING:
    from tournament.models import Championship, Mesa, Pair


class RoundOf(TypedDict):
    round: int
    mesas: list[Mesa]


class Section(TypedDict):
    """A bracket (or a group) of the bracket's page, round by round."""

    bracket: str
    label: str
    group: int | None
    rounds: list[RoundOf]


class Row(TypedDict):
    """A pair's line of a standings table; ``reached``: how far an eliminated pair got (bracket, round)."""

    pair: Pair
    played: int
    won: int
    lost: int
    chicas_won: int
    chicas_lost: int
    difference: int
    out: bool
    reached: NotRequired[tuple[int, int]]


class Table(TypedDict):
    """A standings table: a round-robin group's, or the elimination's (``group`` None)."""

    group: int | None
    rows: list[Row]


def bracket_sections(mesas: Iterable[Mesa]) -> list[Section]:
    """[{"bracket", "label", "rounds": [{"round", "mesas"}]}] in bracket order."""
    grouped: defaultdict[tuple[int, int, str], defaultdict[int, list[Mesa]]] = defaultdict(lambda: defaultdict(list))
    for mesa in mesas:
        key = mesa.bracket if mesa.group is None else f"{mesa.bracket}{mesa.group}"
        grouped[(BRACKET_ORDER.index(mesa.bracket), mesa.group or 0, key)][mesa.round].append(mesa)
    sections: list[Section] = []
    for (_, _group, _key), rounds in sorted(grouped.items()):
        first = next(iter(rounds.values()))[0]
        sections.append(
            {
                "bracket": first.bracket,
                "label": first.get_bracket_display(),
                "group": first.group,
                "rounds": [
                    {"round": r, "mesas": sorted(ms, key=lambda m: m.position)} for r, ms in sorted(rounds.items())
                ],
            }
        )
    return sections


def table(championship: Championship, pairs: Sequence[Pair], mesas: Sequence[Mesa]) -> list[Table]:
    """[{"group", "rows": [row...]}]: one table per round-robin group (ranked
    by the bracket engine), then one for the elimination mesas."""
    by_pk: dict[Hashable, Pair] = {p.pk: p for p in pairs}
    tables: list[Table] = [
        {
            "group": group,
            "rows": [
                {
                    "pair": by_pk[s.entrant],
                    "played": s.played,
                    "won": s.won,
                    "lost": s.lost,
                    "chicas_won": s.chicas_won,
                    "chicas_lost": s.chicas_lost,
                    "difference": s.chicas_difference,
                    "out": False,
                }
                for s in rows
            ],
        }
        for group, rows in group_standings(mesas).items()
    ]
    knockout = [m for m in mesas if m.group is None]
    if knockout or not tables:
        out = advancement.progress(mesas).eliminated
        tables.append({"group": None, "rows": _elimination_rows(pairs, knockout, out)})
    return tables


def _elimination_rows(pairs: Iterable[Pair], mesas: Sequence[Mesa], out: Collection[Hashable]) -> list[Row]:
    entrants = {p for m in mesas for p in (m.pair_a_id, m.pair_b_id) if p} if mesas else {p.pk for p in pairs}
    rows: dict[int | None, Row] = {
        p.pk: {
            "pair": p,
            "played": 0,
            "won": 0,
            "lost": 0,
            "chicas_won": 0,
            "chicas_lost": 0,
            "reached": (0, 0),
            "difference": 0,  # written below, once the chicas are counted
            "out": False,
        }
        for p in pairs
        if p.pk in entrants
    }
    for mesa in mesas:
        if mesa.winner_id is None:
            continue
        for side, other in (("a", "b"), ("b", "a")):
            row = rows.get(getattr(mesa, f"pair_{side}_id"))
            if row is None:
                continue
            row["played"] += 1
            if mesa.winner_id == row["pair"].pk:
                row["won"] += 1
            else:
                row["lost"] += 1
                row["reached"] = max(row["reached"], (BRACKET_ORDER.index(mesa.bracket), mesa.round))
            row["chicas_won"] += getattr(mesa, f"chicas_{side}")
            row["chicas_lost"] += getattr(mesa, f"chicas_{other}")
    for row in rows.values():
        row["out"] = row["pair"].pk in out
        row["difference"] = row["chicas_won"] - row["chicas_lost"]
    # Pairs still in first; of the pairs out, the later the mesa that put
    # them out, the higher (the grand final's loser is second).
    return sorted(
        rows.values(),
        key=lambda r: (
            r["out"],
            tuple(-x for x in r.get("reached", ())) if r["out"] else (),
            -r["won"],
            -r["difference"],
            -r["chicas_won"],
            r["pair"].name,
        ),
    )
