"""Reading the audit trail: who may read which entries, the filters, and how a change reads.

An entry reads in words: what was done (the act, or "Bracket draw" for
the seed the draw saves), to what (a mesa and a person by their one name,
``tournament.naming``), and each change with its values as people say them
(choices by their label, yes and no, a related record by its name, a time
in the championship's zone to the second).

Organisers read every entry; a Director reads the entries of the
championships they direct, and is offered only their mesas. Filters: championship, mesa, person (the entries
a person made, and those about that person's account).
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist
from django.db.models import ForeignObjectRel, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.models import AuditEntry
from tournament.access import is_organiser, overseen
from tournament.models import Mesa
from tournament.naming import person_name
from tournament.templatetags.shown import shown_moment

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import Field, QuerySet


def readable_mesas(user: User | AnonymousUser, championship: int) -> QuerySet[Mesa]:
    """The mesas of ``championship`` the filter offers ``user``: none of a championship they may not read."""
    return Mesa.objects.filter(championship_id=championship, championship__in=overseen(user).values("pk")).exclude(
        pair_a=None, pair_b=None
    )


def entries(
    user: User | AnonymousUser, championship: int | None = None, mesa: int | None = None, person: int | None = None
) -> QuerySet[AuditEntry]:
    """The entries ``user`` may read, newest first; of the championship, the mesa, the person (ids) given."""
    found = AuditEntry.objects.select_related("content_type", "actor")
    if not is_organiser(user):
        found = found.filter(championship_id__in=overseen(user).values("pk"))
    if championship is not None:
        found = found.filter(championship_id=championship)
    if mesa is not None:
        found = found.filter(mesa_id=mesa)
    if person is not None:
        users = ContentType.objects.get_for_model(get_user_model())
        found = found.filter(Q(actor_id=person) | Q(content_type=users, object_id=person))
    return found.order_by("-timestamp", "-pk")


ACT_LABELS = {
    "round_started": gettext_lazy("Round started"),
    "draw_corrected": gettext_lazy("Draw corrected"),
    "knockout_drawn": gettext_lazy("Knockout drawn"),
    "all_checked_in": gettext_lazy("Every pair marked present"),
    "pairs_imported": gettext_lazy("Pairs imported"),
    "appeal_step": gettext_lazy("Appeal step"),
    "appeal_acknowledged": gettext_lazy("Ruling read by the pairs"),
    "appeal_suspended_mesa": gettext_lazy("Mesa suspended by the appeal"),
    "pairs_settled": gettext_lazy("Pairs sent on by the bracket"),
    "sede_created": gettext_lazy("Sede made with its tables"),
    "juez_available": gettext_lazy("Juez marked available"),
    "juez_unavailable": gettext_lazy("Juez marked not available"),
    "players_moved": gettext_lazy("Players moved to another person"),
    "history_imported": gettext_lazy("Past championship imported"),
}

# The draw is a plain save of the championship's seed, read as the act it is.
DRAW = gettext_lazy("Bracket draw")

ACTION_LABELS = {
    AuditEntry.Action.CREATE: gettext_lazy("Created"),
    AuditEntry.Action.UPDATE: gettext_lazy("Changed"),
    AuditEntry.Action.DELETE: gettext_lazy("Deleted"),
}

# What the acts of ``audit.context.record`` call their changes (no model field says it).
ACT_FIELDS = {
    "round": gettext_lazy("round"),
    "mesas": gettext_lazy("mesas"),
    "present": gettext_lazy("pairs present"),
    "pairs": gettext_lazy("pairs"),
    "tables": gettext_lazy("tables"),
    "available": gettext_lazy("available on"),
    "person": gettext_lazy("person"),
    "players": gettext_lazy("players"),
    # A field of older entries, gone from its model: a pair's check-in before it had three states (arrival).
    "checked_in": gettext_lazy("checked in"),
}

# A stored value that says "nothing": empty, None, or the text of an empty relation.
NOTHING = {"", "None", "[]", "{}"}


def act_label(entry: AuditEntry) -> str:
    if entry.act:
        return str(ACT_LABELS.get(entry.act, entry.act))
    if (
        entry.action == AuditEntry.Action.UPDATE
        and isinstance(entry.changes, dict)
        and set(entry.changes) == {"draw_seed"}
    ):
        return str(DRAW)
    return str(ACTION_LABELS.get(entry.action, entry.action))


def subject(entry: AuditEntry, mesas: dict[int, Mesa], users: dict[str, User]) -> str:
    """What the entry is about, by its one name: a mesa's (``mesas``: {id: mesa}), a person's, or as recorded."""
    model = entry.content_type.model_class() if entry.content_type_id else None
    kind = str(model._meta.verbose_name) if model else ""
    name = entry.object_repr
    if model is Mesa and entry.mesa_id in mesas:
        name = str(mesas[entry.mesa_id])
    elif model is get_user_model() and str(entry.object_pk) in users:
        name = person_name(users[str(entry.object_pk)])
    return f"{kind[:1].upper()}{kind[1:]}: {name}" if kind else name


class Reader:
    """Reads the stored values of a page of entries in words, each person looked up once."""

    def __init__(self) -> None:
        self.people: dict[str, str] = {}

    def value(self, field: Field[Any, Any] | None, text: str) -> str:
        """``text`` (as django-auditlog stored it) in words; "" for nothing."""
        if text in NOTHING or text.endswith(".None"):
            return ""
        if field is None:
            return str({"True": _("yes"), "False": _("no")}.get(text, text))
        if field.choices:
            return str(dict((str(k), v) for k, v in field.flatchoices).get(text, text))
        if (field.many_to_one or field.one_to_one) and field.related_model is get_user_model():
            return self._person(text)
        kind = field.get_internal_type()
        if kind == "BooleanField":
            return str({"True": _("yes"), "False": _("no")}.get(text, text))
        if kind == "DateTimeField":
            return _moment(text)
        return text

    def _person(self, username: str) -> str:
        """A user recorded by username (django-auditlog stores a relation as its text), by their name now."""
        if username not in self.people:
            found = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username}).first()
            self.people[username] = person_name(found) if found else username
        return self.people[username]

    def changes(self, entry: AuditEntry) -> list[tuple[str, str, str]]:
        """[(what, before, after)] of an entry in words, read defensively: nothing stored can break the page.

        A creation lists what was given (not the empty and "no" fields); a
        change says before and after; a relation's reverse side (a pair's
        players) is left out, as its own records say it.
        """
        model = entry.content_type.model_class() if entry.content_type_id else None
        created = entry.action == AuditEntry.Action.CREATE
        rows: list[tuple[str, str, str]] = []
        data = entry.changes if isinstance(entry.changes, dict) else {}
        for name, values in data.items():
            try:
                # An act's own names come first: a sede's "tables" is a count, not its reverse relation.
                field = model._meta.get_field(name) if model and not (entry.act and name in ACT_FIELDS) else None
            except FieldDoesNotExist:
                field = None
            if (
                isinstance(field, ForeignObjectRel)
                or field is not None
                and not field.concrete
                and not field.many_to_many
            ):
                continue
            label = str(field.verbose_name) if field is not None else str(ACT_FIELDS.get(name, name))
            if isinstance(values, dict):  # a many-to-many change
                operation = _("added") if values.get("operation") == "add" else _("removed")
                objects = ", ".join(str(o) for o in values.get("objects") or [])
                rows.append((label, "", f"{operation}: {objects}"))
            elif isinstance(values, list | tuple) and len(values) == 2:
                if created and str(values[1]) == "False":
                    continue
                before, after = (self.value(field, "" if v is None else str(v)) for v in values)
                if name == "round" and field is None:  # a round start's "W 1": the bracket by its name
                    after = _round_words(after)
                if before or after:
                    rows.append((label, before, after or _("none")))
        return rows


def _round_words(text: str) -> str:
    bracket, _space, number = text.partition(" ")
    labels = dict(Mesa.Bracket.choices)
    if bracket not in labels or not number.isdigit():
        return text
    return _("%(bracket)s, round %(round)s") % {"bracket": labels[bracket], "round": number}


def _moment(text: str) -> str:
    """A stored date and time, in the championship's time zone, to the second."""
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return text
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=datetime.UTC)
    return shown_moment(moment)
