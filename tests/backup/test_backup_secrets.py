"""Backups that keep secrets and restores within bounds (issue 22 items 5 and 9).

A backup file (``manage.py backup`` and the control desk's at each round
start) is readable by its owner only, from its first byte, and holds no
session: the repro was a 0644 file whose session keys still signed people
in. A restore reads at most ``archive.MAX_BYTES`` once decompressed and
``archive.MAX_DEPTH`` levels deep, and says so: the repros were a 1 MB gzip
bomb that took 2 GB before it was refused and a deeply nested file that
ended in a traceback.
"""

import gzip
import json
import os
import stat
import time
import tracemalloc
import zlib

import pytest
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.urls import reverse

from backup import archive, bounds
from tests.support import planilla_factories as factories
from tests.support.rows import force
from tournament.models import Mesa

pytestmark = pytest.mark.django_db(transaction=True)

OWNER_ONLY = 0o600


@pytest.fixture
def open_umask():
    """The usual umask, under which the backups were world-readable."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("name", ["copia.json", "copia.json.gz"])
def test_a_backup_is_readable_by_its_owner_only_from_its_first_byte(tmp_path, open_umask, monkeypatch, name):
    factories.mesa()
    path = tmp_path / name
    path.write_text("an older file, readable by all")
    path.chmod(0o644)
    seen = []
    rows = archive._rows

    def watched(models):
        # While the rows are written: only the temporary file, already the owner's alone.
        seen.extend((p.name, mode(p)) for p in tmp_path.iterdir() if p != path)
        yield from rows(models)

    monkeypatch.setattr(archive, "_rows", watched)
    call_command("backup", str(path))
    assert len(seen) == 1 and seen[0][0].startswith(f".{name}.") and seen[0][1] == OWNER_ONLY
    assert mode(path) == OWNER_ONLY
    assert [p.name for p in tmp_path.iterdir()] == [name]  # the temporary file became the backup
    archive.read(path)


def test_a_failed_backup_leaves_no_file_behind(tmp_path, monkeypatch):
    factories.mesa()

    def broken(models):
        yield from ()
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(archive, "_rows", broken)
    with pytest.raises(CommandError, match="No space left"):
        call_command("backup", str(tmp_path / "copia.json.gz"))
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_a_backup_holds_no_session_and_its_restore_signs_nobody_in(tmp_path):
    """The repro: 61 of 64 session keys in one backup worked as sign-ins."""
    page = reverse("tournament:detail", args=[factories.mesa().championship_id])
    organiser = factories.user("organizadora", is_staff=True, is_superuser=True)
    clients = [signed_in(Client(), organiser) for _ in range(3)]
    assert Session.objects.count() == 3 and all(c.get(page).status_code == 200 for c in clients)
    path = tmp_path / "copia.json.gz"
    call_command("backup", str(path))
    text = gzip.decompress(path.read_bytes()).decode()
    assert not [row for row in json.loads(text)["objects"] if row["model"].startswith("sessions.")]
    assert not [c for c in clients if c.session.session_key in text]
    call_command("flush", interactive=False, verbosity=0)
    # The new server's cache: with Redis the sessions are kept there too (only this test's: Redis is shared).
    cache.delete_many([KEY_PREFIX + client.session.session_key for client in clients])
    call_command("restore", str(path))
    assert not Session.objects.exists()
    for client in clients:
        assert client.get(page).status_code == 302  # to the sign-in page


@pytest.mark.slow
def test_sessions_in_a_backup_of_an_earlier_version_are_not_restored(tmp_path):
    factories.mesa()
    signed_in(Client(), factories.user("organizadora", is_staff=True))
    path = tmp_path / "copia.json"
    call_command("backup", str(path))
    document = json.loads(path.read_text())
    [session] = Session.objects.all()
    document["objects"].append(
        {
            "model": "sessions.session",
            "pk": session.session_key,
            "fields": {"session_data": session.session_data, "expire_date": session.expire_date.isoformat()},
        }
    )
    path.write_text(json.dumps(document))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path))
    assert Mesa.objects.exists() and not Session.objects.exists()


def test_the_control_desks_backup_is_the_owners_alone_and_holds_no_session(tmp_path, open_umask):
    factories.mesa()
    mesa = Mesa.objects.get()
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    organiser = factories.user("organizadora", is_staff=True, is_superuser=True)
    client = signed_in(Client(), organiser)
    folder = tmp_path / "copias"
    with override_settings(BACKUP_DIR=str(folder)):
        url = reverse("tournament:start_round", args=[mesa.championship_id, mesa.bracket, mesa.round])
        assert client.post(url).status_code == 302
        deadline = time.monotonic() + 20  # it may be made after the request
        while time.monotonic() < deadline and not [p for p in folder.glob("*.gz") if not p.name.startswith(".")]:
            time.sleep(0.1)
    [made] = [p for p in folder.iterdir() if not p.name.startswith(".")]
    assert mode(made) == OWNER_ONLY
    assert mode(folder) == 0o700  # the folder it made for them too: no one else lists the backups
    document = json.loads(gzip.decompress(made.read_bytes()))
    assert not [row for row in document["objects"] if row["model"].startswith("sessions.")]


# --- restore within bounds -----------------------------------------------------------------------


@pytest.mark.slow
def test_a_gzip_bomb_is_refused_before_it_fills_the_memory(tmp_path):
    """The repro: a 1 MB file that unzips to a gigabyte took 2 GB of memory before it was refused."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    spaces = b" " * (16 * 1024 * 1024)
    bomb = b"".join([compressor.compress(spaces) for _ in range(64)] + [compressor.flush()])
    assert len(bomb) < 1.1 * 1024 * 1024
    path = tmp_path / "bomba.json.gz"
    path.write_bytes(bomb)
    tracemalloc.start()
    try:
        with pytest.raises(CommandError, match=f"larger than {archive.MAX_BYTES} bytes once decompressed"):
            call_command("restore", str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.2 * archive.MAX_BYTES
    assert not Mesa.objects.exists()


@pytest.mark.slow
def test_a_smaller_bound_is_chosen_on_the_command_line(tmp_path):
    factories.mesa()
    path = tmp_path / "copia.json.gz"
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()) + b" " * 2 * 1024 * 1024))
    with pytest.raises(CommandError, match="larger than 2097152 bytes once decompressed"):
        call_command("restore", str(path), "--max-mb", "2")
    assert not Mesa.objects.exists()
    call_command("restore", str(path), "--max-mb", "3")
    assert Mesa.objects.exists()


