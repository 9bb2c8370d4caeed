"""A player's hand in a round, what a phone sends for it, and the history of its changes."""

import json
from dataclasses import dataclass, field

from django.conf import settings
from django.db import models
from django.template.defaultfilters import pluralize
from django.utils import timezone

from games import engine, plain

NOT_ENTERED = "not entered"


@dataclass
class Entry:
    """What a phone sends for one hand."""

    outcome: str
    cards: str = ""
    entered: int | None = None  # points entered as a number
    version: int = 0  # the version of the hand the phone last saw (0: none)
    extra: dict = field(default_factory=dict)  # what more the game asks (Oklahoma's upcard)
    # The phone's own key for what it is saving (kept with its draft until the server has it):
    # a save behind only this phone's own earlier saves of it is no conflict.
    save_key: str = ""

    def state(self, cards: str) -> dict:
        """The entry as a hand stores it, with its cards read into `cards` (canonical
        notation): points only where they are entered, only what more it says that is filled."""
        points = self.entered if self.outcome == engine.POINTS else None
        said = {name: value for name, value in self.extra.items() if value}
        state = {"outcome": self.outcome, "cards": cards, "entered_points": points}
        return state | ({"extra": said} if said else {})


def entry_key(state: dict) -> str:
    """What makes two stored entries the same hand, as one string: the outcome, the cards in
    any order, the points entered, what more it says. A save of the same key is no change
    (a double tap, a resend whose answer was lost); the page compares keys, never entries."""
    cards = sorted(str(state.get("cards", "")).upper().split())
    said = sorted((name, str(value).upper()) for name, value in (state.get("extra") or {}).items())
    return json.dumps([state.get("outcome"), cards, state.get("entered_points"), said])


@dataclass(frozen=True)
class Saver:
    """Who saves a change, as the game's records name them: a member (their login), or a
    guest's phone ("guest on Bob's phone") with the guest link it came in by."""

    user: object = None
    name: str = ""
    guest_pass_id: int | None = None

    @classmethod
    def of(cls, user=None, by_name: str | None = None, guest_pass_id=None) -> "Saver":
        name = by_name or (user.get_username() if user else "")
        return cls(user, name[:150], guest_pass_id)

    def may_undo(self, change: "HandChange") -> bool:
        """Members may undo any save; a guest link only the saves made through it."""
        return self.guest_pass_id is None or change.guest_pass_id == self.guest_pass_id


