"""Writing, exporting and importing the Director's resolutions (Art. 18).

Terms are those of ``resolutions.models``. Rules:

- Only the championship's Director writes a resolution, or imports
  precedents into it; organisers read them.
- Every text is checked (``refereeing.engine.text``) before anything is stored.
- The mesas concerned and the mesa of an ``ajuste`` belong to the
  championship. The ajuste goes through the claim log as the Director's
  ``ajuste`` claim (as an appeal's ruling does, ``refereeing.appeals``): a
  mesa that no longer takes claims, or an ajuste the engine refuses,
  refuses the whole resolution, and nothing is stored.
- An export is one JSON document; an import checks the whole file first and
  stores nothing unless every resolution in it is right.
"""

from __future__ import annotations

import json
import uuid

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from refereeing.claimlog import log as claimlog
from refereeing.engine.text import TextError, check_text
from tournament.access import is_director
from tournament.language import speak
from tournament.naming import mesa_label

from .models import ARTICLES_MAX, PRECEDENT_MAX, RULING_MAX, SITUATION_MAX, Resolution

EXPORT_FORMAT = "mesa-de-control/resoluciones"
EXPORT_VERSION = 1
AJUSTE_MAX = 40  # the most an appeal's ruling adjusts too (refereeing.appeals)


class ResolutionError(Exception):
    """A refused resolution or import; ``message`` says why, in the request's language."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _text(value, kind, field, max_length):
    """``value`` as clean text of ``kind`` (empty allowed), or :class:`ResolutionError` naming ``field``."""
    try:
        return check_text(value, kind, field=str(field), required=False, max_length=max_length)
    except TextError as error:
        raise ResolutionError(speak(error)) from None


def _texts(situation, ruling, articles):
    situation = _text(situation, "ruling", _("situation"), SITUATION_MAX)
    ruling = _text(ruling, "ruling", _("ruling"), RULING_MAX)
    articles = _text(articles or "", "line", _("articles"), ARTICLES_MAX)
    if not situation or not ruling:
        raise ResolutionError(_("A resolution states the situation and the ruling."))
    return situation, ruling, articles


def _check_director(championship, user):
    if user is None or not is_director(user, championship):
        raise ResolutionError(_("Only the championship's Director writes resolutions (Art. 18)."))


def _next_number(championship):
    return (championship.resolutions.aggregate(n=Max("number"))["n"] or 0) + 1


def resolve(championship, director, situation, ruling, articles="", mesas=(), ajuste=None) -> Resolution:
    """Record the Director's resolution; ``ajuste`` is ``(mesa, pair, points)`` or None."""
    _check_director(championship, director)
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
        with transaction.atomic():
            mesa, pair, points = ajuste or (None, "", None)
            resolution = Resolution.objects.create(
                championship=championship,
                number=_next_number(championship),
                situation=situation,
                ruling=ruling,
                articles=articles,
                director=director,
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
                "number": r.number,
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


def import_precedents(championship, director, raw: bytes) -> int:
    """Store every resolution of an export as a precedent of ``championship``; how many.

    The whole file is checked first: any fault refuses it with a message
    naming the resolution and what is wrong, and nothing is stored.
    """
    _check_director(championship, director)
    rows = [_precedent(item, index) for index, item in enumerate(_items(raw), start=1)]
    with transaction.atomic():
        number = _next_number(championship)
        # One by one, not in bulk: each precedent gets its entry in the audit trail.
        for i, row in enumerate(rows):
            Resolution.objects.create(championship=championship, number=number + i, director=None, **row)
    return len(rows)


def _items(raw):
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ResolutionError(_("The file is not a JSON export of resolutions.")) from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ResolutionError(_("The file is not a JSON export of resolutions."))
    if document.get("version") != EXPORT_VERSION:
        raise ResolutionError(_("This export's version is not known to this program."))
    items = document.get("resolutions")
    if not isinstance(items, list) or not items:
        raise ResolutionError(_("The file holds no resolution."))
    return items


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
    decided_at = parse_datetime(item["decided_at"]) if isinstance(item.get("decided_at"), str) else None
    if decided_at is None or decided_at.tzinfo is None:
        raise refuse(_("its date is missing or not a date with a time zone."))
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
    }
