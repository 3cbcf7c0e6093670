"""Writing, exporting and importing the Director's resolutions (Art. 18).

Terms are those of ``resolutions.models``. Rules:

- Only the championship's Director writes a resolution, or imports
  precedents into it; organisers read them.
- Every text is checked (``engines.text``) before anything is stored.
- The mesas concerned and the mesa of an ``ajuste`` belong to the
  championship. The ajuste goes through the claim log as the Director's
  ``ajuste`` claim (as an appeal's ruling does, ``refereeing.appeals``): a
  mesa that no longer takes claims, or an ajuste the engine refuses,
  refuses the whole resolution, and nothing is stored.
- An export is one JSON document; an import checks the whole file first and
  stores nothing unless every resolution in it is right. Everything in it is
  bounded before it is read further: the file's size, how deep it nests, how
  many resolutions it holds, their numbers, and their dates (a real offset,
  within the era of this program's records: from 2000 to today).
- An import is idempotent: a precedent already in the championship (the same
  origin and number there) is recognised and left as it is, with its number
  here. Imports into one championship take turns (its row is locked), so two
  at once store each precedent once; a clash with a resolution recorded at
  the same moment refuses the import whole, with a message.
"""

from __future__ import annotations

import datetime
import json
import uuid
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from audit.context import acting
from backup.bounds import check_depth
from engines.text import TextError, check_text
from refereeing.claimlog import log as claimlog
from tournament.errors import Refusal
from tournament.locking import locked
from tournament.models import Championship
from tournament.naming import mesa_label
from tournament.policy import RESOLVE, may

from .models import ARTICLES_MAX, PRECEDENT_MAX, RULING_MAX, SITUATION_MAX, Resolution

EXPORT_FORMAT = "mesa-de-control/resoluciones"
EXPORT_VERSION = 1
AJUSTE_MAX = 40  # the most an appeal's ruling adjusts too (refereeing.appeals)
IMPORT_MAX_BYTES = 1_000_000
IMPORT_MAX_RESOLUTIONS = 1000
IMPORT_MAX_DEPTH = 8  # an export nests 4 deep: the document, its list, a resolution, its ajuste
NUMBER_MAX = 100_000
# The era of this program's records; an offset beyond any real time zone's (UTC-12 to UTC+14) is no time zone.
ERA_START = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
OFFSET_MAX = datetime.timedelta(hours=14)
DATE_MAX_LENGTH = 40


class ResolutionError(Refusal):
    """A refused resolution or import; ``message`` says why, in the request's language."""

    code = "resolution_refused"


def _text(value, kind, field, max_length):
    """``value`` as clean text of ``kind`` (empty allowed), or :class:`ResolutionError` naming ``field``."""
    try:
        return check_text(value, kind, field=str(field), required=False, max_length=max_length)
    except TextError as error:
        raise ResolutionError.from_engine(error) from None


def _texts(situation, ruling, articles):
    situation = _text(situation, "ruling", _("situation"), SITUATION_MAX)
    ruling = _text(ruling, "ruling", _("ruling"), RULING_MAX)
    articles = _text(articles or "", "line", _("articles"), ARTICLES_MAX)
    if not situation or not ruling:
        raise ResolutionError(_("A resolution states the situation and the ruling."))
    return situation, ruling, articles


def _check_director(championship, user):
    if user is None or not may(user, RESOLVE, championship):
        raise ResolutionError(_("Only the championship's Director writes resolutions (Art. 18)."))


def _next_number(championship):
    return (championship.resolutions.aggregate(n=Max("number"))["n"] or 0) + 1


def resolve(championship, situation, ruling, articles="", mesas=(), ajuste=None, *, by) -> Resolution:
    """Record the Director's resolution; ``ajuste`` is ``(mesa, pair, points)`` or None."""
    _check_director(championship, by)
    situation, ruling, articles = _texts(situation, ruling, articles)
    mesas = list(mesas)
    if any(m.championship_id != championship.pk for m in mesas):
        raise ResolutionError(_("A resolution concerns mesas of its own championship."))
    if ajuste is not None:
        mesa, pair, points = ajuste
        if mesa.championship_id != championship.pk:
            raise ResolutionError(_("A resolution concerns mesas of its own championship."))
        if pair not in ("A", "B") or type(points) is not int or points == 0 or abs(points) > AJUSTE_MAX:
            raise ResolutionError(_("An adjustment gives a pair (A or B) between -40 and 40 points, not 0."))
        if mesa not in mesas:
            mesas.append(mesa)
    try:
        with transaction.atomic(), acting(by):
            mesa, pair, points = ajuste or (None, "", None)
            resolution = Resolution.objects.create(
                championship=championship,
                number=_next_number(championship),
                situation=situation,
                ruling=ruling,
                articles=articles,
                director=by,
                ajuste_mesa=mesa,
                ajuste_pair=pair,
                ajuste_points=points,
            )
            resolution.mesas.set(mesas)
            if ajuste is not None:
                _log_ajuste(resolution)
    except IntegrityError:
        # Another resolution took the number at the same moment.
        raise ResolutionError(_("Another resolution was recorded at the same moment; send it again.")) from None
    return resolution


