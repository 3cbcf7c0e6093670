"""A sede with its tables, and a mesa's table and juez."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crispy_forms.helper import FormHelper
from django import forms
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from tournament.accounts.accounts import jueces
from tournament.naming import NaturalOrder, mesa_place, person_name
from tournament.validators import TextField

from .sedes import MAX_TABLES

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from django.contrib.auth.models import User

    from tournament.models import Mesa


class JuezChoice(forms.ModelChoiceField["User"]):
    """A juez by full name, with the mesa (of any championship) the juez is busy with."""

    iterator = NaturalOrder

    def __init__(self, busy: Mapping[int | None, Mesa], mesa: Mesa, **kwargs: Any) -> None:
        self.busy, self.mesa = busy, mesa
        super().__init__(queryset=jueces(), **kwargs)

    def label_from_instance(self, juez: User) -> str:
        held = self.busy.get(juez.pk)
        if held is None or held.pk == self.mesa.pk:
            return person_name(juez)
        return _("%(juez)s (busy: %(mesa)s)") % {"juez": person_name(juez), "mesa": mesa_place(held)}


class SedeForm(forms.Form):
    name = TextField("line", label=_("Name"))
    tables = forms.IntegerField(
        label=_("Physical tables"), min_value=1, max_value=MAX_TABLES, help_text=_("Numbered from 1.")
    )
    plan = TextField("ruling", label=_("Hall plan"), required=False, help_text=_("Where the tables stand (optional)."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.helper = FormHelper()
        self.helper.form_tag = False


class TableForm(forms.Form):
    """A mesa's table, chosen among the free tables of its sede (and its own), and its juez."""

    def __init__(
        self, *args: Any, busy: Mapping[int | None, Mesa], mesa: Mesa, free_tables: Iterable[int], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table_number"] = forms.TypedChoiceField(
            label=_("Table"),
            required=False,
            coerce=int,
            empty_value=None,
            choices=[("", _("no table"))] + [(n, str(n)) for n in free_tables],
            # A help text is rendered as markup (Django's and crispy's templates): the stored name is escaped.
            help_text=_("The free tables of %(sede)s.") % {"sede": escape(mesa.championship.sede)},
        )
        self.fields["juez"] = JuezChoice(busy, mesa, label=_("Juez"), required=False)
