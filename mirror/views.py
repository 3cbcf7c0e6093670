from django.shortcuts import render
from django.views.decorators.cache import never_cache

from tournament.policy import RUN_SITE, allowed

from . import status as mirror_status


@never_cache
@allowed(RUN_SITE)
def status(request):
    """The mirror's state for the control board (empty where no mirror subscribes)."""
    return render(request, "mirror/status.html", {"status": mirror_status.status()})