def _log_ajuste(resolution):
    """The resolution's ``ajuste`` as the Director's claim at its mesa; a refusal undoes the whole resolution."""
    mesa, pair, points = resolution.ajuste_mesa, resolution.ajuste_pair, resolution.ajuste_points
    if mesa.status not in claimlog.OPEN_STATUSES:
        raise ResolutionError(
            _("Mesa %(mesa)s is already decided: correct its result instead.") % {"mesa": mesa_label(mesa)}
        )
    claim = {"kind": "ajuste", "pair": pair, "points": points, "reason": str(resolution)}
    try:
        answer = claimlog.record_claim(mesa.pk, claim, uuid.uuid4(), user=resolution.director)
    except claimlog.ClaimLogError as error:
        raise ResolutionError(error.message) from None
    if not answer.decision["accepted"]:
        raise ResolutionError(claimlog.decision_message(answer.decision))
    resolution.ajuste_seq = answer.entry.seq
    resolution.save(update_fields=["ajuste_seq"])


def search(championship, query=""):
    """The championship's resolutions, newest first, those matching ``query`` in any text."""
    found = championship.resolutions.select_related("director", "ajuste_mesa").prefetch_related("mesas")
    for word in (query or "").split()[:10]:
        found = found.filter(
            Q(situation__icontains=word)
            | Q(ruling__icontains=word)
            | Q(articles__icontains=word)
            | Q(precedent_from__icontains=word)
        )
    return found.order_by("-number")


# --- export and import ----------------------------------------------------------


def export(championship) -> bytes:
    """The championship's resolutions as one JSON document, to import into the next championship."""
    items = []
    for r in championship.resolutions.prefetch_related("mesas").select_related("ajuste_mesa").order_by("number"):
        items.append(
            {
                "number": r.precedent_number or r.number,
                "decided_at": r.decided_at.isoformat(),
                "situation": r.situation,
                "ruling": r.ruling,
                "articles": r.articles,
                "mesas": r.precedent_mesas or ", ".join(mesa_label(m) for m in r.mesas.all()),
                "ajuste": {"mesa": mesa_label(r.ajuste_mesa), "pair": r.ajuste_pair, "points": r.ajuste_points}
                if r.ajuste_mesa_id
                else None,
                "precedent_from": r.precedent_from or str(championship),
            }
        )
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "championship": str(championship),
        "resolutions": items,
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


class Imported(NamedTuple):
    new: int  # precedents stored
    known: int  # precedents the championship already held


def import_precedents(championship, raw: bytes, *, by) -> Imported:
    """Store every resolution of an export as a precedent of ``championship``, but those it already holds.

    The whole file is checked first: any fault refuses it with a message
    naming the resolution and what is wrong, and nothing is stored.
    """
    _check_director(championship, by)
    rows = [_precedent(item, index) for index, item in enumerate(_items(raw), start=1)]
    seen = {}
    for index, row in enumerate(rows, start=1):
        key = (row["precedent_from"], row["precedent_number"])
        if key in seen:
            raise ResolutionError(
                _("Resolution %(index)d of the file repeats resolution %(first)d.")
                % {"index": index, "first": seen[key]}
            )
        seen[key] = index
    try:
        with transaction.atomic(), acting(by):
            locked(Championship.objects.filter(pk=championship.pk)).first()
            held = set(
                championship.resolutions.filter(precedent_number__isnull=False).values_list(
                    "precedent_from", "precedent_number"
                )
            )
            new = [row for row in rows if (row["precedent_from"], row["precedent_number"]) not in held]
            number = _next_number(championship)
            # One by one, not in bulk: each precedent gets its entry in the audit trail.
            for i, row in enumerate(new):
                Resolution.objects.create(championship=championship, number=number + i, director=None, **row)
    except IntegrityError:
        # A resolution recorded at the same moment took a number.
        raise ResolutionError(
            _("A resolution was recorded at the same moment; nothing was imported. Send the file again.")
        ) from None
    return Imported(new=len(new), known=len(rows) - len(new))


