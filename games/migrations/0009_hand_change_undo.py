"""A change remembers the entry before and after it, so a save can be undone, and its round
and seat, so its history stays when an undo removes the hand."""

import django.db.models.deletion
from django.db import migrations, models


def fill_round_and_seat(apps, schema_editor):
    HandChange = apps.get_model("games", "HandChange")
    Hand = apps.get_model("games", "Hand")
    for hand in Hand.objects.only("pk", "round_id", "seat_id").iterator():
        HandChange.objects.filter(hand_id=hand.pk).update(round_id=hand.round_id, seat_id=hand.seat_id)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_group_time_zone"),
    ]

    operations = [
        migrations.AddField(
            model_name="handchange",
            name="round",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="changes", to="games.round"),
        ),
        migrations.AddField(
            model_name="handchange",
            name="seat",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="changes", to="games.seat"),
        ),
        migrations.AlterField(
            model_name="handchange",
            name="hand",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="changes", to="games.hand"),
        ),
        migrations.AddField(
            model_name="handchange",
            name="before",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="handchange",
            name="after",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="handchange",
            name="undo",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="handchange",
            name="undone_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_round_and_seat, migrations.RunPython.noop, elidable=True),
    ]
