"""The Directors' group: a championship's Director is chosen among its members.

Every user already named Director of a championship joins it, so that the
championship form keeps offering them.
"""

from django.db import migrations

DIRECTORS = "Directores"


def make_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Championship = apps.get_model("tournament", "Championship")
    directors, _ = Group.objects.get_or_create(name=DIRECTORS)
    User = apps.get_model("auth", "User")
    directors.user_set.add(*User.objects.filter(pk__in=Championship.objects.exclude(director=None).values("director")))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=DIRECTORS).delete()


class Migration(migrations.Migration):
    dependencies = [("tournament", "0008_constraint_messages"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(make_group, remove_group)]
