"""The levante checker: which cards a played card may take from the table.

Terms (docs/REGLAS.md, "Levantar")
-----------------------------
match
    The played card takes one table card of its own rank (002 Art. 5A).
sum
    A number card (A–7) takes two or more table number cards whose values
    add up to its value (002 Art. 5B). Figures never take part in a sum
    (seed 003). **Ruling:** one combination per play: a card takes one match
    *or* one sum, never two sums nor a match and a sum.
escalera
    After a match or a sum the player also takes the cards that continue the
    sequence upward from the played card's rank, one card of each rank, with
    no gap (002 Art. 5C; Art. 9b): a 7 on ``3 4 J Q K`` takes 3 + 4 by sum,
    then J, Q, K (seed 003). The escalera after a sum starts above the played
    card, so it is the same whichever base is taken.
capture
    A base (a match or a sum) followed by its whole escalera. Captures are
    listed once per multiset of ranks (suits play no part), by construction:
    sums are enumerated as multisets of ranks, and a match holds the played
    rank while a sum never does.
caída (Art. 6)
    A capture whose base is a match of the card the previous player just put
    down, in the same mano. ``previous`` is that card's rank *while it is
    still on the table*: pass ``None`` at the first play of a mano and when
    the previous card took something (then it is not on the table and there
    is nothing to fall on). A ``previous`` that is not on the table is bad
    input.
limpia (Art. 9)
    A capture that leaves the table empty.
taking nothing
    A card that takes nothing stays on the table. **Ruling:** a player is
    never obliged to capture; playing a card that takes nothing is legal even
    when a capture exists (the reglamento only deals with forgotten escalera
    cards, Art. 16, and with wrongly taken cards, Art. 5).

The juez settles a "juego y veo" (Art. 5) with :func:`judge`: the cards a
player took are a legal capture, an *incomplete* one (a legal base and only
part of its escalera: the forgotten cards are set aside for nobody, Art. 16,
or the opponents may take them, 002 Art. 13, per ``ruleset.arranche``), or
illegal, with the reason in Spanish and English. **Ruling:** an incomplete
capture keeps its caída (its base is the match) but is never a limpia: the
forgotten cards were still on the table.

No setting of a rule set changes what may be captured; only what happens to
forgotten escalera cards depends on it.

This module imports nothing from Django: the engine is plain Python.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import FIRST_FIGURE, INDEX, RANKS, CardError, check_counts, parse_rank, parse_ranks

if TYPE_CHECKING:  # only named in annotations: importing levante loads no rule sets
    from .rules import RuleSet


def _sum_combinations(target: int, largest: int) -> list[tuple[int, ...]]:
    """Multisets of values ≤ ``largest`` that add up to ``target``, largest part first."""
    if target == 0:
        return [()]
    found: list[tuple[int, ...]] = []
    for part in range(min(target, largest), 0, -1):
        found.extend((part,) + rest for rest in _sum_combinations(target - part, part))
    return found


# For each number card's index, the sums it may take: (indices ascending, need per index).
_SUMS: tuple[tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...], ...] = tuple(
    tuple(
        (tuple(sorted(part - 1 for part in combo)), tuple(sorted(Counter(part - 1 for part in combo).items())))
        for combo in _sum_combinations(index + 1, index)  # parts below the card: ≥ 2 of them
    )
    for index in range(FIRST_FIGURE)
)


@lru_cache(maxsize=1 << 16)
def options(table: tuple[int, ...], played: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...], bool], ...]:
    """Every legal capture as ``(base, escalera, is_match)`` of rank indices.

    ``table`` holds the count of each rank on the table (10 entries, index
    order); ``played`` is the played card's index. The match comes first,
    then the sums, largest parts first. This is the fast path the simulator
    uses; :func:`captures` is the readable one.
    """
    top = played + 1
    while top < len(RANKS) and table[top]:
        top += 1
    escalera = tuple(range(played + 1, top))
    found: list[tuple[tuple[int, ...], tuple[int, ...], bool]] = []
    if table[played]:
        found.append(((played,), escalera, True))
    if played < FIRST_FIGURE:
        for base, need in _SUMS[played]:
            if all(table[index] >= count for index, count in need):
                found.append((base, escalera, False))
    return tuple(found)


def counts(ranks: list[str]) -> tuple[int, ...]:
    """The count of each rank, in index order."""
    tally = [0] * len(RANKS)
    for rank in ranks:
        tally[INDEX[rank]] += 1
    return tuple(tally)


@dataclass(frozen=True)
class Capture:
    base: tuple[str, ...]
    escalera: tuple[str, ...]
    match: bool
    caida: bool
    limpia: bool

    @property
    def cards(self) -> tuple[str, ...]:
        return self.base + self.escalera

    def as_dict(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "caida": self.caida, "limpia": self.limpia}


def _position(table: str | Iterable[str], played: str, previous: str | None) -> tuple[list[str], str, str | None]:
    """Parsed, checked ranks of a position; raises :class:`CardError` on bad input."""
    table = parse_ranks(table)
    played = parse_rank(played)
    check_counts(table + [played])
    if previous is not None:
        previous = parse_rank(previous)
        if previous not in table:
            raise CardError(
                f"La carta anterior {previous} no está en la mesa: solo se cae sobre la"
                f" carta que el anterior jugador dejó en la mesa (Art. 6); omítala si levantó.",
                f"The previous card {previous} is not on the table: a caída falls only on"
                f" the card the previous player left on the table (Art. 6); omit it if it took cards.",
            )
    return table, played, previous


def captures(table: str | Iterable[str], played: str, previous: str | None = None) -> list[Capture]:
    """Every legal capture of ``played`` on ``table`` (ranks as strings or one string).

    Raises :class:`CardError` for an unknown rank, more than four cards of a
    rank among the table and the played card, or a ``previous`` card that is
    not on the table.
    """
    table, played, previous = _position(table, played, previous)
    return _captures(table, played, previous)


def _captures(table: list[str], played: str, previous: str | None) -> list[Capture]:
    found = []
    for base, escalera, match in options(counts(table), INDEX[played]):
        found.append(
            Capture(
                base=tuple(RANKS[i] for i in base),
                escalera=tuple(RANKS[i] for i in escalera),
                match=match,
                caida=match and played == previous,
                limpia=len(base) + len(escalera) == len(table),
            )
        )
    return found


@dataclass(frozen=True)
class Verdict:
    """The juez's reading of one levante (Art. 5)."""

    verdict: str  # "legal" | "incomplete" | "illegal"
    code: str | None
    message: str
    message_en: str
    article: str | None
    capture: Capture | None = None  # the cards taken, read as a capture (legal or incomplete)
    left_behind: tuple[str, ...] = ()  # incomplete: the escalera cards forgotten
    arranche: str | None = None  # incomplete: "set_aside" or "opponents"

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "code": self.code,
            "message": self.message,
            "message_en": self.message_en,
            "article": self.article,
            "capture": self.capture.as_dict() if self.capture else None,
            "left_behind": list(self.left_behind),
            "arranche": self.arranche,
        }


