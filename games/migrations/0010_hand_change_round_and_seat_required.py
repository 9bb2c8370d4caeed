import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_hand_change_undo"),
    ]

    operations = [
        migrations.AlterField(
            model_name="handchange",
            name="round",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="changes", to="games.round"),
        ),
        migrations.AlterField(
            model_name="handchange",
            name="seat",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="changes", to="games.seat"),
        ),
    ]
