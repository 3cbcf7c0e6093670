"""Reading the audit trail: who may read which entries, the filters, and how a change reads.

Organisers read every entry; a Director reads the entries of the
championships they direct, and is offered only their mesas. Filters: championship, mesa, person (the entries
a person made, and those about that person's account).
"""

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.access import is_organiser
from tournament.models import Championship, Mesa

from .models import AuditEntry


def readable_championships(user):
    if not user.is_authenticated:
        return Championship.objects.none()
    if is_organiser(user):
        return Championship.objects.all()
    return Championship.objects.filter(director=user)


def may_read(user):
    return user.is_authenticated and (is_organiser(user) or readable_championships(user).exists())


def readable_mesas(user, championship):
    """The mesas of ``championship`` the filter offers ``user``: none of a championship they may not read."""
    return Mesa.objects.filter(
        championship_id=championship, championship__in=readable_championships(user).values("pk")
    ).exclude(pair_a=None, pair_b=None)


def entries(user, championship=None, mesa=None, person=None):
    found = AuditEntry.objects.select_related("content_type", "actor")
    if not is_organiser(user):
        found = found.filter(championship_id__in=readable_championships(user).values("pk"))
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
    "knockout_drawn": gettext_lazy("Knockout drawn"),
    "all_checked_in": gettext_lazy("Every pair marked present"),
    "pairs_imported": gettext_lazy("Pairs imported"),
    "appeal_step": gettext_lazy("Appeal step"),
}


ACTION_LABELS = {
    AuditEntry.Action.CREATE: gettext_lazy("Created"),
    AuditEntry.Action.UPDATE: gettext_lazy("Changed"),
    AuditEntry.Action.DELETE: gettext_lazy("Deleted"),
}


def act_label(entry):
    if entry.act:
        return str(ACT_LABELS.get(entry.act, entry.act))
    return str(ACTION_LABELS.get(entry.action, entry.action))


def changes(entry):
    """[(field label, before, after)] of an entry, read defensively: nothing stored can break the page."""
    model = entry.content_type.model_class() if entry.content_type_id else None
    rows = []
    data = entry.changes if isinstance(entry.changes, dict) else {}
    for name, values in data.items():
        label, choices = str(name), {}
        try:
            field = model._meta.get_field(name) if model else None
        except FieldDoesNotExist:
            field = None
        if field is not None:
            label = str(getattr(field, "verbose_name", name))
            choices = {str(k): str(v) for k, v in (getattr(field, "choices", None) or [])}
        if isinstance(values, dict):  # a many-to-many change
            operation = _("added") if values.get("operation") == "add" else _("removed")
            objects = ", ".join(str(o) for o in values.get("objects") or [])
            rows.append((label, "", f"{operation}: {objects}"))
        elif isinstance(values, list | tuple) and len(values) == 2:
            before, after = (choices.get(str(v), "—" if v in (None, "None", "") else str(v)) for v in values)
            if before != "—" or after != "—":
                rows.append((label, before, after))
    return rows
