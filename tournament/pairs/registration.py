"""Registering pairs: the one rule of what two pairs of a championship may not share, asked by the
pair form and the pairs' import alike.

Rules
-----
name
    Two pairs are one when people would read their names as one: the names
    are compared by their key (``lookalikes.key``: no case, accents, spaces,
    invisible or look-alike letters), as the database's constraint on
    ``Pair.name_key`` does.
seed
    A seed belongs to one pair (also a constraint of the database).
ID number (cédula)
    A player plays in one pair of a championship, and the two players of a
    pair are two people.

A :class:`Register` reads what the championship's pairs hold once (a file
of hundreds of pairs is checked in one pass) and, in a file, remembers what
each accepted line took, so that a later line repeating it names that line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from audit.context import acting
from engines.lookalikes import key as name_key
from tournament.errors import ActionRefused
from tournament.locking import locked
from tournament.models import Championship, Pair, Player, new_pair_token
from tournament.ratings import identity

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from django.contrib.auth.models import User


class Register:
    """What ``championship``'s pairs hold, but the pair ``editing`` (its own values are no conflict)."""

    def __init__(self, championship: Championship, editing: int | None = None) -> None:
        pairs = championship.pairs.exclude(pk=editing) if editing else championship.pairs.all()
        self.names = set(pairs.values_list("name_key", flat=True))
        self.seeds = set(pairs.exclude(seed=None).values_list("seed", flat=True))
        self.ids = dict(Player.objects.filter(pair__in=pairs, id_number__gt="").values_list("id_number", "pair__name"))
        self.lines: dict[tuple[str, str | int], int] = {}  # ("name" | "seed" | "id", value) -> the file's line

    def refusals(
        self, name: str, seed: int | None = None, id_numbers: Iterable[str] = (), key: str | None = None
    ) -> list[tuple[str, str]]:
        """[(field, reason)] that forbid registering this pair: ``field`` is ``"name"``, ``"seed"`` or
        ``"id_number"``; the reasons are clauses ("seed 3 is already taken"), as a file's line lists them.
        ``key``: the name's key when the caller has it (a file's line computes it once)."""
        found = []
        key = key or name_key(name)
        if key in self.names:
            found.append(("name", _('pair "%(name)s" is already registered') % {"name": name}))
        elif ("name", key) in self.lines:
            found.append(
                (
                    "name",
                    _('pair "%(name)s" is repeated (line %(line)d)') % {"name": name, "line": self.lines["name", key]},
                )
            )
        if seed is not None:
            if seed in self.seeds:
                found.append(("seed", _("seed %(seed)d is already taken") % {"seed": seed}))
            elif ("seed", seed) in self.lines:
                found.append(
                    (
                        "seed",
                        _("seed %(seed)d is repeated (line %(line)d)")
                        % {"seed": seed, "line": self.lines["seed", seed]},
                    )
                )
        numbers = [n for n in id_numbers if n]
        if len(set(numbers)) < len(numbers):
            found.append(("id_number", _("both players have the same ID number")))
        for number in dict.fromkeys(numbers):
            if number in self.ids:
                found.append(
                    (
                        "id_number",
                        _('ID number %(id)s already plays in the pair "%(pair)s"')
                        % {"id": number, "pair": self.ids[number]},
                    )
                )
            elif ("id", number) in self.lines:
                found.append(
                    (
                        "id_number",
                        _("ID number %(id)s is repeated (line %(line)d)")
                        % {"id": number, "line": self.lines["id", number]},
                    )
                )
        return found

    def take(self, line: int, key: str, seed: int | None = None, id_numbers: Iterable[str] = ()) -> None:
        """A file's ``line`` registers the pair of name key ``key``: a later line repeating its name, seed
        or IDs names it."""
        self.lines.setdefault(("name", key), line)
        if seed is not None:
            self.lines.setdefault(("seed", seed), line)
        for number in id_numbers:
            if number:
                self.lines.setdefault(("id", number), line)


class PlayerValues(NamedTuple):
    """A player of a pair as the desk types it."""

    full_name: str
    id_number: str = ""
    phone: str = ""


def save_pair(
    championship: Championship,
    pair: Pair | None = None,
    *,
    name: str,
    players: Sequence[PlayerValues],
    club: str = "",
    seed: int | None = None,
    arrival: str | None = None,
    representative: int = 1,
    by: User,
    address: str | None = None,
) -> Pair:
    """Register a pair of ``championship``, or rewrite ``pair``: its ``name``, ``club``, ``seed``, ``arrival``
    (None: as it was) and its ``players`` (:class:`PlayerValues`, numbered from 1), player ``representative``
    speaking for it; ``by`` (from ``address``) is named in the entries.

    The register's rule is asked again under the championship's row lock, the lock the pairs' import
    takes: of two pairs saved at once with a name, seed or ID number in common, one is saved and the other
    raises :class:`ActionRefused` with the reasons, nothing saved. Its players are linked to their persons
    (``tournament.ratings.identity``): an uncertain one is left to the desk."""
    with transaction.atomic(), acting(by, address):
        held = locked(Championship.objects.filter(pk=championship.pk)).get()
        register = Register(held, editing=pair.pk if pair else None)
        refusals = register.refusals(name, seed, [player.id_number for player in players])
        if refusals:
            raise ActionRefused(" ".join(capfirst(reason) + "." for _field, reason in refusals))
        pair = pair or Pair(championship=held)
        pair.name, pair.club, pair.seed = name, club, seed
        pair.arrival = arrival or pair.arrival
        pair.save()
        pair.players.filter(number__gt=len(players)).delete()
        # Clear the representative first: the constraint allows one at a time.
        pair.players.update(is_representative=False)
        for number, player in enumerate(players, 1):
            Player.objects.update_or_create(
                pair=pair, number=number, defaults={**player._asdict(), "is_representative": number == representative}
            )
        identity.link_pair(pair)
        return pair


def new_link(pair: Pair, *, by: User, address: str | None = None) -> Pair:
    """A new private link for ``pair``: the old one stops working at once (the trail masks both)."""
    with transaction.atomic(), acting(by, address):
        held = locked(Pair.objects.filter(pk=pair.pk)).get()
        held.token = new_pair_token()
        held.link_version += 1
        held.save(update_fields=["token", "link_version"])
    return held
