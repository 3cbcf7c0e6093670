"""Each mesa keeps the rules it started with: ``Mesa.header``.

The mesas that already have claims get their header from their
championship's rules as they are now: the rules their logs have been
replayed with until today. (A championship whose stored rules are not
valid could not be replayed: its mesas keep no header and the claim log
refuses them as before.)
"""

from django.db import migrations, models

from refereeing.engine.rules import RuleSetError, build_ruleset


def fill_headers(apps, schema_editor):
    Mesa = apps.get_model("tournament", "Mesa")
    for mesa in Mesa.objects.filter(last_seq__gt=0, header__isnull=True).select_related("championship"):
        championship = mesa.championship
        try:
            ruleset = build_ruleset(championship.ruleset_profile, championship.ruleset_overrides)
        except RuleSetError:
            continue
        settings = ruleset.settings()
        mesa.header = {"ruleset": ruleset.profile, "settings": settings,
                       "players": 2 * championship.players_per_pair, "first_dealer": mesa.first_dealer}
        mesa.save(update_fields=["header"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0003_groups"),
    ]

    operations = [
        migrations.AddField(
            model_name="mesa",
            name="header",
            field=models.JSONField(
                blank=True, editable=False, null=True, verbose_name="rules it started with",
                help_text="Set with the first claim, never changed: the rules the log is replayed with.",
            ),
        ),
        migrations.RunPython(fill_headers, migrations.RunPython.noop),
    ]
