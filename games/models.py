"""The table's records: groups of friends, their players, game nights, games, rounds, hands.

Scores are never re-implemented here: a hand's points come from games.engine (via
games.scoring), and stored so the score table is one query.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from games.engine.rummy13 import RummyRules
from games.engine.three_thirteen import ThreeThirteenRules

THREE_THIRTEEN = "three-thirteen"
RUMMY13 = "rummy13"
GAME_KINDS = [(THREE_THIRTEEN, "Three Thirteen"), (RUMMY13, "13-card Rummy")]


class Group(models.Model):
    """A table of friends: everything its members create belongs to it."""

    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.name


class Membership(models.Model):
    """A login's place in one group."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")

    def __str__(self):
        return f"{self.user} in {self.group}"


# Colours that stay apart for colour-blind eyes (Okabe-Ito, then Tol's muted), one per player.
PLAYER_COLOURS = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255",
    "#117733", "#332288", "#999933", "#AA4499", "#44AA99",
]  # fmt: skip


class Player(models.Model):
    name = models.CharField(max_length=40)
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    created_at = models.DateTimeField(default=timezone.now)
    # Index into PLAYER_COLOURS, fixed when the player is added: one colour on every page.
    colour_index = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], name="unique_player_name_per_group")
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


class GameNight(models.Model):
    """An evening at the table; the games started that evening share it."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date", "-created_at"]

    def __str__(self):
        return f"Game night {self.date:%a %d %b %Y}"

    def get_absolute_url(self):
        return reverse("night", args=[self.pk])


class Game(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    night = models.ForeignKey(GameNight, on_delete=models.PROTECT, related_name="games")
    kind = models.CharField(max_length=20, choices=GAME_KINDS)
    # The options chosen when the game was created, so old results keep their meaning.
    rules = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.get_kind_display()} on {self.night.date:%d %b %Y}"

    def get_absolute_url(self):
        return reverse("game", args=[self.pk])

    @property
    def is_three_thirteen(self) -> bool:
        return self.kind == THREE_THIRTEEN

    @property
    def engine_rules(self):
        """The rules as the engine's dataclass."""
        if self.is_three_thirteen:
            return ThreeThirteenRules.from_dict(self.rules)
        return RummyRules.from_dict(self.rules)


class Seat(models.Model):
    """A player's place at a game; position 0 dealt first and the deal passes left."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat_position"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_player_per_game"),
        ]

    def __str__(self):
        return f"{self.player} (seat {self.position + 1})"


class Round(models.Model):
    """A round of Three Thirteen or a deal of 13-card Rummy."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    dealer = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="+")
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number")
        ]

    def __str__(self):
        return f"Round {self.number} of {self.game}"

    def get_absolute_url(self):
        return reverse("round", args=[self.game_id, self.number])


class Hand(models.Model):
    """What one player scored in a round, from the cards left in their hand or as a number."""

    CARDS = "cards"
    WENT_OUT = "went_out"  # Three Thirteen: went out; Rummy: declared and won
    POINTS = "points"  # entered as a number
    DROP = "drop"
    MIDDLE_DROP = "middle_drop"
    WRONG_DECLARATION = "wrong_declaration"
    OUTCOMES = [
        (CARDS, "Cards counted"),
        (WENT_OUT, "Went out / declared"),
        (POINTS, "Points entered"),
        (DROP, "Drop"),
        (MIDDLE_DROP, "Middle drop"),
        (WRONG_DECLARATION, "Wrong declaration"),
    ]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="hands")
    outcome = models.CharField(max_length=20, choices=OUTCOMES, default=CARDS)
    cards = models.CharField(max_length=200, blank=True)  # canonical notation
    entered_points = models.IntegerField(null=True, blank=True)
    # Derived by games.scoring from the cards and the round; stored for the score table.
    points = models.IntegerField(default=0)
    melds = models.JSONField(default=list, blank=True)
    all_pure = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="unique_hand_per_seat")
        ]

    def __str__(self):
        return f"{self.seat.player} in round {self.round.number}"

    @property
    def manual(self) -> bool:
        return self.outcome == self.POINTS

    @property
    def leftover(self) -> list[str]:
        """The cards of the hand that are in none of its melds."""
        left = self.cards.split()
        for meld in self.melds:
            for card in meld:
                if card in left:
                    left.remove(card)
        return left


class HandChange(models.Model):
    """One save of a hand that changed it: who, when, and what it was before and after."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    changed_at = models.DateTimeField(default=timezone.now)
    changed_by_name = models.CharField(max_length=150, blank=True)  # kept through exports
    old_summary = models.CharField(max_length=250, blank=True)
    new_summary = models.CharField(max_length=250)
    old_points = models.IntegerField(null=True, blank=True)
    new_points = models.IntegerField()

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.hand}: {self.old_summary} -> {self.new_summary}"