def _illegal(code: str, message: str, message_en: str, article: str) -> Verdict:
    return Verdict("illegal", code, message, message_en, article)


def _join(ranks: Iterable[str]) -> str:
    return " ".join(ranks)


def judge(
    table: str | Iterable[str], played: str, previous: str | None, taken: str | Iterable[str], ruleset: RuleSet
) -> Verdict:
    """Whether taking ``taken`` from ``table`` with ``played`` is legal (Art. 5).

    ``taken`` lists the table cards the player took (not the played card).
    Raises :class:`CardError` for bad input, as :func:`captures` does.
    """
    table, played, previous = _position(table, played, previous)
    taken = parse_ranks(taken)
    if not taken:
        if _captures(table, played, previous):
            return Verdict(
                "legal",
                "declined",
                f"No levantó nada aunque podía; levantar no es obligatorio y el {played} queda en la mesa.",
                f"Took nothing though a capture existed; capturing is not obliged and the {played} stays on the table.",
                None,
            )
        return Verdict(
            "legal",
            "nothing_to_take",
            f"El {played} no levanta nada y queda en la mesa.",
            f"The {played} takes nothing and stays on the table.",
            None,
        )

    missing = Counter(taken) - Counter(table)
    if missing:
        cards = _join(sorted(missing.elements(), key=INDEX.__getitem__))
        return _illegal(
            "not_on_table",
            f"Levantó cartas que no están en la mesa: {cards}.",
            f"Took cards that are not on the table: {cards}.",
            "Art. 5",
        )

    p = INDEX[played]
    lower = sorted(INDEX[r] for r in taken if INDEX[r] <= p)
    upper = sorted(INDEX[r] for r in taken if INDEX[r] > p)
    escalera_ok = upper == list(range(p + 1, p + 1 + len(upper)))

    problem = _base_problem(played, p, lower, upper, escalera_ok)
    if problem:
        return problem
    if not escalera_ok:
        return _escalera_problem(played, p, upper)

    legal = next(c for c in _captures(table, played, previous) if sorted(INDEX[r] for r in c.base) == lower)
    if len(upper) == len(legal.escalera):
        what = (
            "caída y limpia"
            if legal.caida and legal.limpia
            else ("caída" if legal.caida else "limpia" if legal.limpia else None)
        )
        return Verdict(
            "legal",
            None,
            f"Levante correcto: {_join(legal.cards)}" + (f" ({what})." if what else "."),
            f"Correct capture: {_join(legal.cards)}" + (f" ({what})." if what else "."),
            "Art. 6" if legal.caida else "Art. 9" if legal.limpia else "002 Art. 5",
            capture=legal,
        )
    left = legal.escalera[len(upper) :]
    if ruleset.arranche == "set_aside":
        fate_es = "el juez las retira hasta el fin de la data y no cuentan para ninguna pareja"
        fate_en = "the juez sets them aside until the data ends and they count for neither pair"
        article = "Art. 16"
    else:
        fate_es = "los oponentes pueden tomarlas"
        fate_en = "the opponents may take them"
        article = "002 Art. 13"
    return Verdict(
        "incomplete",
        "escalera_incomplete",
        f"Escalera incompleta: dejó {_join(left)} en la mesa; {fate_es}.",
        f"Incomplete escalera: left {_join(left)} on the table; {fate_en}.",
        article,
        left_behind=left,
        arranche=ruleset.arranche,
        # What was taken: its caída stands; never a limpia, the forgotten cards were on the table.
        capture=Capture(legal.base, legal.escalera[: len(upper)], legal.match, legal.caida, False),
    )


