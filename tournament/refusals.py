"""How a page shows a refusal: the one way every view, of either app, tells a person that an act did
nothing and why (``tournament.errors.Refusal``). A refusal no view catches is shown the same way by
``config.refusals``; the API answers it as JSON there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages

if TYPE_CHECKING:
    from django import forms
    from django.http import HttpRequest

    from tournament.errors import Refusal


def show(request: HttpRequest, refusal: Refusal, form: forms.BaseForm | None = None, field: str | None = None) -> None:
    """``refusal`` as an error of ``form`` (of its ``field``, or of the whole form) on the page drawn
    again, or, with no form, as an error message on the next page."""
    if form is not None:
        form.add_error(field, refusal.message)
    else:
        messages.error(request, refusal.message)
