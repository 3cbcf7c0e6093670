"""The pages that open a mesa on a device with the table's PIN, and the QR code.

Terms
-----
PIN page
    ``/acceso/`` asks for the table number and the PIN;
    ``/acceso/mesa/<id>/`` (the address in the table's QR code) asks only
    for the PIN. The right PIN binds the browser session to the mesa (see
    ``refereeing.access.permissions``) and opens the juez's screen.
table card
    ``/acceso/mesa/<id>/tarjeta/``: what the organiser prints and hands to
    the juez: the table, the mesa, the QR code and the PIN. Only organisers
    and the championship's Director may see it: it shows the PIN.
new PIN
    ``POST /acceso/mesa/<id>/pin-nuevo/`` (the button on the tables page):
    the same people print a new PIN (``access.reissue_pin``) and get the
    new card; the old PIN and its devices open nothing from then on.
"""

import segno
from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from refereeing.access import permissions as access
from tournament.access import is_director, is_organiser
from tournament.models import Mesa


class PinField(forms.RegexField):
    def __init__(self, **kwargs):
        super().__init__(
            regex=r"^\d{6}$",
            label=gettext_lazy("PIN"),
            max_length=6,
            strip=True,
            error_messages={"invalid": gettext_lazy("The PIN has six digits.")},
            widget=forms.TextInput(
                attrs={
                    "inputmode": "numeric",
                    "autocomplete": "one-time-code",
                    "pattern": r"\d{6}",
                    "autofocus": True,
                }
            ),
            **kwargs,
        )


class TablePinForm(forms.Form):
    table = forms.IntegerField(
        label=gettext_lazy("Table number"),
        min_value=1,
        max_value=32767,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    pin = PinField()


class PinForm(forms.Form):
    pin = PinField()


def _open(request, form, mesa=None):
    """Check the form's PIN; the redirect to the screen, or the page again with the reason."""
    try:
        opened = access.check_pin(request, form.cleaned_data["pin"], table=form.cleaned_data.get("table"), mesa=mesa)
    except access.PinThrottled:
        form.add_error(
            None,
            _("Too many wrong PINs from this device. Wait %(minutes)d minutes and try again.")
            % {"minutes": access.PIN_FAILURE_WINDOW.seconds // 60},
        )
        return None, 429
    except access.PinBlocked:
        form.add_error(
            None, _("This table's PIN is blocked after too many wrong tries. Ask the organiser to print a new card.")
        )
        return None, 403
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
    return render(
        request,
        "access/card.html",
        {
            "mesa": mesa,
            "qr": qr,
            "url": pin_url(request, mesa),
            "pin_page": request.build_absolute_uri(reverse("access:pin")),
        },
    )


@require_POST
def new_pin(request, mesa_id):
    mesa = get_object_or_404(Mesa.objects.select_related("championship"), pk=mesa_id)
    if not _may_print(request, mesa):
        raise PermissionDenied
    mesa = access.reissue_pin(mesa, request.user)
    messages.success(
        request,
        _("New PIN for table %(table)s: the devices opened with the old PIN no longer have access. Print this card.")
        % {"table": mesa.table_number or "—"},
    )
    return redirect("access:table_card", mesa.pk)
