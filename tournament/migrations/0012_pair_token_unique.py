from django.db import migrations, models

import tournament.models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_pair_token_fill")]
    operations = [
        migrations.AlterField(
            model_name="pair", name="token",
            field=models.CharField(default=tournament.models.new_pair_token, editable=False, max_length=64,
                                   unique=True, verbose_name="private link"),
        ),
    ]
