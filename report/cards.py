"""The cards of the day: every pair's card and every table's card of a
championship, several to an A4 sheet, for one print (``views.cards``).

A pair's card holds its private page's address (``public``) as a QR code;
a table's card, one for each physical table of the championship's sede,
the address of the table's PIN page and the PIN itself, as the single
cards do (``tournament.pairs.views.pair_card``, ``refereeing.access``): printed
once, it serves every mesa played at that table.
"""

from dataclasses import dataclass

import segno
from django.urls import reverse

from mirror import links
from tournament.models import Table
from tournament.policy import PRINT_TABLE, may

# Two across and three down on A4: each card keeps a QR code that a phone
# reads from arm's length (4 cm) and room to cut between them.
ACROSS, DOWN = 2, 3


@dataclass
class Card:
    kind: str  # "pair" or "table"
    subject: object  # the Pair or the Table
    url: str
    qr: str
    away: str | None = None  # a pair's page on the public mirror, where the venue has one


def _qr(url):
    return segno.make(url, error="m").svg_inline(scale=4, border=1)


def pair_cards(championship, absolute):
    cards = []
    for pair in championship.pairs.prefetch_related("players").order_by("name"):
        url = absolute(reverse("public:pair", args=[pair.token]))
        cards.append(Card("pair", pair, url, _qr(url), links.mirror_url(pair)))
    return cards


def table_cards(championship, absolute, user):
    """One card for each physical table of the championship's sede that ``user`` may print (it shows the PIN)."""
    cards = []
    for table in Table.objects.filter(sede=championship.sede_id).select_related("sede").order_by("number"):
        if not may(user, PRINT_TABLE, table):
            continue
        url = absolute(reverse("access:table_pin", args=[table.pk]))
        cards.append(Card("table", table, url, _qr(url)))
    return cards


def sheets(cards):
    """The cards laid out: sheets of rows of ``ACROSS`` cards, the last row filled out with None."""
    rows = [cards[i : i + ACROSS] for i in range(0, len(cards), ACROSS)]
    if rows:
        rows[-1] += [None] * (ACROSS - len(rows[-1]))
    return [rows[i : i + DOWN] for i in range(0, len(rows), DOWN)]
