"""The cards of the day: every pair's card and every table's card of a
championship, several to an A4 sheet, for one print (``views.cards``).

A pair's card holds its private page's address (``public``) as a QR code;
a table's card the address of its mesa's PIN page and the PIN itself, as
the single cards do (``tournament.views.pair_card``, ``refereeing.access``).
"""

from dataclasses import dataclass

import segno
from django.urls import reverse

from tournament.models import Mesa
from tournament.seating import bracket_order

# Two across and three down on A4: each card keeps a QR code that a phone
# reads from arm's length (4 cm) and room to cut between them.
ACROSS, DOWN = 2, 3


@dataclass
class Card:
    kind: str  # "pair" or "table"
    subject: object  # the Pair or the Mesa
    url: str
    qr: str


def _qr(url):
    return segno.make(url, error="m").svg_inline(scale=4, border=1)


def pair_cards(championship, absolute):
    cards = []
    for pair in championship.pairs.prefetch_related("players").order_by("name"):
        url = absolute(reverse("public:pair", args=[pair.token]))
        cards.append(Card("pair", pair, url, _qr(url)))
    return cards


def table_cards(championship, absolute):
    """One card for each mesa seated at a table and not decided: the mesas whose PIN opens a tablet today."""
    seated = championship.mesas.filter(table_number__isnull=False, status__in=Mesa.UNDECIDED).select_related(
        "championship", "pair_a", "pair_b", "juez"
    )
    cards = []
    for mesa in sorted(seated, key=lambda m: (m.table_number, bracket_order(m))):
        url = absolute(reverse("access:mesa_pin", args=[mesa.pk]))
        cards.append(Card("table", mesa, url, _qr(url)))
    return cards


def sheets(cards):
    """The cards laid out: sheets of rows of ``ACROSS`` cards, the last row filled out with None."""
    rows = [cards[i : i + ACROSS] for i in range(0, len(cards), ACROSS)]
    if rows:
        rows[-1] += [None] * (ACROSS - len(rows[-1]))
    return [rows[i : i + DOWN] for i in range(0, len(rows), DOWN)]
