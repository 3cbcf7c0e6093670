"""The jueces' accounts page (organisers), and the Comité's page of organisers and Directors."""

from django.contrib import messages
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.access import committee_required, organiser_required
from tournament.errors import ActionRefused
from tournament.naming import by_person_name, person_name
from tournament.screens import address

from . import accounts, lockouts
from .forms import JuezForm, JuezPasswordForm, RoleAccountForm


@organiser_required
def juez_list(request):
    """The jueces' accounts, and a form to add one."""
    form = JuezForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        juez = accounts.open_account(form, by=request.user, address=address(request))
        messages.success(
            request,
            _("%(name)s can now sign in as %(username)s.")
            % {"name": juez.get_full_name(), "username": juez.get_username()},
        )
        return redirect("jueces:list")
    jueces = by_person_name(accounts.juez_accounts())
    locked = lockouts.locked_usernames(j.get_username() for j in jueces)
    for juez in jueces:
        juez.locked_out = juez.get_username() in locked
    return render(request, "tournament/jueces.html", {"form": form, "jueces": jueces})


@organiser_required
@require_POST
def juez_unlock(request, pk):
    """Let a juez locked out by too many wrong passwords sign in again."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    lockouts.unlock(juez, by=request.user)
    messages.success(request, _("%(name)s can try to sign in again.") % {"name": person_name(juez)})
    return redirect("jueces:list")


@organiser_required
@require_POST
def juez_active(request, pk):
    """Deactivate a juez, or activate one again (``active`` in the POST)."""
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    if request.POST.get("active") not in ("0", "1"):
        return HttpResponseBadRequest(_("active must be 0 or 1."))
    active = request.POST["active"] == "1"
    try:
        accounts.set_juez_active(juez, active, by=request.user, address=address(request))
    except ActionRefused as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            (_("%(name)s can sign in again.") if active else _("%(name)s can no longer sign in."))
            % {"name": person_name(juez)},
        )
    return redirect("jueces:list")


@organiser_required
def juez_password(request, pk):
    juez = get_object_or_404(accounts.juez_accounts(), pk=pk)
    form = JuezPasswordForm(juez, request.POST or None)
    if request.method == "POST" and form.is_valid():
        accounts.set_password(form, by=request.user, address=address(request))
        messages.success(
            request,
            _("New password set for %(name)s; their other devices are signed out.") % {"name": person_name(juez)},
        )
        return redirect("jueces:list")
    return render(request, "tournament/juez_password.html", {"form": form, "juez": juez})


@committee_required
def role_list(request):
    """The organisers and Directors, and a form to add one."""
    form = RoleAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        person = accounts.open_account(form, by=request.user)
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
