"""The people a group plays with, each named once and painted one colour everywhere."""

from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

NAME_LENGTH = 40


def normalise_name(name: str) -> str:
    """A name as stored (a player's, a group's, a guest's phone): inner runs of spaces folded,
    none at the ends."""
    return " ".join(str(name).split())


# Colours that stay apart for colour-blind eyes (Okabe-Ito, then Tol's muted), one per player.
PLAYER_COLOURS = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255",
    "#117733", "#332288", "#999933", "#AA4499", "#44AA99",
]  # fmt: skip


class PlayerQuerySet(models.QuerySet):
    def named(self, group, names: list[str]) -> list["Player"]:
        """The group's players of these names (any case), adding those it does not have yet."""
        known = {player.name.lower(): player for player in self.filter(group=group)}
        players = []
        for name in names:
            name = normalise_name(name)
            player = known.get(name.lower())
            if player is None:
                player = known[name.lower()] = self.create(group=group, name=name)
            players.append(player)
        return players


class Player(models.Model):
    name = models.CharField(max_length=NAME_LENGTH)
    group = models.ForeignKey("Group", on_delete=models.CASCADE, related_name="players")
    created_at = models.DateTimeField(default=timezone.now)
    # Index into PLAYER_COLOURS, fixed when the player is added: one colour on every page.
    colour_index = models.PositiveSmallIntegerField(default=0)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            # One "Ann" per group, whatever the case: names are compared as players say them.
            models.UniqueConstraint(
                "group", Lower("name"), name="unique_player_name_per_group_any_case"
            )
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if self._state.adding and not self.colour_index:
            self.colour_index = Player.objects.filter(group_id=self.group_id).count()
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("player", args=[self.pk])

    @property
    def colour(self) -> str:
        return PLAYER_COLOURS[self.colour_index % len(PLAYER_COLOURS)]

    @property
    def colour_class(self) -> str:
        """The CSS class that paints the player's swatch (no inline styles: strict CSP)."""
        return f"colour-{self.colour_index % len(PLAYER_COLOURS)}"