class Hand(models.Model):
    """What one player scored in a round, from the cards left in their hand or as a number."""

    OUTCOMES = list(engine.NAMES.items())

    round = models.ForeignKey("Round", on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey("Seat", on_delete=models.CASCADE, related_name="hands")
    outcome = models.CharField(max_length=20, choices=OUTCOMES, default=engine.CARDS)
    cards = models.CharField(max_length=200, blank=True)  # canonical notation
    entered_points = models.IntegerField(null=True, blank=True)
    # What more the game asks of an entry ({"upcard": "7S"} in Oklahoma Gin), as entered.
    extra = models.JSONField(default=dict, blank=True)
    # Derived by the engine from the cards and the round; stored for the score table.
    points = models.IntegerField(default=0)
    melds = models.JSONField(default=list, blank=True)
    all_pure = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    # The game's version whose save (of another hand) last changed this hand's points: Rummy's
    # double, Gin's knock scored once the other hand is in.
    moved_in_version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # Who saved it last, as the change history names them (a member, or a guest's device),
    # and the guest link it was saved through, if it was.
    updated_by_name = models.CharField(max_length=150, blank=True)
    guest_pass = models.ForeignKey(
        "GuestPass", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
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
        return self.outcome == engine.POINTS

    @property
    def went_out(self) -> bool:
        """This player won the round (went out, or declared and won)."""
        return self.outcome == engine.WENT_OUT

    @property
    def leftover(self) -> list[str]:
        """The cards of the hand that are in none of its melds."""
        left = self.cards.split()
        for meld in self.melds:
            for card in meld:
                if card in left:
                    left.remove(card)
        return left

    @property
    def entry(self) -> Entry:
        """What was entered, as a phone sends it."""
        return Entry(self.outcome, self.cards, self.entered_points, self.version, self.extra)

    @property
    def in_round(self) -> engine.HandInRound:
        """The hand as its round is scored from."""
        return engine.HandInRound(self.outcome, self.cards, self.points, self.all_pure, self.extra)

    @property
    def entry_state(self) -> dict:
        """What was entered, as a change records it to restore it on an undo."""
        state = {
            "outcome": self.outcome,
            "cards": self.cards,
            "entered_points": self.entered_points,
        }
        return state | ({"extra": self.extra} if self.extra else {})

    @property
    def entry_key(self) -> str:
        return entry_key(self.entry_state)

    def write(self, state: dict, saver: Saver) -> None:
        """Put an entry (as `Entry.state` gives it) into the hand as its next version, saved by
        `saver`; the caller scores it and stores it."""
        self.outcome, self.cards = state["outcome"], state["cards"]
        self.entered_points, self.extra = state["entered_points"], state.get("extra", {})
        self.version += 1
        self.updated_at, self.updated_by = timezone.now(), saver.user
        self.updated_by_name, self.guest_pass_id = saver.name, saver.guest_pass_id

    @property
    def summary(self) -> str:
        """The hand in a few words for its change history."""
        if self.outcome == engine.POINTS:
            return f"{self.entered_points} point{pluralize(self.entered_points)} entered"
        game = self.round.game
        label = outcome_label(game, self.outcome)
        said = game.kind_def.extra_words(self.extra, game.engine_rules)
        label = f"{label} ({said})" if said else label
        return f"{label}: {self.cards}" if self.cards else label


def outcome_label(game, outcome: str) -> str:
    """How the round page names a hand's outcome in this game."""
    named = dict(game.kind_def.outcomes(game.engine_rules))
    return named.get(outcome) or engine.NAMES.get(outcome, outcome)


class HandChange(models.Model):
    """One save of a hand that changed it, or the undo of one: who, when, and what it was
    before and after. Kept by round and seat, so an undo that removes a hand keeps its history."""

    # Found by round through change_round_version (round first): no index of its own to write
    # on every save.
    round = models.ForeignKey(
        "Round", on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    seat = models.ForeignKey("Seat", on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    changed_at = models.DateTimeField(default=timezone.now)
    changed_by_name = models.CharField(max_length=150, blank=True)  # kept through exports
    # The guest link the change was made through (a guest may undo only those saves).
    guest_pass = models.ForeignKey(
        "GuestPass", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Written by the app from the hand: unbounded, so a summary never fails to fit.
    old_summary = models.TextField(blank=True)
    new_summary = models.TextField()
    old_points = models.IntegerField(null=True, blank=True)
    new_points = models.IntegerField()
    # The entry before and after ({"outcome", "cards", "entered_points"}; {} for no hand),
    # so a save can be undone.
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    undo = models.BooleanField(default=False)  # this change undid an earlier save
    undone_at = models.DateTimeField(null=True, blank=True)  # this save was undone then
    # The game's version this change made: phones following the table live ask what changed
    # since the version they show.
    game_version = models.PositiveIntegerField(default=0)
    # The key the saving phone gave its entry ("" for none, and for an undo): a resend of it
    # whose answer was lost is known as this phone's own.
    save_key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-changed_at", "-pk"]
        indexes = [models.Index(fields=["round", "game_version"], name="change_round_version")]

    def __str__(self):
        where = f"{self.seat.player} in round {self.round.number}"
        return f"{where}: {self.old_summary} -> {self.new_summary}"

    @property
    def removed_hand(self) -> bool:
        """This undo took back a first save: the hand is not entered any more."""
        return self.undo and self.after == {}

    @classmethod
    def made_by_key(cls, hand: Hand, save_key: str) -> bool:
        """The hand's latest change was saved with `save_key`: the versions since the one the
        phone started from are this phone's own saves of it, whose answers it never got."""
        if not save_key:
            return False
        latest = cls.objects.filter(round_id=hand.round_id, seat_id=hand.seat_id).first()
        return latest is not None and not latest.undo and latest.save_key == save_key

    @classmethod
    def record(
        cls,
        hand: Hand,
        saver: Saver,
        old_summary: str,
        old_points,
        before,
        game_version,
        save_key: str = "",
    ) -> "HandChange":
        change = cls(
            save_key=save_key,
            round_id=hand.round_id,
            seat_id=hand.seat_id,
            before=before,
            after=hand.entry_state,
            changed_by=saver.user,
            changed_by_name=saver.name,
            old_summary=old_summary,
            old_points=old_points,
            new_summary=hand.summary,
            new_points=hand.points,
            game_version=game_version,
            guest_pass_id=hand.guest_pass_id,
        )
        plain.save(change)  # as `objects.create` writes it, without its compiling
        return change
