"""A mirror answers GET and HEAD only: any other method is refused with 405, at any address.

Nothing on a mirror changes through a request (the rows are the
subscription's, and the database connection is read-only besides): a form
posted to a page, a PUT or a DELETE is refused here once, before CSRF's
check and any view, rather than page by page. The one exception is the
language switch, which posts the visitor's choice and sets nothing but the
visitor's own cookie.
"""

from django.http import HttpResponseNotAllowed
from django.urls import reverse

SAFE = ("GET", "HEAD")


class SafeMethodsOnly:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in SAFE or request.path_info == reverse("set_language"):
            return self.get_response(request)
        return HttpResponseNotAllowed(SAFE)
