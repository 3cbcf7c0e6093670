"""Who each player is: the person already known, a new one, or a doubt for the desk.

Rules
-----
known
    A player is the person with the same cédula. Without a cédula (or with
    one no person has yet), the person of the same name and club, compared
    by their keys (``lookalikes.key``), who has no other cédula. A person so
    found learns the cédula, and takes the name and club of the latest
    championship they play in.
uncertain
    The same name but another club (or no club to compare), and no cédula
    that settles it: the player becomes a new person and the desk is asked
    (a :class:`Doubt`) whether the two are one. Never merged silently: the
    import's preview shows the question, and a box the desk ticks links the
    player to the person at once.
one pair a championship
    A person plays in one pair of a championship: a person already playing
    in another pair of it is never a match (two namesakes of one club are
    two persons).

:class:`Identifier` reads what a batch needs in two queries and answers
each player in order, remembering whom it gave to whom, so that the
import's preview and its confirmation give the same answers.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.context import acting
from engines.lookalikes import key
from tournament.errors import ActionRefused
from tournament.locking import reload_locked
from tournament.models import Championship, Player

from . import ratings
from .models import Doubt, Person, PersonChange

KNOWN, NEW, UNCERTAIN = "known", "new", "uncertain"


@dataclass(frozen=True)
class Entry:
    """A player to identify: as typed on the form or in the file."""

    name: str
    id_number: str = ""
    club: str = ""


@dataclass(frozen=True)
class Match:
    kind: str  # KNOWN, NEW or UNCERTAIN
    person: Person | None = None  # the person (KNOWN) or the one the player may be (UNCERTAIN)


class Identifier:
    """Identifies the players of ``entries`` for ``championship`` (see the rules above)."""

    def __init__(self, championship, entries):
        self.championship = championship
        names = {key(e.name) for e in entries}
        numbers = {e.id_number for e in entries if e.id_number}
        found = (
            Person.objects.filter(merged_into=None)
            .filter(Q(name_key__in=names) | Q(id_number__in=numbers))
            .annotate(latest=Max("players__pair__championship__start_date"))
        )
        self.by_number, self.by_name = {}, {}
        for person in found.order_by("-pk"):
            if person.id_number:
                self.by_number[person.id_number] = person
            self.by_name.setdefault(person.name_key, []).append(person)
        # A championship not saved yet (a past one's preview) has no players.
        players = Player.objects.filter(pair__championship=championship.pk, person__isnull=False)
        self.taken = set(players.values_list("person_id", flat=True)) if championship.pk else set()

    def match(self, entry):
        if entry.id_number and entry.id_number in self.by_number:
            person = self.by_number[entry.id_number]
            return Match(KNOWN, person) if person.pk not in self.taken else Match(NEW)
        club = key(entry.club)
        open_ = [
            p
            for p in self.by_name.get(key(entry.name), [])
            if p.pk not in self.taken and (not p.id_number or not entry.id_number)
        ]
        same_club = [p for p in open_ if p.club_key == club]
        if same_club:
            return Match(KNOWN, same_club[0])
        if open_:
            return Match(UNCERTAIN, open_[0])
        return Match(NEW)

    def take(self, person):
        self.taken.add(person.pk)


def identify(championship, entries):
    """[Match] of each entry, in order, as :func:`link` would find them; nothing saved."""
    identifier = Identifier(championship, entries)
    matches = []
    for entry in entries:
        match = identifier.match(entry)
        if match.kind == KNOWN:
            identifier.take(match.person)
        matches.append(match)
    return matches


def link(championship, players, confirmed=(), rate=True):
    """Link each of ``players`` ([(player, tag)], saved, of ``championship``) to its person, inside the
    caller's transaction; ``confirmed``: the (tag, person id) of the doubts the desk already answered "the
    same" (the import's preview). Returns the open :class:`Doubt` made. With ``rate``, rebuilds the ratings
    from the first rated mesa of those players' pairs (none while the championship has not played)."""
    entries = [Entry(p.full_name, p.id_number, p.pair.club) for p, _tag in players]
    identifier = Identifier(championship, entries)
    confirmed = set(confirmed)
    linked, doubts, fresh, known = [], [], [], {}
    for (player, tag), entry in zip(players, entries):
        match = identifier.match(entry)
        if match.kind == UNCERTAIN and (tag, match.person.pk) in confirmed:
            match = Match(KNOWN, match.person)
        if match.kind == KNOWN:
            identifier.take(match.person)
            known[match.person.pk] = match.person
            _learn(match.person, entry, championship)
            player.person = match.person
        else:
            player.person = _new(entry)
            fresh.append(player.person)
            if match.kind == UNCERTAIN:
                doubts.append(Doubt(player=player, candidate=match.person))
        linked.append(player)
    Person.objects.bulk_create(fresh)
    for player in linked:
        player.person_id = player.person.pk
    Person.objects.bulk_update(known.values(), ["full_name", "club", "name_key", "club_key", "id_number"])
    Player.objects.bulk_update(linked, ["person"], batch_size=500)
    Doubt.objects.bulk_create(doubts)
    if rate:
        ratings.pairs_changed({player.pair_id for player in linked})
    return doubts


