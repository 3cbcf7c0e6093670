"""The two groups of people: organisers run championships, jueces referee mesas.

Organisers are staff users in "Organizadores": they hold every permission on
the tournament's models plus ``run_championship``. Jueces are the pool from
which tables get their referee ("Jueces").
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ORGANISERS = "Organizadores"
JUECES = "Jueces"


def make_groups(apps, schema_editor):
    # Permissions are normally made after every migration has run; the
    # group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    organisers, _ = Group.objects.get_or_create(name=ORGANISERS)
    organisers.permissions.add(*Permission.objects.filter(content_type__app_label="tournament"))
    Group.objects.get_or_create(name=JUECES)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=[ORGANISERS, JUECES]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0002_organisers_tables_constraints"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(make_groups, remove_groups)]
