import django.db.models.deletion
from django.db import migrations, models

import games.models.live


def forget_drawn_changes(apps, schema_editor):
    """The changes drawn so far: kept a minute for the streams, and read as JSON text, not as
    the packed parts that follow. A phone that missed one asks for it."""
    apps.get_model("games", "LiveChange").objects.all().delete()


class Migration(migrations.Migration):
    """A save writes fewer pages: no index of their own for a hand change's round and a drawn
    change's game (each found through the index whose first column it is), and a drawn
    change's parts packed (zlib) within the row's page instead of overflowing it."""

    dependencies = [
        ("games", "0017_night_link"),
    ]

    operations = [
        migrations.AlterField(
            model_name="handchange",
            name="round",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="changes",
                to="games.round",
            ),
        ),
        migrations.AlterField(
            model_name="livechange",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="live_changes",
                to="games.game",
            ),
        ),
        migrations.RunPython(forget_drawn_changes, migrations.RunPython.noop),
        migrations.RemoveField(model_name="livechange", name="parts"),
        migrations.AddField(
            model_name="livechange",
            name="parts",
            field=games.models.live.PackedJSON(default=dict),
        ),
    ]
