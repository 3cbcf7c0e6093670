"""The one place a refusal (``tournament.errors.Refusal``) becomes an answer, as Zulip's middleware
turns its ``JsonableError``: under the API one JSON shape, ``{"code", "message", "article", "status",
"detail", ...}`` (``api_exception``, DRF's ``EXCEPTION_HANDLER``, also for DRF's own errors), and on a
page the refusal as a message on the page the person came from (``RefusalMiddleware``), for the
refusals no view shows next to its form (``tournament.refusals.show``)."""

from django.http import JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from rest_framework.response import Response
from rest_framework.views import exception_handler

from config.errors import wants_json
from tournament.errors import Refusal
from tournament.refusals import show


def api_exception(exc, context):
    """DRF's answer to ``exc``, in the refusal's shape: a refusal's own fields, or DRF's error's
    detail as ``message`` with its code."""
    if isinstance(exc, Refusal):
        return Response(exc.as_json(), status=exc.status)
    response = exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and isinstance(response.data.get("detail"), str):
        detail = response.data["detail"]
        code = getattr(detail, "code", None)
        response.data = Refusal(detail, code=code, status=response.status_code).as_json()
    return response


class RefusalMiddleware:
    """A refusal a page's view let go: its message on the page the person came from (the same page
    when the browser did not say), never a 500; JSON to a script that asked for it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, Refusal):
            return None
        if wants_json(request):
            return JsonResponse(exception.as_json(), status=exception.status)
        show(request, exception)
        back = request.headers.get("Referer", "")
        safe = url_has_allowed_host_and_scheme(back, {request.get_host()}, require_https=request.is_secure())
        return redirect(back if back and safe else request.path)
