"""The audit trail's entries.

Terms
-----
act
    Anything that changes a championship outside the claim log (the claim
    log keeps its own who, when and where): the draw, check-ins, tables and
    jueces, round starts, walkovers, corrections and the Director's
    override, PIN reissues, rule changes, jueces' accounts, appeal steps,
    the Director's resolutions.
entry
    One act on one record: django-auditlog's log entry (the record, the
    action, the field changes as ``{field: [before, after]}``, the actor,
    the address, the time) plus what this project needs to read it back:
    the championship and mesa it concerns (plain numbers, so the trail
    outlives what it describes), the actor's name as it was, the act's name
    when it is not a plain field change (``round_started``), and the reason
    given for it (a correction, a walkover, the Director's override).
same transaction
    An entry is written by the save it describes, in the same database
    transaction (``audit.middleware`` makes each organiser's request one
    transaction): an act that fails leaves neither its change nor its entry.
read-only
    Nothing in the product edits or deletes an entry: the page only reads,
    the admin only shows.
"""

from auditlog.models import AbstractLogEntry, LogEntryManager
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import context

REASON_MAX = 500


class AuditEntryManager(LogEntryManager):
    def log_create(self, instance, force_log=False, **kwargs):
        """django-auditlog's entry, with its championship, mesa, actor and reason filled in."""
        return super().log_create(instance, force_log=force_log, **_filled(instance, kwargs))

    def log_m2m_changes(self, changed_queryset, instance, operation, field_name, **kwargs):
        return super().log_m2m_changes(changed_queryset, instance, operation, field_name, **_filled(instance, kwargs))


def _filled(instance, kwargs):
    from .registration import scope_of

    championship_id, mesa_id = scope_of(instance)
    kwargs.setdefault("championship_id", championship_id)
    kwargs.setdefault("mesa_id", mesa_id)
    return context.fields(kwargs)


class AuditEntry(AbstractLogEntry):
    championship_id = models.BigIntegerField(_("championship"), null=True, blank=True, db_index=True)
    mesa_id = models.BigIntegerField(_("mesa"), null=True, blank=True, db_index=True)
    actor_name = models.CharField(_("who"), max_length=150, blank=True)
    act = models.CharField(_("act"), max_length=40, blank=True)
    reason = models.TextField(_("reason"), max_length=REASON_MAX, blank=True)

    objects = AuditEntryManager()

    class Meta(AbstractLogEntry.Meta):
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["-timestamp", "-pk"]
