"""A round's change as its phones are shown it: the parts of the round page that a save or an
undo changed, drawn once where the change was made (games.live.changes) for each kind of viewer,
so that every stream of the table carries them instead of each phone asking for them."""

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

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_live_change_a_version")
        ]

    def __str__(self):
        return f"game {self.game_id} v{self.version}: round {self.round_number}"
