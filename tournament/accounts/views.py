"""The jueces' accounts page (organisers) with their import and who is available today, and the Comité's page
of organisers and Directors."""

from django.contrib import messages
from django.http import HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournament.errors import Refusal
from tournament.naming import by_person_name, person_name
from tournament.policy import MANAGE_ACCOUNTS, RUN_SITE, allowed
from tournament.refusals import show
from tournament.screens import ImportForm, address, csv_download, csv_import

from . import accounts, jueces_csv, lockouts
from .forms import JuezForm, JuezPasswordForm, RoleAccountForm


def _jueces_page():
    """The jueces' accounts as the page lists them: locked out or not, available today or not; and how many are
    available today."""
    jueces = by_person_name(accounts.juez_accounts())
    locked = lockouts.locked_usernames(j.get_username() for j in jueces)
    today = accounts.available_today()
    for juez in jueces:
        juez.locked_out = juez.get_username() in locked
        juez.available = juez.pk in today
    return {"jueces": jueces, "available_count": sum(1 for j in jueces if j.available and j.is_active)}


@allowed(RUN_SITE, pk=None)
def juez_list(request):
    """The jueces' accounts, who is available today, and a form to add one."""
    form = JuezForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        juez = accounts.open_account(**form.values(), by=request.user, address=address(request))
        messages.success(
            request,
            _("%(name)s can now sign in as %(username)s, and is available today.")
            % {"name": juez.get_full_name(), "username": juez.get_username()},
        )
        return redirect("jueces:list")
    return render(request, "tournament/jueces.html", {"form": form, **_jueces_page()})


@allowed(RUN_SITE, pk=None)
@require_POST
def juez_available(request, pk):
    """Mark a juez available today or not (``available``: 1 or 0). Sent by the page's script (``X-Requested-With:
    fetch``): the juez's row and the count again, as JSON; else back to the row on the page."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    if request.POST.get("available") not in ("0", "1"):
        return HttpResponseBadRequest(_("available must be 0 or 1."))
    accounts.mark_available(juez, request.POST["available"] == "1", by=request.user, address=address(request))
    if request.headers.get("X-Requested-With") != "fetch":
        return redirect(reverse("jueces:list") + f"#juez-{juez.pk}")
    page = _jueces_page()
    [juez] = [j for j in page["jueces"] if j.pk == juez.pk]
    return JsonResponse(
        {
            "row": render_to_string("tournament/juez_row.html", {"juez": juez}, request),
            "parts": {"available-count": render_to_string("tournament/available_count.html", page, request).strip()},
        }
    )


@allowed(RUN_SITE, pk=None)
@require_POST
def jueces_all_available(request):
    """Every active juez available today; back to the jueces page, or to the championship's tables page the
    button was on (``campeonato``)."""
    marked = accounts.mark_all_available(by=request.user, address=address(request))
    messages.success(
        request,
        ngettext("%(n)d juez marked available today.", "%(n)d jueces marked available today.", len(marked))
        % {"n": len(marked)},
    )
    championship = request.POST.get("campeonato", "")
    if championship.isascii() and championship.isdigit() and len(championship) < 12:
        return redirect("tournament:tables", int(championship))
    return redirect("jueces:list")


@allowed(RUN_SITE, pk=None)
def jueces_import(request):
    """Jueces from a CSV file: previewed, then confirmed (``jueces_csv``)."""
    form = ImportForm(request.POST or None, request.FILES or None, max_bytes=jueces_csv.MAX_CSV_BYTES)
    preview, saved = csv_import(
        request,
        form,
        read=jueces_csv.read,
        check=jueces_csv.check,
        save=lambda text: jueces_csv.save(text, by=request.user, address=address(request)),
    )
    made = saved[1] if saved else []
    if made and not preview.errors:
        messages.success(
            request,
            ngettext("%(n)d juez imported, available today.", "%(n)d jueces imported, available today.", len(made))
            % {"n": len(made)},
        )
        return redirect("jueces:list")
    return render(
        request,
        "tournament/jueces_import.html",
        {
            "form": form,
            "preview": preview,
            "imported": len(made),
            "columns": jueces_csv.COLUMNS,
            "max_jueces": jueces_csv.MAX_JUECES,
            "max_kb": jueces_csv.MAX_CSV_BYTES // 1024,
        },
    )


@allowed(RUN_SITE, pk=None)
def jueces_template(request):
    """The empty file of jueces to fill in (its header row), for Excel or plain."""
    return csv_download(request, jueces_csv.template, "plantilla-jueces-{style}.csv")


@allowed(RUN_SITE, pk=None)
@require_POST
def juez_unlock(request, pk):
    """Let a juez locked out by too many wrong passwords sign in again."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    lockouts.unlock(juez, by=request.user)
    messages.success(request, _("%(name)s can try to sign in again.") % {"name": person_name(juez)})
    return redirect("jueces:list")


@allowed(RUN_SITE, pk=None)
@require_POST
def juez_active(request, pk):
    """Deactivate a juez, or activate one again (``active`` in the POST)."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    if request.POST.get("active") not in ("0", "1"):
        return HttpResponseBadRequest(_("active must be 0 or 1."))
    active = request.POST["active"] == "1"
    try:
        accounts.set_juez_active(juez, active, by=request.user, address=address(request))
    except Refusal as error:
        show(request, error)
    else:
        messages.success(
            request,
            (_("%(name)s can sign in again.") if active else _("%(name)s can no longer sign in."))
            % {"name": person_name(juez)},
        )
    return redirect("jueces:list")


@allowed(RUN_SITE, pk=None)
def juez_password(request, pk):
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    form = JuezPasswordForm(juez, request.POST or None)
    if request.method == "POST" and form.is_valid():
        accounts.set_password(juez, form.cleaned_data["new_password1"], by=request.user, address=address(request))
        messages.success(
            request,
            _("New password set for %(name)s; their other devices are signed out.") % {"name": person_name(juez)},
        )
        return redirect("jueces:list")
    return render(request, "tournament/juez_password.html", {"form": form, "juez": juez})


@allowed(MANAGE_ACCOUNTS, pk=None)
def role_list(request):
    """The organisers and Directors, and a form to add one."""
    form = RoleAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        person = accounts.open_account(**form.values(), by=request.user)
        messages.success(
            request,
            _("%(name)s can now sign in as %(username)s (%(role)s).")
            % {
                "name": person_name(person),
                "username": person.get_username(),
                "role": dict(form.fields["role"].choices)[form.cleaned_data["role"]],
            },
        )
        return redirect("roles:list")
    return render(request, "tournament/roles.html", {"form": form, "people": by_person_name(accounts.role_accounts())})
