"""The Comité's accounts page: organisers and Directors made without the Django admin."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from . import accounts
from .access import committee_required
from .forms import RoleAccountForm
from .naming import person_name


@committee_required
def role_list(request):
    """The organisers and Directors, and a form to add one."""
    form = RoleAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        person = form.save()
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
    return render(request, "tournament/roles.html", {"form": form, "people": accounts.role_accounts()})