@pytest.mark.parametrize("depth", [200_000, archive.MAX_DEPTH])
@pytest.mark.slow
def test_a_deeply_nested_file_is_refused_with_a_message(tmp_path, depth):
    """The repro: a deeply nested file ended in a traceback."""
    factories.mesa()
    path = tmp_path / "copia.json"
    call_command("backup", str(path))
    document = json.loads(path.read_text())
    entry = next(row for row in document["objects"] if row["model"] == "tournament.mesa")
    text = json.dumps(document).replace(json.dumps(entry), "[" * depth + "]" * depth, 1)
    path.write_text(text)
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match=f"nested deeper than {archive.MAX_DEPTH} levels"):
        call_command("restore", str(path))
    assert not Mesa.objects.exists()


@pytest.mark.parametrize(
    "text, fits",
    [
        ('{"a": [1, {"b": 2}]}', True),  # 3 levels
        ('{"a": [1, {"b": []}]}', False),
        ('["]]]]", "[[[[[[", "\\"[[[[", {"\\\\": "{{{{"}]', True),  # brackets in strings are text
        ('[[[]], [[]], [], {"x": [1]}]', True),
        ("[[[[]]]]", False),
    ],
)
def test_the_depth_counts_the_brackets_outside_strings(text, fits):
    json.loads(text)
    if fits:
        bounds.check_depth(text, 3)
    else:
        with pytest.raises(bounds.OutOfBounds, match="nested deeper than 3 levels"):
            bounds.check_depth(text, 3)


@pytest.mark.parametrize("text", ["[" * 200_000, "[1, 2}", '{"a": "b]"'])
def test_brackets_that_do_not_pair_are_not_json(text):
    with pytest.raises(ValueError, match="do not pair"):
        bounds.check_depth(text, 3)
