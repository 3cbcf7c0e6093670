import unicodedata
from functools import cache

from confusable_homoglyphs import confusables
from django.db import migrations, models

# The key names are compared by, as engines/lookalikes.py made it, frozen here so that a later change of the
# engine never changes what this migration did.
IGNORABLE_RANGES = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2800, 0x2800), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def invisible(char):
    point = ord(char)
    return unicodedata.category(char) == "Cf" or any(low <= point <= high for low, high in IGNORABLE_RANGES)


@cache
def representatives():
    """Each confusable character -> the least character of its class (single characters only)."""
    parent = {}

    def find(char):
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e\u200f")
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent}


def key(text):
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(char for char in text if not unicodedata.combining(char) and not invisible(char))
    skeleton = "".join(representatives().get(char, char) for char in text)
    return " ".join(skeleton.casefold().split())


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
