"""A NUL character in the address is refused before any view reads it.

PostgreSQL's text cannot hold a NUL: a view that looked one up (a pair's link
``/pareja/%00…/``, a search ``?q=x%00``) answered 500 (issue 22). No address
of the site has a NUL in it, so one in the path is an address that does not
exist (404) and one in the query string a malformed request (400), both
answered by the site's error pages (``config.errors``) before any view, for
every URL pattern at once. Percent-encoded or not, Django has decoded it into
``path_info`` and the query's values by then.
"""

from django.core.exceptions import BadRequest
from django.http import Http404

NUL = "\x00"


class NulInURLMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path_info:
            raise Http404("NUL in the path")
        if any(NUL in key or any(NUL in value for value in values) for key, values in request.GET.lists()):
            raise BadRequest("NUL in the query string")
        return self.get_response(request)
