"""A round's change as its phones are shown it: the parts of the round page that a save or an
undo changed, drawn once where the change was made (games.live.changes) for each kind of viewer,
so that every stream of the table carries them instead of each phone asking for them. Kept for
a minute (`games.live.changes.KEEP`): the table does not grow with the games played."""

import json
import zlib

from django.db import models


class PackedJSON(models.BinaryField):
    """JSON kept zlib-compressed: a change's drawn parts (HTML for two or three kinds of viewer,
    8-12 kB at a table of five) fit in the row's own page in about a fifth of the bytes, instead
    of spilling into overflow pages that each save writes to the database (and to SQLite's
    write-ahead log twice over)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def get_db_prep_value(self, value, connection, prepared=False):
        if value is None:
            return None
        packed = zlib.compress(json.dumps(value, separators=(",", ":")).encode(), 6)
        return super().get_db_prep_value(packed, connection, prepared)

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(zlib.decompress(bytes(value)))

    def to_python(self, value):
        return json.loads(value) if isinstance(value, str) else value

    def value_to_string(self, obj):
        return json.dumps(self.value_from_object(obj))


class LiveChange(models.Model):
    """What changed on a round's page from the game's version `version - 1` to `version`."""

    # Found by game through one_live_change_a_version (game first): no index of its own to
    # write on every save.
    game = models.ForeignKey(
        "Game", on_delete=models.CASCADE, related_name="live_changes", db_index=False
    )
    version = models.PositiveIntegerField()
    round_number = models.PositiveSmallIntegerField()
    # The page's changed parts (HTML) by who they were drawn for: "member" or "guest" (a guest
    # link that may not undo the last save), "guest:<link>" (the one that may), each with the
    # time zone the times are shown in ("member|Europe/Paris").
    parts = PackedJSON(default=dict)
    # Kept only while a stream may still carry it: a phone further behind asks.
    made_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_live_change_a_version")
        ]

    def __str__(self):
        return f"game {self.game_id} v{self.version}: round {self.round_number}"
