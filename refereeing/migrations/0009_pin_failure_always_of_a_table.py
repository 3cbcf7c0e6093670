import django.db.models.deletion
from django.db import migrations, models


def forget_guesses_of_no_table(apps, schema_editor):
    """A wrong PIN stored without its table counted against its address alone, for a quarter of an hour: those
    kept from before are past that now, or close to it."""
    apps.get_model("refereeing", "PinFailure").objects.filter(table=None).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("refereeing", "0008_appeal_field_names"),
        ("tournament", "0018_sedes"),
    ]

    operations = [
        migrations.RunPython(forget_guesses_of_no_table, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="pinfailure",
            name="table_number",
        ),
        migrations.AlterField(
            model_name="pinfailure",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="tournament.table"
            ),
        ),
    ]
