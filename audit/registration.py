"""What the audit trail records, registered with django-auditlog.

Every save of these models outside the tablets' API writes an entry with
the fields it changed (``audit.middleware`` leaves the API out: the claim
log is its own record):

- the championship: its settings and rules, its Director, the draw's seed;
- pairs and players: registration, edits, check-ins, a new private link
  (masked, like the PIN);
- mesas: table, juez, inspector, pairs, result (walkover, correction, the
  Director's override). The state the claim log keeps is left out;
- sedes and their physical tables: a new sede, a table's new PIN (masked:
  the trail says it was reissued, never what it is);
- user accounts: names, activation, groups, a new password (masked);
- appeals and the Director's resolutions: every step.

Acts done by bulk updates, which send no signal (a round's start, an
appeal's conditional step), call ``audit.context.record`` where they are done.

The scope of an entry (championship, mesa) is read from the record it
describes, so that the trail can be filtered by either. Each app registers
its own models in its ``ready()`` (``tournament.audited``,
``refereeing.apps``, ``resolutions.apps``), with the function that reads that
scope: the trail's core imports nothing of the project.
"""

from auditlog.registry import auditlog

_scopes = {}


def mask(value):
    """Masked fields (a PIN, a password hash) show that they changed, never a character of them."""
    return "••••••"


def register(model, scope=None, **options):
    """Record ``model``'s saves (``options``: django-auditlog's); ``scope(instance)`` gives the
    (championship id, mesa id) of an entry about ``instance`` (None: an entry of no championship)."""
    auditlog.register(model, **options)
    if scope is not None:
        _scopes[model] = scope


def scope_of(instance):
    """(championship id, mesa id) of the record an entry describes; None where it has none."""
    scope = _scopes.get(instance._meta.concrete_model)
    return scope(instance) if scope else (None, None)
