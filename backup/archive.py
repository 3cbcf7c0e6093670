"""Writing the whole database to one file, and loading it into an empty one.

Terms
-----
backup
    One JSON document (gzip-compressed when the file name ends in ``.gz``):
    ``{"format", "version", "created_at", "migrations", "objects"}``, where
    ``objects`` is every row of every model in Django's serialization, in
    an order that loads (rows before the rows that point to them), but the
    sessions: a backup signs nobody in.
secrets
    A backup still holds the accounts' password hashes, every table's PIN
    and every pair's private link. The file is readable by its owner only
    (0600) from its first byte: it is written under a temporary name in the
    same folder, made so by the system, and renamed once whole, so nobody
    reads it half-written either.
lossless
    Django's JSON encoder cuts timestamps to milliseconds; a backup keeps
    them to the microsecond, as both databases store them. Primary keys are
    kept, so every mesa, pair and user keeps its number, the audit trail
    still points at what it describes, and every planilla's verification
    code still verifies. Content types and permissions are not copied
    (``migrate`` makes them); rows point to them by natural key.
empty database
    One that holds nothing but what ``migrate`` makes (content types,
    permissions, the groups of the data migrations). A restore refuses any
    other: it would mix two championships' records. The migrations' groups
    are replaced by the backup's, which hold the same names.
restore
    Migrates the database, checks it is empty, then loads every row in one
    transaction with the database's constraints checked at the end:
    anything wrong, and nothing is stored. The audit trail records nothing
    while loading: the rows are the backup's, with their own entries. The
    file is read within bounds (``backup.bounds``): at most ``MAX_BYTES``
    once decompressed (a gzip bomb is refused after that many bytes, not
    after it has filled the memory) and nested at most ``MAX_DEPTH`` deep.
    Sessions in a backup made by an earlier version are not loaded.
older backup
    One made before a migration that changed rows' shape (``LOADS_FROM``):
    its rows name fields that are gone (a championship's count of tables
    before the sedes), so a restore refuses it before touching the
    database, saying which version to restore it with.
"""

from __future__ import annotations

import datetime
import gzip
import io
import json
import os
import tempfile
import zlib
from pathlib import Path

from auditlog.context import disable_auditlog
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from .bounds import OutOfBounds, check_depth, gunzip

FORMAT = "mesa-de-control/backup"
VERSION = 1
NOT_COPIED = (ContentType, Permission, Session)  # migrate makes the first two; the last would sign people in
GZIP_MAGIC = b"\x1f\x8b"
# A championship's backup is a few megabytes; a restore holds the whole document in memory.
MAX_BYTES = 256 * 1024 * 1024
MAX_DEPTH = 32  # a row nests 5 deep, a claim or a mesa's state a few more
# The oldest migration of each app whose rows this version loads, and what came with it.
LOADS_FROM = {"tournament": ("0018_sedes", "the sedes and their tables")}


class BackupError(Exception):
    """A refused backup or restore; the message says why."""


