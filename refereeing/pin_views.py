"""The pages that open a mesa on a device with the table's PIN, and the QR code.

Terms
-----
PIN page
    ``/acceso/`` asks for the table number and the PIN;
    ``/acceso/mesa/<id>/`` (the address in the table's QR code) asks only
    for the PIN. The right PIN binds the browser session to the mesa (see
    ``refereeing.access``) and opens the juez's screen.
table card
    ``/acceso/mesa/<id>/tarjeta/``: what the organiser prints and hands to
    the juez: the table, the mesa, the QR code and the PIN. Only organisers
    and the championship's Director may see it: it shows the PIN.
"""

import segno
from django import forms
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from refereeing import access
from tournament.access import is_director, is_organiser
from tournament.models import Mesa


class PinField(forms.RegexField):
    def __init__(self, **kwargs):
        super().__init__(
            regex=r"^\d{6}$", label=gettext_lazy("PIN"), max_length=6, strip=True,
            error_messages={"invalid": gettext_lazy("The PIN has six digits.")},
            widget=forms.TextInput(attrs={
                "inputmode": "numeric", "autocomplete": "one-time-code", "pattern": r"\d{6}",
                "autofocus": True,
            }),
            **kwargs,
        )


class TablePinForm(forms.Form):
    table = forms.IntegerField(label=gettext_lazy("Table number"), min_value=1, max_value=32767,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    pin = PinField()


class PinForm(forms.Form):
    pin = PinField()


def _open(request, form, mesa=None):
    """Check the form's PIN; the redirect to the screen, or the page again with the reason."""
    if access.pin_throttled(request):
        form.add_error(None, _("Too many wrong PINs from this device. Wait %(minutes)d minutes and try again.")
                       % {"minutes": access.PIN_FAILURE_WINDOW.seconds // 60})
        return None, 429
    opened = access.check_pin(request, form.cleaned_data["pin"], table=form.cleaned_data.get("table"), mesa=mesa)
    if opened is None:
        form.add_error("pin", _("Wrong PIN for this table."))
        return None, 403
    return redirect(reverse("refereeing:mesa_screen", args=[opened.pk])), 302


@never_cache
def pin_page(request):
    form = TablePinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        response, status = _open(request, form)
        if response:
            return response
    return render(request, "access/pin.html", {"form": form}, status=status)


@never_cache
def mesa_pin_page(request, mesa_id):
    mesa = get_object_or_404(Mesa, pk=mesa_id)
    form = PinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        response, status = _open(request, form, mesa=mesa)
        if response:
            return response
    return render(request, "access/pin.html", {"form": form, "table": mesa.table_number}, status=status)


def _may_print(request, mesa):
    return is_organiser(request.user) or is_director(request.user, mesa.championship)


def pin_url(request, mesa):
    """The absolute address the table's QR code holds."""
    return request.build_absolute_uri(reverse("access:mesa_pin", args=[mesa.pk]))


def mesa_qr(request, mesa_id):
    """The table's QR code as SVG: the address of the mesa's PIN page, no secret in it."""
    mesa = get_object_or_404(Mesa.objects.select_related("championship"), pk=mesa_id)
    if access.access(request, mesa) is None:
        raise PermissionDenied
    svg = segno.make(pin_url(request, mesa), error="m").svg_inline(scale=6, border=2)
    return HttpResponse(svg, content_type="image/svg+xml")


@never_cache
def table_card(request, mesa_id):
    mesa = get_object_or_404(Mesa.objects.select_related("championship", "pair_a", "pair_b", "juez"), pk=mesa_id)
    if not _may_print(request, mesa):
        raise PermissionDenied
    qr = segno.make(pin_url(request, mesa), error="m").svg_inline(scale=6, border=2)
    return render(request, "access/card.html", {
        "mesa": mesa, "qr": qr, "url": pin_url(request, mesa),
        "pin_page": request.build_absolute_uri(reverse("access:pin")),
    })
