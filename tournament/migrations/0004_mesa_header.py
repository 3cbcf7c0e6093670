"""Each mesa keeps the rules it started with: ``Mesa.header``.

The mesas that already have claims get their header from their
championship's rules as they are now: the rules their logs have been
replayed with until today. (A championship whose stored rules are not
valid could not be replayed: its mesas keep no header and the claim log
refuses them as before.)
"""

from django.db import migrations, models

# The rule sets as the rules engine had them (engines/rules/rules.py), frozen here so that a later change of the
# engine never changes what this migration did: each profile's settings, and the values each setting takes.
PROFILES = {
    "riobamba": {
        "caida_limpia_points": 2, "doble_ronda": 4, "caida_en_ronda": None, "cuatro_caidas": None,
        "ronda_limit": None, "treinta_y_ocho": False, "juego_y_veo_upheld": "retract", "arranche": "set_aside",
        "zapateria": "ends_mesa", "chicas_to_win": 2,
    },
    "pichincha": {
        "caida_limpia_points": 2, "doble_ronda": "chica", "caida_en_ronda": None, "cuatro_caidas": "chica",
        "ronda_limit": 30, "treinta_y_ocho": True, "juego_y_veo_upheld": "penalty", "arranche": "opponents",
        "zapateria": "title", "chicas_to_win": 2,
    },
    "a_todo_rigor": {
        "caida_limpia_points": 4, "doble_ronda": "chica", "caida_en_ronda": "chica", "cuatro_caidas": "chica",
        "ronda_limit": 30, "treinta_y_ocho": True, "juego_y_veo_upheld": "penalty", "arranche": "opponents",
        "zapateria": "eliminates", "chicas_to_win": 2,
    },
}
CHOICES = {
    "caida_limpia_points": (2, 4),
    "doble_ronda": (4, "chica"),
    "caida_en_ronda": (None, 4, "chica"),
    "cuatro_caidas": (None, 4, "chica"),
    "ronda_limit": (None, 30),
    "treinta_y_ocho": (False, True),
    "juego_y_veo_upheld": ("retract", "penalty"),
    "arranche": ("set_aside", "opponents"),
    "zapateria": ("ends_mesa", "title", "eliminates"),
    "chicas_to_win": (1, 2, 3),
}


def settings_of(profile, overrides):
    """The settings of ``profile`` with ``overrides``, or None when the engine would refuse them."""
    overrides = dict(overrides or {})
    for name, value in overrides.items():
        # bool is an int in Python: 1 must not pass for True, nor True for 1.
        if not any(value == c and type(value) is type(c) for c in CHOICES.get(name, ())):
            return None
    return {**PROFILES[profile], **overrides} if profile in PROFILES else None


def fill_headers(apps, schema_editor):
    Mesa = apps.get_model("tournament", "Mesa")
    for mesa in Mesa.objects.filter(last_seq__gt=0, header__isnull=True).select_related("championship"):
        championship = mesa.championship
        settings = settings_of(championship.ruleset_profile, championship.ruleset_overrides)
        if settings is None:
            continue
        mesa.header = {"ruleset": championship.ruleset_profile, "settings": settings,
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
