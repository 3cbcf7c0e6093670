"""Backups that still verify (issue 11 item 6): ``manage.py backup`` and ``restore`` lose nothing, not a
microsecond, and every planilla's verification code still verifies after the round trip."""

import datetime
import gzip
import json
import uuid

import pytest
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.urls import reverse

from audit.context import acting
from audit.models import AuditEntry
from backup import archive
from refereeing.appeals import procedure as appeals
from refereeing.models import Appeal, ClaimEntry, Signature
from refereeing.planilla import verification
from resolutions import register
from resolutions.models import Resolution
from tests.support import planilla_factories as factories
from tests.support.factories import group
from tests.support.rows import force
from tests.support.threads import backups_done
from tournament.accounts import accounts
from tournament.models import Mesa
from tournament.seating import seating


def snapshot():
    """Every row of every model a backup copies, as Django serializes it (times to the microsecond)."""
    return {
        model._meta.label: serializers.serialize(
            "python", model._base_manager.order_by("pk"), use_natural_foreign_keys=True
        )
        for model in archive.models_to_copy()
    }


def a_championship_with_everything():
    """A finished, signed mesa with an appeal ruled; a resolution with an ajuste; the audit trail of it all."""
    group(accounts.ORGANISERS_GROUP)
    champ = factories.championship(director=factories.user("director"))
    finished, _log = factories.short_mesa(factories.mesa(champ))
    in_play = factories.mesa(champ, position=4)
    log = factories.Log(in_play)
    log("mano")
    caida = log("caida", pair="A", player=1)
    appeal = appeals.file_appeal(
        in_play, "B", caida.seq, "No fue caída.", "María Cando", factories.signature_png(), uuid.uuid4(), by=None
    )
    with acting(champ.director, "10.1.2.3"):
        appeals.admit(appeal, by=champ.director)
        appeals.rule(appeal, True, "Con lugar.", undo=True, by=champ.director)
        register.resolve(
            champ,
            "Se cayó una carta.",
            "Se repite el reparto.",
            "Art. 18",
            [in_play],
            ajuste=(in_play, "B", 2),
            by=champ.director,
        )
        seating.assign_table(in_play, seating.free_tables(champ)[-1], in_play.juez, by=champ.director)
    return champ, [finished, in_play]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["copia.json", "copia.json.gz"])
@pytest.mark.slow
def test_a_round_trip_loses_nothing_and_every_planilla_still_verifies(tmp_path, name):
    champ, mesas = a_championship_with_everything()
    codes = [verification.verification_code(m) for m in mesas]
    before = snapshot()
    assert all(
        before[label]
        for label in (
            "refereeing.ClaimEntry",
            "refereeing.Signature",
            "refereeing.Appeal",
            "resolutions.Resolution",
            "audit.AuditEntry",
        )
    )
    assert any(e.created_at.microsecond % 1000 for e in ClaimEntry.objects.all())  # what JSON dumps used to cut
    path = tmp_path / name
    call_command("backup", str(path))
    call_command("flush", interactive=False, verbosity=0)
    assert not Mesa.objects.exists() and not AuditEntry.objects.exists()
    call_command("restore", str(path))
    assert snapshot() == before
    for mesa, code in zip(mesas, codes):
        assert verification.mesa_for_code(code) == mesa
        assert verification.verification_code(Mesa.objects.get(pk=mesa.pk)) == code
    # The database goes on: new rows get new numbers (the sequences follow the restored rows).
    made = factories.mesa(champ, position=5)
    assert made.pk > max(m.pk for m in mesas)
    assert Group.objects.filter(name=accounts.ORGANISERS_GROUP).get().permissions.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_restore_refuses_a_database_that_is_not_empty_and_a_file_that_is_not_a_backup(tmp_path):
    factories.mesa()
    path = tmp_path / "copia.json"
    call_command("backup", str(path))
    rows = snapshot()
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(path))
    assert snapshot() == rows
    for content, message in (
        (b"\x1f\x8b not gzip", "not a backup"),
        (b"[1, 2]", "not a backup"),
        (b'{"format": "mesa-de-control/backup", "version": 7, "objects": []}', "another version"),
    ):
        bad = tmp_path / "bad"
        bad.write_bytes(content)
        with pytest.raises(CommandError, match=message):
            call_command("restore", str(bad))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("restore", str(tmp_path / "missing.json"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_backup_whose_rows_do_not_load_stores_nothing(tmp_path):
    factories.mesa()
    path = tmp_path / "copia.json"
    call_command("backup", str(path))
    document = json.loads(path.read_text())
    for row in document["objects"]:
        if row["model"] == "tournament.mesa":
            row["fields"]["pair_a"] = 999999  # a pair the file does not hold
    path.write_text(json.dumps(document))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="does not load"):
        call_command("restore", str(path))
    assert not Mesa.objects.exists() and not Group.objects.exists()


def made_before_the_sedes(document):
    """``document`` as the version before migration 0018 wrote it: a championship's venue and count of tables,
    each mesa's own PIN, no sede, no physical table."""
    document["migrations"]["tournament"] = "0017_flow_seating"
    rows = []
    for row in document["objects"]:
        if row["model"] in ("tournament.sede", "tournament.table", "tournament.juezday"):
            continue
        fields = row["fields"]
        if row["model"] == "tournament.championship":
            del fields["sede"]
            fields.update(venue="Coliseo de Riobamba", tables=8)
        if row["model"] == "tournament.mesa":
            fields.update(pin="123456", pin_issued_at=None, pin_issued_by=None)
        rows.append(row)
    document["objects"] = rows
    return document


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["antes.json", "antes.json.gz"])
@pytest.mark.slow
def test_a_backup_made_before_the_sedes_is_refused_in_words_and_stores_nothing(tmp_path, name):
    factories.mesa()
    path = tmp_path / name
    call_command("backup", str(path))
    opener = gzip.open if name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        document = made_before_the_sedes(json.load(file))
    with opener(path, "wt", encoding="utf-8") as file:
        json.dump(document, file)
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path))
    message = str(refused.value)
    assert "older version" in message and "tournament.0017_flow_seating" in message
    assert "sedes" in message and "tournament.0018_sedes" in message and "nothing was restored" in message
    assert not archive.occupied()
    # A file that names no migrations at all is refused the same way, never with a traceback.
    del document["migrations"]
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="older version.*unknown"):
        call_command("restore", str(path))
    assert not archive.occupied()


