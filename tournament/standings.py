"""Standings and the bracket's layout, computed from mesas already loaded.

Terms
-----
standing
    A pair's record: mesas played (decided), won, lost, chicas won and
    lost. Ordered by wins, then chica difference, then chicas won, then
    name. Round-robin groups each have their own table; elimination
    brackets one table for the whole championship.
out
    Eliminated: one defeat in single elimination, two in double (Art. 12:
    a first defeat does not eliminate).

Nothing here queries the database: the views load the mesas once, so the
pages make the same number of queries whatever the championship's size.
"""

from collections import defaultdict

from .models import Championship, Mesa

BRACKET_ORDER = [b for b, _ in Mesa.Bracket.choices]


def bracket_sections(mesas):
    """[{"bracket", "label", "rounds": [{"round", "mesas"}]}] in bracket order."""
    grouped = defaultdict(lambda: defaultdict(list))
    for mesa in mesas:
        key = mesa.bracket if mesa.group is None else f"{mesa.bracket}{mesa.group}"
        grouped[(BRACKET_ORDER.index(mesa.bracket), mesa.group or 0, key)][mesa.round].append(mesa)
    sections = []
    for (_, group, _key), rounds in sorted(grouped.items()):
        first = next(iter(rounds.values()))[0]
        sections.append({
            "bracket": first.bracket, "label": first.get_bracket_display(), "group": first.group,
            "rounds": [{"round": r, "mesas": sorted(ms, key=lambda m: m.position)} for r, ms in sorted(rounds.items())],
        })
    return sections


def table(championship, pairs, mesas):
    """[{"group", "rows": [row...]}]; each row a dict with the pair and its record."""
    rows = {p.pk: {"pair": p, "played": 0, "won": 0, "lost": 0, "chicas_won": 0, "chicas_lost": 0, "group": None}
            for p in pairs}
    for mesa in mesas:
        for side, other in (("a", "b"), ("b", "a")):
            row = rows.get(getattr(mesa, f"pair_{side}_id"))
            if row is None:
                continue
            if mesa.group is not None:
                row["group"] = mesa.group
            if mesa.winner_id is None:
                continue
            row["played"] += 1
            row["won" if mesa.winner_id == row["pair"].pk else "lost"] += 1
            row["chicas_won"] += getattr(mesa, f"chicas_{side}")
            row["chicas_lost"] += getattr(mesa, f"chicas_{other}")
    limit = {Championship.Format.DOUBLE: 2, Championship.Format.SINGLE: 1}.get(championship.bracket_format)
    groups = defaultdict(list)
    for row in rows.values():
        row["out"] = limit is not None and row["lost"] >= limit
        row["difference"] = row["chicas_won"] - row["chicas_lost"]
        groups[row["group"]].append(row)
    return [
        {"group": group, "rows": sorted(
            members, key=lambda r: (r["out"], -r["won"], -r["difference"], -r["chicas_won"], r["pair"].name))}
        for group, members in sorted(groups.items(), key=lambda item: (item[0] is None, item[0] or 0))
    ]
