"""The cards of Cuarenta: the 40-card deck, ranks, values and their order.

Terms
-----
rank
    ``A 2 3 4 5 6 7 J Q K``. The deck holds four cards of each rank, one per
    suit; suits play no part in any rule, so the engine only ever sees ranks.
sequence order
    ``A < 2 < … < 7 < J < Q < K`` (Art. 1a numbers them 1–7, J 11, Q 12,
    K 13; with no 8, 9, 10 the J follows the 7). The K is not followed by the
    A, so an escalera ends at the K (seed 003).
value
    What a number card counts in a sum: A = 1 … 7 = 7. Figures (J, Q, K) have
    no value in a sum (seed 003); they count 10 only for the draw of Art. 3c,
    which the engine does not need.
index
    A rank's position in the sequence order, 0 (A) to 9 (K). A number card's
    value is its index + 1; the index is what the fast code paths work with.

Parsing (a ruling of this module): a rank is written ``A 2 3 4 5 6 7 J Q K``,
case-insensitive and with surrounding spaces ignored; ``1`` is accepted for
the A because Art. 1a numbers the cards "del 1 al 7". Anything else (``8``,
``10``, ``11``, ``X``) raises :class:`CardError` naming the bad text and the
accepted ranks. Output always uses the canonical ``A``.

This module imports nothing from Django: the engine is plain Python.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .messages import EngineError

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
SUITS = 4  # cards of each rank in the deck

INDEX: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}
FIRST_FIGURE = INDEX["J"]  # indices below this are number cards

_ALIASES = {rank.lower(): rank for rank in RANKS} | {"1": "A"}


class CardError(EngineError):
    """A card written in a way the engine does not know, or an impossible hand, in Spanish and English."""


def parse_rank(text: str) -> str:
    """The canonical rank written as ``text`` (``"q"`` → ``"Q"``, ``"1"`` → ``"A"``)."""
    rank = _ALIASES.get(str(text).strip().lower())
    if rank is None:
        raise CardError(
            f"Carta desconocida «{text}»; use A (o 1), 2–7, J, Q o K.",
            f"Unknown card '{text}'; use A (or 1), 2-7, J, Q or K.",
        )
    return rank


def parse_ranks(cards: str | Iterable[str]) -> list[str]:
    """Ranks from a space- or comma-separated string, or from a list of strings."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [parse_rank(card) for card in cards]


def value(rank: str) -> int | None:
    """A number card's value in a sum (A = 1 … 7 = 7); ``None`` for a figure."""
    index = INDEX[rank]
    return index + 1 if index < FIRST_FIGURE else None


def deck() -> list[str]:
    """The 40 cards of a deck, as ranks, in sequence order."""
    return [rank for rank in RANKS for _ in range(SUITS)]


def check_counts(ranks: Iterable[str]) -> None:
    """Raise :class:`CardError` if ``ranks`` holds more cards of a rank than the deck has."""
    for rank, count in Counter(ranks).items():
        if count > SUITS:
            raise CardError(
                f"Hay {count} cartas {rank}; el naipe tiene solo {SUITS} de cada una.",
                f"There are {count} cards {rank}; the deck has only {SUITS} of each.",
            )
