"""The Comité's acts on persons: merging two into one, splitting one in two, and undoing either.

Rules
-----
merge
    ``gone``'s players become ``keep``'s, and ``gone`` is kept, merged into
    ``keep`` (its page leads there). Refused when the two have different
    cédulas (a cédula is one person) or play in one championship (a person
    plays in one pair of it). A cédula only ``gone`` had goes with its
    players.
split
    Some of a person's players become a new person's. The cédula goes with
    the players who carry it; refused when both sides would carry it.
undo
    Puts the players a change moved back where they were, and the cédula
    with them; refused once any of them has moved since (a later change
    undoes first), once a person split off has played again (merge the two
    instead), or when the change is already undone.

Each act takes the Comité's administrator (``by``), is one transaction with
its audit entries (the change itself, and one entry naming the players
moved, which a bulk update does not record), and rebuilds the ratings from
the first mesa it reaches.
"""

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting, because, record
from engines.lookalikes import key
from tournament.access import is_committee
from tournament.errors import ActionRefused
from tournament.locking import locked
from tournament.models import Player

from . import ratings
from .models import Doubt, Person, PersonChange


def _check_committee(by):
    if by is None or not is_committee(by):
        raise ActionRefused(_("Only the Comité's administrator merges and splits persons."))


def _held(*persons):
    """The persons' rows again, locked, in the order given."""
    rows = {p.pk: p for p in locked(Person.objects.filter(pk__in=[p.pk for p in persons]))}
    return [rows[p.pk] for p in persons]


def _move(players, source, target):
    """Move ``players`` (ids) from ``source`` to ``target``, recorded as one entry (a bulk update sends no signal)."""
    Player.objects.filter(pk__in=players, person=source).update(person=target)
    record(target, "players_moved", {"players": ["", str(len(players))], "person": [str(source), str(target)]})


def merge(keep, gone, *, by, reason="", address=None):
    """Merge ``gone`` into ``keep`` (see *merge* above); returns the :class:`PersonChange`."""
    _check_committee(by)
    with transaction.atomic(), acting(by, address), because(reason):
        keep, gone = _held(keep, gone)
        if keep.pk == gone.pk:
            raise ActionRefused(_("Choose two different persons to merge."))
        if keep.merged_into_id or gone.merged_into_id:
            raise ActionRefused(_("A person already merged into another cannot be merged again; undo that first."))
        if keep.id_number and gone.id_number and keep.id_number != gone.id_number:
            raise ActionRefused(_("The two persons have different ID numbers: they are two people."))
        shared = (
            Player.objects.filter(person__in=(keep, gone))
            .values("pair__championship")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
        )
        if shared.exists():
            raise ActionRefused(_("The two persons play in the same championship: they are two people."))
        moved = list(gone.players.values_list("pk", flat=True))
        number = gone.id_number if not keep.id_number else ""
        if number:
            gone.id_number = ""
            gone.save(update_fields=["id_number"])
            keep.id_number = number
            keep.save(update_fields=["id_number"])
        _move(moved, gone, keep)
        gone.merged_into = keep
        gone.save(update_fields=["merged_into"])
        Doubt.objects.filter(candidate=gone, same=None).update(candidate=keep)
        return _changed(PersonChange.Kind.MERGE, gone, keep, moved, number, reason, by)


def split(person, players, *, by, reason="", address=None):
    """Make a new person of ``players`` (ids of ``person``'s players; see *split* above); returns the change."""
    _check_committee(by)
    with transaction.atomic(), acting(by, address), because(reason):
        [person] = _held(person)
        if person.merged_into_id:
            raise ActionRefused(_("This person was merged into another: split that one."))
        own = {p.pk: p for p in person.players.select_related("pair__championship")}
        moved = sorted({int(p) for p in players})
        if not moved or any(p not in own for p in moved):
            raise ActionRefused(_("Choose players of this person to split off."))
        if len(moved) == len(own):
            raise ActionRefused(_("Leave at least one player with the person: split off some, not all."))
        carrying = {p for p, player in own.items() if person.id_number and player.id_number == person.id_number}
        number = ""
        if carrying & set(moved):
            if carrying - set(moved):
                raise ActionRefused(
                    _("Both sides would carry the ID number %(id)s: it is one person's.") % {"id": person.id_number}
                )
            number = person.id_number
            person.id_number = ""
            person.save(update_fields=["id_number"])
        latest = max((own[p] for p in moved), key=lambda p: (p.pair.championship.start_date, p.pk))
        made = Person.objects.create(
            full_name=latest.full_name,
            name_key=key(latest.full_name),
            club=latest.pair.club,
            club_key=key(latest.pair.club),
            id_number=number,
        )
        _move(moved, person, made)
        return _changed(PersonChange.Kind.SPLIT, person, made, moved, number, reason, by)


def _changed(kind, source, target, players, number, reason, by):
    """The change made (audited by its save), and the ratings rebuilt from the first mesa of either person."""
    change = PersonChange.objects.create(
        kind=kind, source=source, target=target, players=players, id_number=number, reason=reason, by=by
    )
    ratings.persons_changed([source.pk, target.pk])
    return change


def undo(change, *, by, address=None):
    """Undo ``change`` (see *undo* above)."""
    _check_committee(by)
    with transaction.atomic(), acting(by, address):
        change = locked(PersonChange.objects.filter(pk=change.pk)).get()
        if change.undone_at is not None:
            raise ActionRefused(_("This change is already undone."))
        source, target = _held(change.source, change.target)
        if Player.objects.filter(pk__in=change.players).exclude(person=target).exists():
            raise ActionRefused(
                _("Some of the players this change moved have moved again since: undo the later change first.")
            )
        if change.kind == PersonChange.Kind.SPLIT and target.players.exclude(pk__in=change.players).exists():
            raise ActionRefused(
                _("%(person)s has played since the split: merge the two persons instead.") % {"person": target}
            )
        if change.id_number:
            target.id_number = ""
            target.save(update_fields=["id_number"])
            source.id_number = change.id_number
            source.save(update_fields=["id_number"])
        _move(change.players, target, source)
        if change.kind == PersonChange.Kind.MERGE:
            source.merged_into = None
            source.save(update_fields=["merged_into"])
        else:
            target.merged_into = source
            target.save(update_fields=["merged_into"])
        change.undone_at, change.undone_by = timezone.now(), by
        change.save(update_fields=["undone_at", "undone_by"])
        ratings.persons_changed([source.pk, target.pk])
        return change