def test_the_code_does_not_depend_on_what_a_round_trip_can_change(db):
    """Times to the second: a copy cut to the millisecond (Django's own JSON dump) gives the same code."""
    mesa, _log = factories.short_mesa()
    code = verification.verification_code(mesa)
    for model, field in ((ClaimEntry, "created_at"), (Signature, "signed_at")):
        for row in model.objects.filter(mesa=mesa):
            when = getattr(row, field)
            model.objects.filter(pk=row.pk).update(**{field: when.replace(microsecond=when.microsecond // 1000 * 1000)})
    assert verification.verification_code(mesa) == code
    first = ClaimEntry.objects.get(mesa=mesa, seq=1)
    ClaimEntry.objects.filter(pk=first.pk).update(created_at=first.created_at + datetime.timedelta(seconds=1))
    assert verification.verification_code(mesa) != code  # a second is a change


def test_a_code_printed_with_microseconds_still_verifies(db):
    mesa, _log = factories.short_mesa()
    from django.conf import settings

    legacy = f"{mesa.pk}-{verification._digest(settings.SECRET_KEY, verification.canonical_record(mesa, precise=True))}"
    assert legacy != verification.verification_code(mesa)
    assert verification.mesa_for_code(legacy) == mesa
    assert verification.mesa_for_code(legacy[:-1] + ("0" if legacy[-1] != "0" else "1")) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_the_control_desk_backs_up_each_time_a_round_starts(tmp_path, people, championship, mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    client = Client()
    client.force_login(people["staff"])
    url = reverse("tournament:start_round", args=[championship.pk, "W", 1])
    with override_settings(BACKUP_DIR=str(tmp_path / "copias")):
        assert client.post(url).status_code == 302
    backups_done()
    made = list((tmp_path / "copias").iterdir())
    assert len(made) == 1 and made[0].name.startswith(f"campeonato-{championship.pk}-W1-")
    document = json.loads(gzip.decompress(made[0].read_bytes()))
    ready = [r for r in document["objects"] if r["model"] == "tournament.mesa"]
    assert ready[0]["fields"]["status"] == "ready"  # made after the round's start was committed
    assert any(r["model"] == "audit.auditentry" and r["fields"]["act"] == "round_started" for r in document["objects"])
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    with override_settings(BACKUP_DIR=""):
        assert client.post(url).status_code == 302
    backups_done()
    assert Mesa.objects.get(pk=mesa.pk).status == Mesa.Status.READY
    assert len(list((tmp_path / "copias").iterdir())) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_failed_automatic_backup_does_not_undo_the_round(tmp_path, people, championship, mesa):
    force(Mesa.objects.filter(pk=mesa.pk), status=Mesa.Status.WAITING)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    client = Client()
    client.force_login(people["staff"])
    with override_settings(BACKUP_DIR=str(blocked)):
        response = client.post(reverse("tournament:start_round", args=[championship.pk, "W", 1]))
    assert response.status_code == 302
    backups_done()
    mesa.refresh_from_db()
    assert mesa.status == Mesa.Status.READY


def test_nothing_is_lost_that_the_planilla_reads(db):
    assert {Appeal, Resolution, AuditEntry, ClaimEntry, Signature} <= set(archive.models_to_copy())
