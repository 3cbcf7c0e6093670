"""The count of appeals waiting for the Director, shown in the navigation bar of every page."""

from refereeing.models import Appeal
from tournament.access import directed


def waiting_appeals(request):
    """A callable, so that one COUNT runs only where a page draws the bar, and never for a stranger."""
    user = request.user

    def count():
        return Appeal.objects.waiting().filter(mesa__championship__in=directed(user)).count()

    return {"waiting_appeals": count}
