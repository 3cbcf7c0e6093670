"""The pages that open a physical table on a device with its PIN, the QR code, and the table's card.

Terms
-----
PIN page
    ``/acceso/`` asks for the table number and the PIN, and, where that
    number is at several sedes, which sede (``access.tables_numbered``);
    ``/acceso/mesa-fisica/<id>/`` (the address in the table's QR code) asks
    only for the PIN. The right PIN binds the browser session to the table
    (see ``refereeing.access.permissions``) and opens the table's screen.
table's screen
    ``/acceso/mesa-fisica/<id>/ahora/``: the device goes on to the juez's
    screen of the mesa seated at the table now, or, between mesas, is told
    who plays there next or that nothing is seated yet (and looks again by
    itself). ``…/estado/`` says the same as JSON to the juez's screen, which
    moves on to the next mesa when the one it shows is done with.
table card
    ``/acceso/mesa-fisica/<id>/tarjeta/``: what the organiser prints once
    for the championship: the sede, the table, the QR code and the PIN.
    It shows the PIN: only the organisers, and the Director of a championship
    seated or to be seated at the table today, see it (``tournament.policy``'s
    ``print_table``).
new PIN
    ``POST /acceso/mesa-fisica/<id>/pin-nuevo/`` (the button on the tables
    page): the same people print a new PIN (``access.reissue_pin``) and get
    the new card; the old PIN and its devices open nothing from then on.
old addresses
    A mesa's PIN page and card (``/acceso/mesa/<id>/…``, on cards printed
    before tables had their own PIN) lead to its table's.
"""

import segno
from django import forms
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from refereeing.access import permissions as access
from tournament.models import Mesa, Table
from tournament.policy import FOLLOW_TABLE, OPEN_TABLE, PRINT_TABLE, allowed


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

    def __init__(self, *args, tables=(), **kwargs):
        """``tables``: the tables of that number at several sedes; the device chooses its sede among them."""
        super().__init__(*args, **kwargs)
        if tables:
            self.fields["sede"] = forms.TypedChoiceField(
                label=gettext_lazy("Sede"),
                choices=[(t.sede_id, t.sede.name) for t in tables],
                coerce=int,
                widget=forms.RadioSelect,
                error_messages={"required": gettext_lazy("Which sede is this table at?")},
            )


class PinForm(forms.Form):
    pin = PinField()


def _table_typed(request, form):
    """The table a device means by the number it typed (and its sede, where several have that number), or None
    with the form's error and the form to show again: no PIN is checked until the table is known."""
    tables = access.tables_numbered(form.cleaned_data["table"])
    if not tables:
        form.add_error("table", _("No sede has a table %(table)d.") % {"table": form.cleaned_data["table"]})
        return None, form
    if len(tables) == 1:
        return tables[0], form
    form = TablePinForm(request.POST, tables=tables)
    if not form.is_valid():
        return None, form
    return next(t for t in tables if t.sede_id == form.cleaned_data["sede"]), form


def _open(request, form, table):
    """Check the form's PIN against ``table``; the redirect to the table's screen, or the page again with the
    reason."""
    try:
        opened = access.check_pin(request, form.cleaned_data["pin"], table)
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
    if not opened:
        form.add_error("pin", _("Wrong PIN for this table."))
        return None, 403
    return _follow(table), 302


def _follow(table):
    """To the juez's screen of the mesa at ``table`` now, else to the table's screen (who plays there next)."""
    mesa = access.table_mesa(table)
    if mesa is not None:
        return redirect("refereeing:mesa_screen", mesa.pk)
    return redirect("access:table_screen", table.pk)


@never_cache
@allowed(OPEN_TABLE)
def pin_page(request):
    form = TablePinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        table, form = _table_typed(request, form)
        if table is not None:
            response, status = _open(request, form, table)
            if response:
                return response
    return render(request, "access/pin.html", {"form": form}, status=status)


@never_cache
@allowed(OPEN_TABLE)
def table_pin_page(request, table_id):
    table = get_object_or_404(Table.objects.select_related("sede"), pk=table_id)
    if request.method != "POST" and access.has_table_grant(request, table):
        return _follow(table)
    form = PinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        response, status = _open(request, form, table)
        if response:
            return response
    return render(request, "access/pin.html", {"form": form, "table": table}, status=status)


def _pin_again(request, table):
    """A device not opened at ``table`` is asked for its PIN."""
    return redirect("access:table_pin", table.pk)


def _not_opened(request, table):
    return JsonResponse({"detail": _("This device is not opened at this table.")}, status=403)


@never_cache
@allowed(FOLLOW_TABLE, refused=_pin_again)
def table_screen(request, table_id):
    table = get_object_or_404(Table.objects.select_related("sede"), pk=table_id)
    news = access.table_news(table)
    if news["mesa"] is not None:
        return _follow(table)
    return render(request, "access/table_screen.html", {"table": table, "message": news["message"]})


@never_cache
@allowed(FOLLOW_TABLE, refused=_not_opened)
def table_state(request, table_id):
    """What the juez's screen on a device of this table is told (``access.table_news``), as JSON."""
    table = get_object_or_404(Table.objects.select_related("sede"), pk=table_id)
    shown = None
    if (request.GET.get("shown") or "").isdigit() and len(request.GET["shown"]) <= 12:
        shown = Mesa.objects.select_related("championship").filter(pk=int(request.GET["shown"])).first()
    news = access.table_news(table, shown)
    mesa = news["mesa"]
    return JsonResponse(
        {
            "mesa": mesa.pk if mesa else None,
            "url": reverse("refereeing:mesa_screen", args=[mesa.pk]) if mesa else None,
            "go": news["go"],
            "message": news["message"],
        }
    )


def pin_url(request, table):
    """The absolute address the table's QR code holds."""
    return request.build_absolute_uri(reverse("access:table_pin", args=[table.pk]))


@never_cache
@allowed(PRINT_TABLE)
def table_card(request, table_id):
    table = get_object_or_404(Table.objects.select_related("sede", "pin_issued_by"), pk=table_id)
    qr = segno.make(pin_url(request, table), error="m").svg_inline(scale=6, border=2)
    return render(
        request,
        "access/card.html",
        {
            "table": table,
            "qr": qr,
            "url": pin_url(request, table),
            "pin_page": request.build_absolute_uri(reverse("access:pin")),
        },
    )


@require_POST
@allowed(PRINT_TABLE)
def new_pin(request, table_id):
    table = get_object_or_404(Table, pk=table_id)
    table = access.reissue_pin(table, by=request.user)
    messages.success(
        request,
        _("New PIN for table %(table)s: the devices opened with the old PIN no longer have access. Print this card.")
        % {"table": table.number},
    )
    return redirect("access:table_card", table.pk)


def _mesa_table(mesa_id):
    mesa = get_object_or_404(Mesa, pk=mesa_id)
    table = access.table_of(mesa)
    if table is None:
        raise Http404(_("This mesa has no table yet."))
    return table


@allowed(OPEN_TABLE)
def old_mesa_pin_page(request, mesa_id):
    return redirect("access:table_pin", _mesa_table(mesa_id).pk)


@allowed(OPEN_TABLE)
def old_table_card(request, mesa_id):
    return redirect("access:table_card", _mesa_table(mesa_id).pk)
