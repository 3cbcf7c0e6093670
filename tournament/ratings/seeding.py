"""Seeds by strength: what the draw is offered from its pairs' ratings; the organiser keeps the last word.

Rules (``docs/ratings.md``)
-----
pair's strength
    The pair's rating on the players' scale (``skill.pair``: the mean of
    its players' ratings, a newcomer counting as one), and its conservative
    estimate ``mu - K·sigma``; how sure it is, by its uncertainty
    (``skill.certainty``).
offered seeds
    To the strongest rated pairs (a pair is rated when one of its players
    has a rated mesa): as many as a quarter of the registered pairs,
    rounded down to a power of two, two at least (32 pairs: 8 seeds). Ties
    go by name. Pairs with no rated player are never seeded by strength:
    nothing is known of them.
accept
    :func:`accept` writes the offered seeds in place of the pairs' seeds,
    before the draw; the organiser may then change any seed on the pair's
    form, or never accept and seed by hand as before.
late pair
    After the draw, a late pair is offered the place its strength gives it
    among the drawn pairs when that place is a seeded one (:func:`late_place`);
    the correction puts it there and the pair that held the place takes the
    late pair's (the next place of the order, against a bye's pair).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from audit.context import acting
from tournament.errors import ActionRefused
from tournament.locking import reload_locked
from tournament.models import Championship, Pair, Player

from . import skill
from .models import Rating

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.contrib.auth.models import User


@dataclass
class Strength:
    pair: Pair
    mu: float
    sigma: float
    strength: float
    certainty: str
    mesas: list[int]  # each player's rated mesas
    rated: bool
    offered: int | None = None  # the seed offered (None: none)


def strengths(championship: Championship, pairs: Iterable[Pair] | None = None) -> list[Strength]:
    """[Strength] of ``pairs`` (default: the championship's), strongest first, with the seeds offered."""
    pairs = list(championship.pairs.order_by("name") if pairs is None else pairs)
    persons: dict[int, list[int | None]] = {}
    for pair_id, person in Player.objects.filter(pair__in=pairs).order_by("number").values_list("pair_id", "person_id"):
        persons.setdefault(pair_id, []).append(person)
    held: dict[int | None, Rating] = {
        r.person_id: r
        for r in Rating.objects.filter(person_id__in=[p for people in persons.values() for p in people if p])
    }
    found = []
    for pair in pairs:
        ratings = [held.get(person) for person in persons.get(pair.pk, [])]
        team = [(r.mu, r.sigma) if r else skill.NEW for r in ratings] or [skill.NEW]
        mu, sigma = skill.pair(team)
        found.append(
            Strength(
                pair=pair,
                mu=mu,
                sigma=sigma,
                strength=skill.strength(mu, sigma),
                certainty=skill.certainty(sigma, len(team)),
                mesas=[r.mesas if r else 0 for r in ratings],
                rated=any(ratings),
            )
        )
    found.sort(key=lambda s: (not s.rated, -s.strength, s.pair.name))
    for number, entry in enumerate([s for s in found if s.rated][: seed_count(len(found))], start=1):
        entry.offered = number
    return found


def seed_count(pairs: int) -> int:
    """How many seeds a draw of ``pairs`` pairs is offered (see *offered seeds*)."""
    if pairs < 2:
        return 0
    return max(2, 1 << max(pairs // 4, 1).bit_length() - 1)


def accept(championship: Championship, *, by: User, address: str | None = None) -> int:
    """Write the offered seeds in place of the pairs' own, before the draw; returns how many pairs changed.
    Each pair's save is audited."""
    with transaction.atomic(), acting(by, address):
        reload_locked(championship)
        if championship.mesas.exists():
            raise ActionRefused(_("The bracket is already drawn: its seeds no longer change."))
        wanted = {s.pair.pk: s.offered for s in strengths(championship)}
        changed = [p for p in championship.pairs.all() if p.seed != wanted.get(p.pk)]
        # Every changed seed is cleared first: two pairs never hold one seed, even for a moment.
        for pair in changed:
            if pair.seed is not None:
                pair.seed = None
                pair.save(update_fields=["seed"])
        for pair in changed:
            if wanted.get(pair.pk) is not None:
                pair.seed = wanted[pair.pk]
                pair.save(update_fields=["seed"])
        return len(changed)


def late_place(championship: Championship, pair: Pair) -> int | None:
    """The place of the draw's order (1 = seed 1) a late ``pair``'s strength gives it among the drawn pairs,
    when it is a seeded place; else None (the correction's own next place stands)."""
    order = list(championship.draw_order or [])
    if not order or pair.pk in order:
        return None
    ranked = strengths(championship, [*Pair.objects.filter(pk__in=order), pair])
    late = next(s for s in ranked if s.pair.pk == pair.pk)
    place = ranked.index(late) + 1
    return place if late.rated and place <= seed_count(len(order) + 1) else None
