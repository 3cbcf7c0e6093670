"""Who is acting, from where, and why: what every audit entry made meanwhile records.

``acting(user, address)`` is set for each request by ``audit.middleware``
(and by hand in commands and tests); ``because(reason)`` wraps an act whose
reason matters. ``record(instance, act, changes)`` writes an entry for an
act that no model save shows (a bulk update such as a round start): one
line where the act is done.
"""

import contextlib
from contextvars import ContextVar

from auditlog.context import auditlog_disabled

_actor = ContextVar("audit_actor", default=(None, None))
_reason = ContextVar("audit_reason", default="")


@contextlib.contextmanager
def acting(user, address=None):
    token = _actor.set((user, address))
    try:
        yield
    finally:
        _actor.reset(token)


@contextlib.contextmanager
def because(reason):
    token = _reason.set((reason or "").strip())
    try:
        yield
    finally:
        _reason.reset(token)


def fields(kwargs):
    """``kwargs`` of a new entry, with the actor, the address and the reason of the current act."""
    from tournament.naming import person_name

    user, address = _actor.get()
    # Read only now: a request that changes nothing never loads its user for the trail.
    user = user if user is not None and user.is_authenticated else None
    kwargs.setdefault("actor", user)
    kwargs.setdefault("actor_name", person_name(user)[:150])
    kwargs.setdefault("remote_addr", address)
    kwargs.setdefault("reason", _reason.get())
    return kwargs


def record(instance, act, changes=None):
    """An entry for ``act`` on ``instance`` (``changes``: ``{field: [before, after]}``)."""
    from auditlog import get_logentry_model

    if auditlog_disabled.get():
        return None
    entry_model = get_logentry_model()
    return entry_model.objects.log_create(
        instance,
        force_log=True,
        action=entry_model.Action.UPDATE,
        act=act,
        changes=changes or {},
    )
