from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0009_directors_group")]
    operations = [
        migrations.AddField(
            model_name="pair", name="token",
            field=models.CharField(max_length=64, null=True, editable=False, verbose_name="private link"),
        ),
    ]