def _base_problem(played: str, p: int, lower: list[int], upper: list[int], escalera_ok: bool) -> Verdict | None:
    """Why the cards at or below the played rank are no match nor sum; ``None`` if they are one."""
    if not lower:
        return _illegal(
            "escalera_without_base",
            f"Levantó {_join(RANKS[i] for i in upper)} sin igual ni suma: la escalera sigue a un igual o a una suma.",
            f"Took {_join(RANKS[i] for i in upper)} with no match nor sum: an escalera follows a match or a sum.",
            "002 Art. 5C",
        )
    if p in lower:
        others = list(lower)
        others.remove(p)
        if not others:
            return None
        if others == [p] or (p < FIRST_FIGURE and sum(i + 1 for i in others) % (p + 1) == 0):
            return _illegal(
                "two_combinations",
                f"Una jugada levanta una sola combinación (un igual o una suma) y su escalera;"
                f" el {played} no puede llevarse además {_join(RANKS[i] for i in others)}.",
                f"A play takes one combination (one match or one sum) and its escalera;"
                f" the {played} cannot also take {_join(RANKS[i] for i in others)}.",
                "002 Art. 5",
            )
        return _illegal(
            "extra_cards",
            f"{_join(RANKS[i] for i in others)} no son parte del igual ni de la escalera del {played}.",
            f"{_join(RANKS[i] for i in others)} are part of neither the match nor the escalera of the {played}.",
            "002 Art. 5",
        )
    shown = " + ".join(RANKS[i] for i in lower)
    if p >= FIRST_FIGURE:
        return _illegal(
            "figure_sum",
            f"Las figuras no suman: la {played} levanta solo otra {played} por igual, no {shown}.",
            f"Figures have no value in a sum: the {played} takes only another {played} by match, not {shown}.",
            "002 Art. 5B",
        )
    total = sum(i + 1 for i in lower)
    if total == p + 1 and len(lower) > 1:
        return None
    if not escalera_ok and any(i >= FIRST_FIGURE for i in upper):
        figures = _join(RANKS[i] for i in upper if i >= FIRST_FIGURE)
        return _illegal(
            "sum_with_figure",
            f"Las figuras ({figures}) no tienen valor en una suma; {shown} no suma {p + 1}.",
            f"Figures ({figures}) have no value in a sum; {shown} does not add up to {p + 1}.",
            "002 Art. 5B",
        )
    if len(lower) == 1:
        return _illegal(
            "no_match",
            f"El {played} no levanta un {shown}: ni es igual ni es suma de dos o más cartas.",
            f"The {played} cannot take a {shown}: it is neither a match nor a sum of two or more cards.",
            "002 Art. 5A",
        )
    if total % (p + 1) == 0:
        return _illegal(
            "two_combinations",
            f"{shown} suman {total}: una jugada levanta una sola suma de {p + 1}.",
            f"{shown} add up to {total}: a play takes one sum of {p + 1} only.",
            "002 Art. 5B",
        )
    return _illegal(
        "sum_mismatch", f"{shown} suman {total}, no {p + 1}.", f"{shown} add up to {total}, not {p + 1}.", "002 Art. 5B"
    )


def _escalera_problem(played: str, p: int, upper: list[int]) -> Verdict:
    """The escalera taken repeats a rank or skips one."""
    repeated = sorted({i for i in upper if upper.count(i) > 1})
    if repeated:
        cards = _join(RANKS[i] for i in repeated)
        return _illegal(
            "escalera_repeat",
            f"La escalera lleva una carta de cada rango; levantó más de una de: {cards}.",
            f"An escalera takes one card of each rank; took more than one of: {cards}.",
            "002 Art. 5C",
        )
    gap = next(i for i in range(p + 1, len(RANKS)) if i not in upper)
    return _illegal(
        "escalera_gap",
        f"La escalera desde el {played} no puede saltar el {RANKS[gap]}.",
        f"The escalera from the {played} cannot skip the {RANKS[gap]}.",
        "002 Art. 5C",
    )
