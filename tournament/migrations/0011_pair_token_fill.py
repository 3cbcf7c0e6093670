"""Every pair registered before private links gets its own (one query per pair: a new token each)."""

import secrets

from django.db import migrations


def fill(apps, schema_editor):
    Pair = apps.get_model("tournament", "Pair")
    for pair in Pair.objects.filter(token=None).only("pk"):
        Pair.objects.filter(pk=pair.pk).update(token=secrets.token_urlsafe(24))


class Migration(migrations.Migration):
    dependencies = [("tournament", "0010_pair_token_add")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
