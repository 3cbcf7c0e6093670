"""Seeding: who is seed 1, 2, 3 ... and where each seed sits in a bracket.

Terms and rules
---------------
seed
    An entrant's rank for the draw, 1 the strongest. The organiser may seed
    some entrants (any distinct positive numbers: only their order matters)
    and leave the rest unseeded; seeded entrants come first, in seed order.
random draw
    Unseeded entrants are put in a random order by ``random.Random(seed)``
    with a recorded integer seed, so the same draw can be made again from the
    same entrants and seed. Without a random draw they keep the order given.
placement
    In a bracket of ``size`` places (a power of two) seed ``s`` meets seed
    ``size + 1 - s`` in the first round, and the places are ordered so that
    the top seeds meet as late as possible: seeds 1 and 2 only in the final,
    1-4 only from the semi-finals on (the standard 1-8, 4-5, 2-7, 3-6 order).
bye
    When there are fewer entrants than places, the missing seeds
    ``n + 1 ... size`` are byes, so byes go to the top seeds, at most one per
    first-round mesa, and the placement spreads them evenly over the two
    halves of the bracket (and over each half's halves).
groups
    Round-robin groups are filled in a snake: seeds 1..g one per group,
    seeds g+1..2g back from the last group, and so on, so groups differ by at
    most one entrant and in strength as little as the seeds allow.
"""

import random
import secrets
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import cast

from .specs import BracketError


def new_random_seed() -> int:
    """A fresh seed for a random draw; it fits the model's BigIntegerField."""
    return secrets.randbits(62)


def seed_order(
    entrants: Iterable[Hashable], seeds: Mapping[Hashable, int | None] | None = None, random_seed: int | None = None
) -> list[Hashable]:
    """The entrants from seed 1 down.

    ``seeds`` maps some entrants to seed numbers. With ``random_seed`` (an
    int) the unseeded entrants are shuffled reproducibly.
    """
    entrants = list(entrants)
    if len(set(entrants)) != len(entrants):
        raise BracketError("Una pareja aparece dos veces en el sorteo.", "An entrant appears twice in the draw.")
    seeds = dict(seeds or {})
    present = set(entrants)
    unknown = [e for e in seeds if e not in present]
    if unknown:
        raise BracketError(
            f"Hay cabezas de serie para parejas que no están en el sorteo: {unknown!r}.",
            f"Seeds given for entrants not in the draw: {unknown!r}.",
        )
    numbers = [s for s in seeds.values() if s is not None]
    if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in numbers):
        raise BracketError(
            "Las cabezas de serie deben ser números enteros positivos.", "Seeds must be positive whole numbers."
        )
    if len(set(numbers)) != len(numbers):
        raise BracketError("Dos parejas tienen la misma cabeza de serie.", "Two entrants have the same seed.")
    seeded = sorted((e for e in entrants if seeds.get(e) is not None), key=lambda e: cast(int, seeds[e]))
    unseeded = [e for e in entrants if seeds.get(e) is None]
    if random_seed is not None:
        random.Random(random_seed).shuffle(unseeded)
    return seeded + unseeded


def placement(size: int) -> list[int]:
    """Seed numbers in bracket order for ``size`` places (a power of two):
    places ``2i`` and ``2i + 1`` meet in the first round."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` entrants."""
    return 1 << max(n - 1, 0).bit_length()


def snake_groups(ordered: Sequence[Hashable], group_count: int) -> list[list[Hashable]]:
    """Split entrants (in seed order) into ``group_count`` groups in a snake."""
    groups: list[list[Hashable]] = [[] for _ in range(group_count)]
    for index, entrant in enumerate(ordered):
        row, column = divmod(index, group_count)
        groups[column if row % 2 == 0 else group_count - 1 - column].append(entrant)
    return groups
