"""What the organisers' views share: where a request came from, as the audit trail records it, an act's
refusal shown as an error message, and the one flow of a CSV import's page (pairs, jueces)."""

from django import forms
from django.http import HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import csv_files
from tournament.errors import Refusal
from tournament.refusals import show


def address(request):
    """Where the request came from, as the audit trail records it."""
    return request.META.get("REMOTE_ADDR") or None


def run(request, action, *args, **kwargs):
    """Do a service action; show its refusal as an error message."""
    try:
        return action(*args, **kwargs)
    except Refusal as refusal:
        show(request, refusal)
        return None


class ImportForm(forms.Form):
    """A CSV file to preview, or the previewed text sent back to be confirmed (and checked again); at most
    ``max_bytes`` either way."""

    file = forms.FileField(label=gettext_lazy("CSV file"), required=False)

    def __init__(self, *args, max_bytes, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_bytes = max_bytes
        self.fields["text"] = forms.CharField(widget=forms.HiddenInput, required=False, max_length=max_bytes)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload and upload.size > self.max_bytes:
            raise forms.ValidationError(_("The file is too large: at most %(n)d kB.") % {"n": self.max_bytes // 1024})
        return upload


def csv_import(request, form, *, read, check, save):
    """A CSV import's page, one flow for every import: a file is read and previewed; its previewed text,
    confirmed, is saved (``save(text)``, which checks it again), or previewed again. ``(preview, saved)``:
    ``saved`` is what ``save`` gave back (its preview and what it made), None when nothing was confirmed."""
    if request.method != "POST" or not form.is_valid():
        return None, None
    upload, text = form.cleaned_data["file"], form.cleaned_data["text"]
    try:
        if upload:
            return read(upload.read()), None
        if text and "confirm" in request.POST:
            saved = save(text)
            return saved[0], saved
        if text:
            return check(text), None
        form.add_error("file", _("Choose a CSV file."))
    except Refusal as refusal:
        show(request, refusal, form, "file")
    return None, None


def csv_download(request, write, filename):
    """The CSV file ``write(style)`` makes in the style asked (``formato``: ``excel``, the default, or ``plain``;
    ``tournament.csv_files``), as an attachment named ``filename`` with ``{style}`` filled in."""
    style = request.GET.get("formato", "excel")
    if style not in csv_files.STYLES:
        return HttpResponseBadRequest(_("Unknown CSV style: choose excel or plain."))
    response = HttpResponse(write(style), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename.format(style=style)}"'
    return response
