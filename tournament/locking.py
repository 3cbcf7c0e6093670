"""Row locks that hold on both databases the project runs on.

PostgreSQL locks the rows themselves (``SELECT ... FOR UPDATE``). SQLite
has no row locks: a write that changes nothing takes the database's write
lock before anything is read, so the reads that follow see the last
committed act and no other writer can slip in until the transaction ends.
"""

from typing import TypeVar

from django.db import connection
from django.db.models import F, Model, QuerySet

_M = TypeVar("_M", bound=Model)


def locked(rows: QuerySet[_M, _M]) -> QuerySet[_M, _M]:
    """``rows`` (a queryset), locked until the end of the current transaction; call it inside one."""
    if connection.features.has_select_for_update:
        return rows.select_for_update(of=("self",))
    key = rows.model._meta.pk.attname
    rows.update(**{key: F(key)})
    return rows


def reload_locked(instance: Model) -> None:
    """``instance`` read again from its row, which stays locked until the end of the
    current transaction: the checks that follow see the last act committed on it."""
    list(locked(type(instance)._default_manager.filter(pk=instance.pk)).values_list("pk", flat=True))
    instance.refresh_from_db()
