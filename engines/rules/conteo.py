"""Conteo: the points for the cards each pair took in a data (Art. 3g, 15f-h).

With ``a`` and ``b`` the cards the pairs took (``a + b <= 40``; the rest
stayed on the table or were set aside by arranche, Art. 16):

- ``a != b`` and the larger >= 20: that pair scores 6 for its first 20
  cards and 1 for each card over 20, an odd total rounded up to even
  (Art. 3g.4, 15h): 20 -> 6, 21 -> 8, 22 -> 8, 23 -> 10, 30 -> 16, 40 -> 26.
- ``a == b`` (20-20 included): 2 to the pair that deals next, the opponents
  of this data's dealer: "dos por darlas" (Art. 3g.3, 15g).
- both < 20 and ``a != b``: 2 to the pair with more cards: "mayoría"
  (Art. 15f).
- a pair with 0 cards: its opponents also score "falla", 2 (Art. 10).
"""

from __future__ import annotations

from typing import Any

MAX_CARDS = 40
FALLA = 2
DOS_POR_DARLAS = 2
MAYORIA = 2


def count_points(cards: int) -> int:
    """Points for ``cards`` >= 20: 6 + one per card over 20, rounded up to even."""
    points = 6 + cards - 20
    return points + (points & 1)


def conteo(a: int, b: int, deals_next: str) -> dict[str, Any]:
    """The conteo detail for ``a`` cards of pair A and ``b`` of pair B.

    ``deals_next`` is the pair that deals the next data. Returns
    ``{"cards", "table", "conteo", "falla", "dos_por_darlas"}`` with the
    points each pair earns (before the score's floor and 38 que no juega).
    The caller has checked ``a + b <= 40``.
    """
    points = {"A": 0, "B": 0}
    dos_por_darlas = None
    if a == b:
        dos_por_darlas = deals_next
        points[deals_next] = DOS_POR_DARLAS
    else:
        more, larger = ("A", a) if a > b else ("B", b)
        points[more] = count_points(larger) if larger >= 20 else MAYORIA
    return {
        "cards": {"A": a, "B": b},
        "table": MAX_CARDS - a - b,
        "conteo": points,
        "falla": {"A": FALLA if b == 0 else 0, "B": FALLA if a == 0 else 0},
        "dos_por_darlas": dos_por_darlas,
    }
