"""A round's change as its phones are shown it: the parts of the round page that a save or an
undo changed, drawn once where the change was made (games.live.changes) for each kind of viewer,
so that every stream of the table carries them instead of each phone asking for them. Kept for
a minute (`games.live.changes.KEEP`): the table does not grow with the games played."""

from django.db import models


class LiveChange(models.Model):
    """What changed on a round's page from the game's version `version - 1` to `version`."""

    game = models.ForeignKey("Game", on_delete=models.CASCADE, related_name="live_changes")
    version = models.PositiveIntegerField()
    round_number = models.PositiveSmallIntegerField()
    # The page's changed parts (HTML) by who they were drawn for: "member" or "guest" (a guest
    # link that may not undo the last save), "guest:<link>" (the one that may), each with the
    # time zone the times are shown in ("member|Europe/Paris").
    parts = models.JSONField(default=dict)
    # Kept only while a stream may still carry it: a phone further behind asks.
    made_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_live_change_a_version")
        ]

    def __str__(self):
        return f"game {self.game_id} v{self.version}: round {self.round_number}"
