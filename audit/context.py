"""Who is acting, from where, and why: what every audit entry made meanwhile records.

``acting(user, address)`` is set for each request by ``audit.middleware``
(and by hand in commands and tests); one who acts with no account of its
own (a pair through its private link, a table's tablet opened with its PIN)
acts as the name the trail gives it, a plain string; ``because(reason)`` wraps an act whose
reason matters. ``record(instance, act, changes)`` writes an entry for an
act that no model save shows (a bulk update such as a round start): one
line where the act is done.
"""

import contextlib
from contextvars import ContextVar

from auditlog.context import auditlog_disabled

_actor = ContextVar("audit_actor", default=(None, None))
_reason = ContextVar("audit_reason", default="")
# How the entries name their actor: the project's one name of a person, given by the app that owns it.
_actor_name = [lambda user: user.get_username()]


def name_actors(function):
    """Name each entry's actor ``function(user)`` from now on."""
    _actor_name[0] = function


@contextlib.contextmanager
def acting(user, address=None):
    """``user`` (or the name of one with no account) acts from ``address``; with none given, from the
    request's address (an act inside a request)."""
    token = _actor.set((user, address if address is not None else _actor.get()[1]))
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


@contextlib.contextmanager
def recording():
    """Record the act inside even where the trail is off (the tablets' API, whose claims the claim log
    records): an act a claim sets off on other records, such as the automatic seating after a result."""
    token = auditlog_disabled.set(False)
    try:
        yield
    finally:
        auditlog_disabled.reset(token)


def fields(kwargs):
    """``kwargs`` of a new entry, with the actor, the address and the reason of the current act."""
    by, address = _actor.get()
    if isinstance(by, str):  # no account: the entry keeps only the name it acted under
        user, name = None, by
    else:
        # Read only now: a request that changes nothing never loads its user for the trail.
        user = by if by is not None and by.is_authenticated else None
        name = _actor_name[0](user) if user else ""
    kwargs.setdefault("actor", user)
    kwargs.setdefault("actor_name", name[:150])
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
