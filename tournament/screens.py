"""What the organisers' views share: where a request came from, as the audit trail records it, and an act's
refusal shown as an error message."""

from django.contrib import messages

from tournament.errors import ActionRefused


def address(request):
    """Where the request came from, as the audit trail records it."""
    return request.META.get("REMOTE_ADDR") or None


def run(request, action, *args, **kwargs):
    """Do a service action; show its refusal as an error message."""
    try:
        return action(*args, **kwargs)
    except ActionRefused as error:
        messages.error(request, error.message)
        return None