def _items(raw):
    if len(raw) > IMPORT_MAX_BYTES:
        raise ResolutionError(_("The file is larger than 1 MB."))
    try:
        text = raw.decode("utf-8")
        check_depth(text, IMPORT_MAX_DEPTH)
        document = json.loads(text)
    except ValueError:  # not UTF-8, nested too deep, brackets unpaired, or not JSON
        raise ResolutionError(_("The file is not a JSON export of resolutions.")) from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ResolutionError(_("The file is not a JSON export of resolutions."))
    if document.get("version") != EXPORT_VERSION:
        raise ResolutionError(_("This export's version is not known to this program."))
    items = document.get("resolutions")
    if not isinstance(items, list) or not items:
        raise ResolutionError(_("The file holds no resolution."))
    if len(items) > IMPORT_MAX_RESOLUTIONS:
        raise ResolutionError(_("The file holds more than %(max)d resolutions.") % {"max": IMPORT_MAX_RESOLUTIONS})
    return items


def _moment(value):
    """An exported date and time, in UTC, or None when it is not one this program could have written."""
    if not isinstance(value, str) or len(value) > DATE_MAX_LENGTH:
        return None
    try:
        moment = parse_datetime(value)  # a day or an hour past its range, or an offset past a day, raises
        if moment is None or moment.utcoffset() is None or abs(moment.utcoffset()) > OFFSET_MAX:
            return None
        moment = moment.astimezone(datetime.UTC)  # the year 1 or 9999 at an offset overflows here
    except (ValueError, OverflowError):
        return None
    return moment if ERA_START <= moment <= timezone.now() else None


def _precedent(item, index):
    """The fields of the precedent made from one exported resolution, or ResolutionError naming it."""

    def refuse(message):
        return ResolutionError(
            _("Resolution %(index)d of the file: %(message)s") % {"index": index, "message": message}
        )

    if not isinstance(item, dict):
        raise refuse(_("it is not a resolution."))
    try:
        situation, ruling, articles = _texts(item.get("situation"), item.get("ruling"), item.get("articles", ""))
        precedent_from = _text(item.get("precedent_from", ""), "reason", _("precedent"), PRECEDENT_MAX)
        mesas = _text(item.get("mesas", ""), "reason", _("mesas"), PRECEDENT_MAX)
    except ResolutionError as error:
        raise refuse(error.message) from None
    number = item.get("number")
    if type(number) is not int or not 1 <= number <= NUMBER_MAX:
        raise refuse(_("its number is not a whole number from 1 to %(max)d.") % {"max": NUMBER_MAX})
    decided_at = _moment(item.get("decided_at"))
    if decided_at is None:
        raise refuse(_("its date is missing, not a date and time with a real time zone, or not from 2000 to today."))
    ajuste = item.get("ajuste")
    if ajuste is not None:
        if not (
            isinstance(ajuste, dict)
            and ajuste.get("pair") in ("A", "B")
            and type(ajuste.get("points")) is int
            and 0 < abs(ajuste["points"]) <= AJUSTE_MAX
            and isinstance(ajuste.get("mesa"), str)
        ):
            raise refuse(_("its adjustment is not a pair, points and a mesa."))
        # The ajuste was logged at a mesa of the earlier championship: kept in the ruling's record, not applied.
        try:
            note = _text(
                _("Adjustment at %(mesa)s: pair %(pair)s, %(points)+d points.")
                % {"mesa": ajuste["mesa"], "pair": ajuste["pair"], "points": ajuste["points"]},
                "line",
                _("adjustment"),
                None,
            )
        except ResolutionError as error:
            raise refuse(error.message) from None
        if len(ruling) + 2 + len(note) > RULING_MAX:
            raise refuse(_("its ruling is too long."))
        ruling = f"{ruling}\n\n{note}"
    return {
        "situation": situation,
        "ruling": ruling,
        "articles": articles,
        "decided_at": decided_at,
        "precedent_from": precedent_from or _("an earlier championship"),
        "precedent_mesas": mesas,
        "precedent_number": number,
    }