def _new(entry):
    return Person(
        full_name=entry.name,
        club=entry.club,
        name_key=key(entry.name),
        club_key=key(entry.club),
        id_number=entry.id_number,
    )


def _learn(person, entry, championship):
    """A known person takes the cédula it lacked, and the name and club of its latest championship."""
    if entry.id_number and not person.id_number:
        person.id_number = entry.id_number
    latest = getattr(person, "latest", None)
    if latest is None or championship.start_date >= latest:
        person.full_name, person.name_key = entry.name, key(entry.name)
        person.club, person.club_key = entry.club, key(entry.club)


def link_pair(pair):
    """After the pair form saved ``pair``: each player stays its person while the name and cédula still say so
    and no question about it is open; the others are identified again (their ratings rebuilt, and a person
    made for them that no one is any more removed). Returns the open doubts made."""
    again, before = [], set()
    for player in pair.players.select_related("person"):
        person = player.person
        same = person is not None and person.name_key == key(player.full_name)
        if (
            same
            and player.id_number in ("", person.id_number)
            and not Doubt.objects.filter(player=player, same=None).exists()
        ):
            continue
        if person is not None:
            before.add(person.pk)
        player.pair, player.person = pair, None
        again.append((player, player.number))
    if not again:
        return []
    Doubt.objects.filter(player__in=[player for player, _number in again]).delete()
    Player.objects.filter(pk__in=[player.pk for player, _number in again]).update(person=None)
    doubts = link(pair.championship, again, rate=False)
    ratings.persons_changed([*before, *(player.person_id for player, _number in again)])
    _forget(before)
    return doubts


def _forget(persons):
    """Remove the ``persons`` who are no player any more (made for a player identified again), but those a change
    of the Comité's names (its undo needs them)."""
    orphans = Person.objects.filter(pk__in=persons, players=None)
    named = PersonChange.objects.filter(Q(source__in=orphans) | Q(target__in=orphans))
    orphans.exclude(pk__in=named.values("source")).exclude(pk__in=named.values("target")).delete()


def open_doubts(championship):
    return (
        Doubt.objects.filter(player__pair__championship=championship, same=None)
        .select_related("player__pair", "player__person", "candidate")
        .order_by("player__pair__name", "player__number")
    )


def resolve(doubt, same, *, by, address=None):
    """The desk's answer to ``doubt``: ``same`` links the player to the person it may be (the person made for
    it is merged into that one, so that a link to its page still leads somewhere); otherwise they stay two.
    Audited; rebuilds the ratings it reaches."""
    with transaction.atomic(), acting(by, address):
        reload_locked(doubt)
        if doubt.same is not None:
            raise ActionRefused(_("This identity has already been answered."))
        player = doubt.player
        if same:
            candidate = doubt.candidate
            if candidate.merged_into_id is not None:
                raise ActionRefused(_("%(person)s has been merged into another person since.") % {"person": candidate})
            if Player.objects.filter(pair__championship=player.pair.championship_id, person=candidate).exists():
                raise ActionRefused(
                    _("%(person)s already plays in another pair of this championship.") % {"person": candidate}
                )
            made = player.person
            player.person = candidate
            player.save(update_fields=["person"])
            if made is not None and not made.players.exists():
                made.merged_into = candidate
                made.save(update_fields=["merged_into"])
            ratings.persons_changed([candidate.pk] + ([made.pk] if made else []))
        doubt.same = bool(same)
        doubt.resolved_at, doubt.resolved_by = timezone.now(), by
        doubt.save(update_fields=["same", "resolved_at", "resolved_by"])
    return doubt


def summary(found):
    """What a preview shows of ``found`` ([(line, player number, name, Match)]): the players known from earlier
    championships, the new ones, and the uncertain ones to confirm, each as a dict for the template
    (``ratings/identities.html``), whose box sends ``line-number-person``."""
    shown = {KNOWN: [], NEW: [], UNCERTAIN: []}
    for line, number, name, match in found:
        value = f"{line}-{number}-{match.person.pk}" if match.kind == UNCERTAIN else ""
        shown[match.kind].append({"line": line, "number": number, "name": name, "match": match, "value": value})
    return {"known": shown[KNOWN], "new": shown[NEW], "uncertain": shown[UNCERTAIN]}


def confirmed(values):
    """The ((line, player number), person id) of the boxes ticked in a preview (``line-number-person``);
    anything else is ignored: :func:`link` takes a box only where it still names the player's candidate."""
    found = set()
    for value in values:
        parts = value.split("-")
        if len(parts) == 3 and all(part.isascii() and part.isdigit() and len(part) <= 9 for part in parts):
            line, number, person = map(int, parts)
            found.add(((line, number), person))
    return found


def link_unlinked():
    """Link every player who has no person yet (registered before persons existed), championship by
    championship from the oldest, as the import links them (an uncertain one is left to the desk). Returns
    how many players it linked; the ratings are the caller's to rebuild."""
    count = 0
    with transaction.atomic():
        for championship in (
            Championship.objects.filter(pairs__players__person=None).distinct().order_by("start_date", "pk")
        ):
            players = Player.objects.filter(pair__championship=championship, person=None).select_related("pair")
            players = [(player, (player.pair_id, player.number)) for player in players.order_by("pair__name", "number")]
            link(championship, players, rate=False)
            count += len(players)
    return count