class LosslessEncoder(DjangoJSONEncoder):
    """Django's encoder, without cutting timestamps to milliseconds."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def models_to_copy():
    """Every installed model but those ``migrate`` makes, rows before the rows pointing to them."""
    app_list = {
        config: [m for m in config.get_models() if m not in NOT_COPIED and not m._meta.proxy]
        for config in apps.get_app_configs()
    }
    return serializers.sort_dependencies(((c, ms) for c, ms in app_list.items() if ms), allow_cycles=True)


def _rows(models):
    for model in models:
        yield from model._base_manager.order_by(model._meta.pk.name).iterator(chunk_size=2000)


def _applied_migrations(using):
    applied = MigrationRecorder(connections[using]).applied_migrations()
    latest = {}
    for app, name in applied:
        latest[app] = max(latest.get(app, ""), name)
    return dict(sorted(latest.items()))


def write(path, using=DEFAULT_DB_ALIAS):
    """Write the whole database to ``path`` (gzip when it ends in ``.gz``), readable by its owner only; how many rows."""
    path = Path(path)
    models = models_to_copy()
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")  # mode 0600
    try:
        with os.fdopen(descriptor, "wb") as raw, _text(raw, path) as stream, transaction.atomic(using=using):
            # Every table read from one snapshot, while the tablets go on writing: a
            # claim logged meanwhile is in neither its entry nor its mesa's state.
            if connections[using].vendor == "postgresql":
                with connections[using].cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            header = {
                "format": FORMAT,
                "version": VERSION,
                "created_at": timezone.now().isoformat(),
                "migrations": _applied_migrations(using),
            }
            stream.write(json.dumps(header, ensure_ascii=False)[:-1] + ', "objects": ')
            counter = _Counter(_rows(models))
            serializers.serialize(
                "json",
                counter,
                stream=stream,
                cls=LosslessEncoder,
                ensure_ascii=False,
                use_natural_foreign_keys=True,
                use_natural_primary_keys=False,
            )
            stream.write("}\n")
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return counter.count


def _text(raw, path):
    """A text stream onto the open file ``raw``, through gzip when ``path`` ends in ``.gz``."""
    if path.name.endswith(".gz"):
        raw = gzip.GzipFile(filename=path.name, mode="wb", fileobj=raw)
    return io.TextIOWrapper(raw, encoding="utf-8")


class _Counter:
    def __init__(self, rows):
        self.rows, self.count = rows, 0

    def __iter__(self):
        for row in self.rows:
            self.count += 1
            yield row


def read(path, max_bytes=MAX_BYTES):
    """The backup document in ``path``, or BackupError; at most ``max_bytes`` once decompressed."""
    try:
        with open(path, "rb") as raw:
            data = raw.read(max_bytes + 1)
    except OSError as error:
        raise BackupError(f"Cannot read {path}: {error.strerror or error}") from None
    try:
        if len(data) > max_bytes:
            raise OutOfBounds(f"larger than {max_bytes} bytes")
        if data[:2] == GZIP_MAGIC:
            data = gunzip(data, max_bytes)
        text = data.decode("utf-8")
        del data  # the document's text, its bytes and its rows would otherwise be held at once
        check_depth(text, MAX_DEPTH)
        document = json.loads(text)
    except OutOfBounds as error:
        raise BackupError(f"{path} is {error}; nothing was restored.") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError):
        raise BackupError(f"{path} is not a backup of Mesa de Control (not gzip or JSON).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(f"{path} is not a backup of Mesa de Control.")
    if document.get("version") != VERSION or not isinstance(document.get("objects"), list):
        raise BackupError(f"{path} is a backup of another version ({document.get('version')!r}).")
    return document


def occupied(using=DEFAULT_DB_ALIAS):
    """The models that already hold rows ``migrate`` did not make: [(label, count)]."""
    found = []
    for model in models_to_copy():
        if model is Group:
            continue
        count = model._base_manager.using(using).count()
        if count:
            found.append((model._meta.label, count))
    return found


def _refuse_older(document):
    """BackupError when ``document`` was made before a migration in ``LOADS_FROM``."""
    made = document.get("migrations")
    made = made if isinstance(made, dict) else {}
    for app, (oldest, what) in LOADS_FROM.items():
        name = made.get(app)
        if not isinstance(name, str) or name < oldest:
            raise BackupError(
                f"The backup was made by an older version of the program ({app}.{name or 'unknown'}), before"
                f" {what} ({app}.{oldest}); this version cannot load it and nothing was restored. Restore it"
                " with the version that made it, then make a new backup after upgrading."
            )


def restore(path, using=DEFAULT_DB_ALIAS, max_bytes=MAX_BYTES):
    """Load the backup in ``path`` (at most ``max_bytes`` once decompressed) into the empty database; how many rows."""
    document = read(path, max_bytes)
    _refuse_older(document)
    call_command("migrate", database=using, interactive=False, verbosity=0)
    missing = {
        app: name
        for app, name in document.get("migrations", {}).items()
        if name > _applied_migrations(using).get(app, "")
    }
    if missing:
        raise BackupError(
            "The backup was made by a newer version of the program (migrations "
            + ", ".join(f"{app}.{name}" for app, name in missing.items())
            + ")."
        )
    busy = occupied(using)
    if busy:
        raise BackupError(
            "The database is not empty ("
            + ", ".join(f"{label}: {n}" for label, n in busy)
            + "); restore only into an empty database."
        )
    connection = connections[using]
    with disable_auditlog(), transaction.atomic(using=using), connection.constraint_checks_disabled():
        Group.objects.using(using).all().delete()
        loaded, touched, deferred = 0, set(), []
        try:
            rows = (row for row in document["objects"] if row.get("model") != "sessions.session")
            for item in serializers.deserialize("python", rows, using=using, handle_forward_references=True):
                item.save(using=using)
                touched.add(type(item.object))
                if item.deferred_fields:
                    deferred.append(item)
                loaded += 1
            for item in deferred:
                item.save_deferred_fields(using=using)
            connection.check_constraints(table_names=[m._meta.db_table for m in touched])
        except Exception as error:  # any fault of the file: nothing is stored, and the reason is said
            raise BackupError(f"The backup does not load: {error}") from None
        reset = connection.ops.sequence_reset_sql(no_style(), list(touched))
        with connection.cursor() as cursor:
            for sql in reset:
                cursor.execute(sql)
    return loaded
