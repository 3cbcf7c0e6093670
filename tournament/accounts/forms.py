"""Accounts made without the Django admin: a juez's (by an organiser), an organiser's or a Director's (by the
Comité), and a juez's new password."""

from typing import TYPE_CHECKING, Any

from crispy_forms.helper import FormHelper
from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from tournament.validators import TextValidator

from .accounts import JUEZ

if TYPE_CHECKING:
    _PasswordForm = SetPasswordForm[User]
else:  # Django's password form takes no type argument at run time (django-stubs-ext patches the model forms)
    _PasswordForm = SetPasswordForm


class AccountForm(UserCreationForm[User]):
    """A new account: the name the pages and planillas show, a username and a password."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("first_name", "last_name", "username")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first_name", "last_name"):
            self.fields[name].required = True
            self.fields[name].validators.append(TextValidator("name"))
        self.helper = FormHelper()
        self.helper.form_tag = False

    def values(self) -> dict[str, Any]:
        """The clean account as ``accounts.open_account`` takes it."""
        data = self.cleaned_data
        return {
            "username": data["username"],
            "password": data["password1"],
            "first_name": data["first_name"],
            "last_name": data["last_name"],
            "role": data.get("role", JUEZ),
        }


class JuezForm(AccountForm):
    """A juez's account, made by an organiser."""


class RoleAccountForm(AccountForm):
    """An organiser's or a Director's account, made by the Comité's administrator."""

    role = forms.ChoiceField(
        label=_("Role"), widget=forms.RadioSelect, choices=[("organiser", _("Organiser")), ("director", _("Director"))]
    )


class JuezPasswordForm(_PasswordForm):
    """A juez's new password, set by an organiser (a forgotten one, or a lost tablet)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False
