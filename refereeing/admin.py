"""The Django admin for the claim log, the signatures, the appeals and the wrong PINs.

All are records of what happened at a table, so the admin shows them and
changes nothing: the claim log is append-only (a correction is a ``void``
claim logged by the juez, see ``refereeing.claimlog``), a signature is what
a person signed, an appeal moves only by the Director's steps
(``refereeing.appeals``), and the wrong PINs are the guessing that the PIN
page slows down.
"""

from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from audit.readonly import ReadOnlyAdmin

from .models import Appeal, ClaimEntry, PinFailure, Signature


@admin.register(ClaimEntry)
class ClaimEntryAdmin(ReadOnlyAdmin):
    list_display = ["mesa", "seq", "kind", "accepted", "juez", "address", "created_at"]
    list_filter = ["accepted", "kind", "mesa__championship"]
    list_select_related = ["mesa", "juez"]
    search_fields = ["client_id", "mesa__pair_a__name", "mesa__pair_b__name"]
    ordering = ["-created_at"]


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ["mesa", "role", "name", "signed_at"]
    list_select_related = ["mesa"]
    exclude = ["image"]
    readonly_fields = ["drawing"]

    @admin.display(description=_("signature"))
    def drawing(self, obj):
        return format_html('<img src="{}" alt="" style="max-width: 320px">', obj.image)


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdmin):
    list_display = ["mesa", "pair", "seq", "status", "name", "filed_at", "ruled_at"]
    list_filter = ["status", "mesa__championship"]
    list_select_related = ["mesa"]
    exclude = ["signature"]
    ordering = ["-filed_at"]


@admin.register(PinFailure)
class PinFailureAdmin(ReadOnlyAdmin):
    list_display = ["address", "table", "at"]
    list_select_related = ["table__sede"]
    ordering = ["-at"]
