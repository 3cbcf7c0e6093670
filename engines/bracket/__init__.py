"""The bracket engine: draws, advancement and group standings, in plain
Python (no Django), data in and data out.

Terms
-----
entrant
    A pair (or a player in 1 vs 1), seen as an opaque id.
seed
    An entrant's rank for the draw, 1 the strongest; top seeds are placed to
    meet as late as possible and get the byes.
bye
    An empty place when the entrants are not a power of two: the entrant
    drawn against it goes straight on; no mesa is emitted for it.
round, position, slot
    A mesa's key is ``(bracket, round, position)``; its two sides are
    slots ``"A"`` and ``"B"``.
winners' bracket (W), losers' bracket (L)
    In double elimination (the default, Art. 12: a zapatería does not
    eliminate at a first defeat) everyone starts in the winners' bracket; a
    first defeat drops a pair into the losers' bracket, a second puts it out.
grand final (GF), reset (GR)
    The winners' bracket champion (slot A) meets the losers' bracket
    champion (slot B); if B wins, the reset is played and decides.
third place (3P), group (G)
    Single elimination's third-place mesa; round-robin group mesas.

Use
---
``draw(entrants, format, seeds=..., random_draw=..., random_seed=...)``
gives a :class:`Draw` whose ``specs`` the tournament turns into Mesa rows;
``advance(specs, results)`` says who plays where, who is out and who is
champion; ``dependents(specs, key)`` lists the mesas a correction would
change; ``standings(results)`` ranks a group; ``knockout_after_groups``
draws the knockout that follows the groups.
"""

from .draw import Draw, draw, knockout_after_groups
from .groups import GroupResult, Standing, standings
from .progress import Progress, advance, dependents, playing_order
from .seeding import new_random_seed
from .specs import (
    DOUBLE,
    FORMATS,
    GRAND_FINAL,
    GROUP,
    LOSERS,
    RESET,
    ROUND_ROBIN,
    SINGLE,
    SLOTS,
    THIRD_PLACE,
    WINNERS,
    BracketError,
    Key,
    MatchSpec,
    Route,
)

__all__ = [
    "Draw",
    "draw",
    "knockout_after_groups",
    "GroupResult",
    "Standing",
    "standings",
    "Progress",
    "advance",
    "dependents",
    "playing_order",
    "new_random_seed",
    "DOUBLE",
    "FORMATS",
    "GRAND_FINAL",
    "GROUP",
    "LOSERS",
    "RESET",
    "ROUND_ROBIN",
    "SINGLE",
    "SLOTS",
    "THIRD_PLACE",
    "WINNERS",
    "BracketError",
    "Key",
    "MatchSpec",
    "Route",
]
