"""A championship the public pages show: four pairs with cédulas and phones, one mesa decided, one in play.

A fixture for the tests of the public pages, their accessibility and the desk's (``from tests.support.public
import played``).
"""

import uuid

import pytest

from refereeing.claimlog.log import record_claim
from tests.support.factories import championship, jueces, pairs, play, start
from tournament.draws import draws
from tournament.models import Player
from tournament.seating import seating

CEDULA, PHONE = "0601234567", "0991234567"


@pytest.fixture
def played():
    """A championship of four pairs (with cédulas and phones): one mesa decided, one in play."""
    champ = championship(name="Copa Chimborazo")
    entrants = pairs(champ, 4)
    Player.objects.filter(pair__in=entrants).update(id_number=CEDULA, phone=PHONE)
    jueces(2)
    draws.draw_bracket(champ, seed=1, by=None)
    seating.assign_tables(champ, by=None)
    seating.start_round(champ, "W", 1, by=None)
    first, second = champ.mesas.filter(bracket="W", round=1).order_by("position")
    play(first, "A")
    start(second)
    record_claim(second, {"kind": "caida", "pair": "B", "player": 1}, uuid.uuid4(), user=second.juez)
    return champ
