"""The audit trail in the admin: shown, never added, changed or deleted.

django-auditlog registers its own admin for the entries, which lets a
superuser delete them through other pages' cascades; it is replaced here.
"""

from django.contrib import admin

from .models import AuditEntry
from .readonly import ReadOnlyAdmin

if admin.site.is_registered(AuditEntry):
    admin.site.unregister(AuditEntry)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = [
        "timestamp",
        "actor_name",
        "remote_addr",
        "act",
        "action",
        "content_type",
        "object_repr",
        "championship_id",
        "mesa_id",
    ]
    list_filter = ["action", "act", "content_type"]
    search_fields = ["object_repr", "actor_name", "reason"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
