"""The count of appeals waiting for the Director, shown in the navigation bar of every page."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from refereeing.models import Appeal
from tournament.access import directed

if TYPE_CHECKING:
    from django.http import HttpRequest


def waiting_appeals(request: HttpRequest) -> dict[str, Callable[[], int]]:
    """A callable, so that one COUNT runs only where a page draws the bar, and never for a stranger."""
    user = request.user

    def count() -> int:
        return Appeal.objects.waiting().filter(mesa__championship__in=directed(user)).count()

    return {"waiting_appeals": count}
