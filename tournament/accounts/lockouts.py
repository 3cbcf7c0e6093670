"""Sign-in lockouts (django-axes), as the sign-in pages and the jueces page see them.

Terms
-----
*Failure*: a wrong password on any sign-in form (the site's or the
admin's). *Locked*: an account with ``AXES_FAILURE_LIMIT`` failures, from
any address, within the cool-off (``AXES_COOLOFF_TIME``) before its last
one; or an address with as many, for any account. Axes counts and refuses;
this module only reads its records and clears them.

Rules
-----
- A locked-out sign-in gets a 429 page saying what happened and what to do,
  in the request's language.
- An organiser unlocks a juez's account (the jueces page): every failure
  recorded under that username is cleared, from every address, so the
  juez's own tablet is free again too. An address locked for trying other
  accounts stays locked until its cool-off ends.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.contrib.auth.models import User
    from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


def locked_out_page(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: object = None
) -> HttpResponse:
    """Axes' answer to a sign-in refused for too many failures (AXES_LOCKOUT_CALLABLE)."""
    return render(
        request,
        "registration/locked_out.html",
        {
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        },
        status=429,
    )


def locked_usernames(usernames: Iterable[str]) -> set[str]:
    """The usernames among ``usernames`` that are locked now."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    counts = (
        AccessAttempt.objects.filter(username__in=list(usernames), attempt_time__gte=since)
        .values("username")
        .annotate(failures=Sum("failures_since_start"))
    )
    # The rows asked for are those of ``usernames``: none without a username.
    return {
        row["username"]
        for row in counts
        if row["username"] is not None and row["failures"] >= settings.AXES_FAILURE_LIMIT
    }


def unlock(user: User, *, by: User) -> int:
    """Clear the failures recorded under ``user``'s username; log who did it."""
    cleared = reset(username=user.get_username())
    logger.info("%s unlocked the sign-in of %s (%d records cleared)", by.get_username(), user.get_username(), cleared)
    return cleared
