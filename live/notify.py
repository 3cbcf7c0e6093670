"""Saying that mesas changed, once the change is committed (``broker`` carries it).

Every save of a ``Mesa`` (a claim logged, a table assigned, a result) and of
an ``Appeal`` says so by itself (``apps.LiveConfig.ready`` connects the
signals); code that changes mesas with a queryset ``update()`` or
``bulk_create()``, which sends no signal, calls ``changed`` itself. So
``changing``, sent inside the act's transaction, is where whatever else
keeps something per mesa hears of every change (the mirror's planilla
codes, ``mirror.codes``).
"""

from django.db import transaction
from django.dispatch import Signal

from . import broker

changing = Signal()  # championship_id, mesa_ids (None: the bracket itself)


def changed(championship_id, mesa_ids=None, seqs=None):
    """After the current transaction commits, tell the streams of ``championship_id``.

    ``mesa_ids``: the mesas that changed, or None for "the bracket itself
    changed" (a draw, a reset); ``seqs``: {mesa id: its last seq} when known,
    which the tablets' streams pass on.
    """
    message = {"c": championship_id, "m": None if mesa_ids is None else sorted(set(mesa_ids)), "s": seqs or {}}
    changing.send(sender=None, championship_id=championship_id, mesa_ids=message["m"])
    transaction.on_commit(lambda: broker.publish(message))


def mesa_saved(sender, instance, **kwargs):
    changed(instance.championship_id, [instance.pk], {instance.pk: instance.last_seq})


def appeal_saved(sender, instance, **kwargs):
    mesa = instance.mesa
    changed(mesa.championship_id, [mesa.pk])
