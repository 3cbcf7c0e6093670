from django.db import migrations, models

from refereeing.engine.lookalikes import key


def fill(apps, schema_editor):
    """Each pair's key; a pair whose name reads as an earlier one's gets its number after the name."""
    Pair = apps.get_model("tournament", "Pair")
    taken = set()
    for pair in Pair.objects.order_by("championship_id", "pk").iterator():
        name_key = key(pair.name)
        if (pair.championship_id, name_key) in taken:
            # Two pairs that people cannot tell apart: the later one is renamed
            # visibly rather than the migration failing on the constraint.
            pair.name = f"{pair.name[:110]} ({pair.pk})"
            name_key = key(pair.name)
        taken.add((pair.championship_id, name_key))
        pair.name_key = name_key
        pair.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_pair_token_unique"),
    ]

    operations = [
        migrations.AddField(
            model_name="pair",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=480),
            preserve_default=False,
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="pair",
            name="pair_name_unique_in_championship",
        ),
        migrations.AddConstraint(
            model_name="pair",
            constraint=models.UniqueConstraint(
                fields=("championship", "name_key"),
                name="pair_name_key_unique_in_championship",
                violation_error_message="Another pair of this championship already has this name.",
            ),
        ),
    ]
