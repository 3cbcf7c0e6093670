"""The admin's pages for records that change only through acts: shown, never added, changed or deleted.

Every change to a championship, its pairs, its mesas or their records is
an act of a domain function, which checks it and writes its audit entry
(``audit.registration``); the admin's forms would go around both. A
superuser's emergency correction is a command that goes through the same
function with a reason (``manage.py emergency_result``).
"""

from django.contrib import admin


class ReadOnly:
    """For a model's admin and its inlines alike."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass
