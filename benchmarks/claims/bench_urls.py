"""The site's URLs plus the bare endpoint, for the benchmark only.

The bare endpoint is the least a Django request that writes can do: the
same middleware (session, CSRF, auth), a signed-in user, one JSON body
parsed and one INSERT. The claim endpoint's time over it is the claim log's
own cost (lock, replay, entry, mesa update).
"""

import json

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401  (the site's error answers: 503s)
from config.urls import urlpatterns as site_urls

from .models import BareRow


@require_POST
@login_required
def bare(request):
    row = BareRow.objects.create(body=json.loads(request.body))
    return JsonResponse({"id": row.pk}, status=201)


urlpatterns = [*site_urls, path("bench/bare/", bare)]
