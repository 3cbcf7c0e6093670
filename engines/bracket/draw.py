"""The draw: from the entrants and the format to the list of mesas.

Rules and terms
---------------
format
    ``"double"`` (double elimination, the default: a zapatería does not
    eliminate at a first defeat, Art. 12), ``"single"`` (single
    elimination, optionally with a third-place mesa) or ``"round_robin"``
    (groups; the knockout of the best of each group is drawn when the groups
    have finished, by :func:`knockout_after_groups`). The names are the
    values of ``Championship.Format``.
draw
    The seed order (seeded entrants first, then the others, shuffled when
    the draw is random), the random seed used (recorded so that the draw can
    be repeated), and the mesas' specs in playing order: every mesa comes
    after the mesas that feed it.
"""

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .elimination import elimination_specs
from .groups import knockout_order, round_robin_specs
from .seeding import new_random_seed, seed_order
from .specs import DOUBLE, FORMATS, ROUND_ROBIN, SINGLE, BracketError, MatchSpec


@dataclass(frozen=True)
class Draw:
    format: str
    order: tuple[Hashable, ...]  # entrants from seed 1 down
    random_seed: int | None  # None when the draw was not random
    specs: tuple[MatchSpec, ...]  # in playing order
    groups: Mapping[int, tuple[Hashable, ...]] = field(default_factory=dict)  # round-robin: group number -> entrants


def draw(
    entrants: Iterable[Hashable],
    format: str = DOUBLE,
    *,
    seeds: Mapping[Hashable, int | None] | None = None,
    random_draw: bool = False,
    random_seed: int | None = None,
    third_place: bool = False,
    group_size: int = 4,
) -> Draw:
    """Draw a bracket.

    ``entrants``: opaque ids; ``seeds``: optional mapping id -> seed number.
    A random draw shuffles the unseeded entrants with ``random_seed`` (a new
    one is made when it is not given; passing one implies a random draw).
    ``third_place`` adds a third-place mesa to single elimination;
    ``group_size`` is the most entrants in a round-robin group.
    """
    if format not in FORMATS:
        raise BracketError(
            f"Formato de llave desconocido {format!r}: use {', '.join(FORMATS)}.",
            f"Unknown bracket format {format!r}: use one of {', '.join(FORMATS)}.",
        )
    if random_seed is None and random_draw:
        random_seed = new_random_seed()
    order = tuple(seed_order(entrants, seeds, random_seed))
    if format == ROUND_ROBIN:
        groups, specs = round_robin_specs(order, group_size)
        return Draw(format, order, random_seed, tuple(specs), groups)
    return Draw(format, order, random_seed, tuple(elimination_specs(order, format, third_place)))


def knockout_after_groups(
    ranked_groups: Mapping[int, Sequence[Hashable]], advance: int, third_place: bool = False
) -> Draw:
    """The single elimination knockout of the best ``advance`` entrants of
    each group; ``ranked_groups`` maps group number -> entrants in standing
    order (see :func:`.groups.standings`)."""
    order = tuple(knockout_order(ranked_groups, advance))
    return Draw(SINGLE, order, None, tuple(elimination_specs(order, SINGLE, third_place)))
