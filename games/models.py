"""The table's records: groups of friends, their players, game nights, games, rounds, hands.

Scores are never re-implemented here: a hand's points come from games.engine and are stored,
so the score table is one query.
"""

import secrets
from dataclasses import dataclass, field, replace
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.db.models import FilteredRelation, Q
from django.db.models.functions import Lower
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.engine.cards import format_cards, parse_hand

GAME_KINDS = [(kind.slug, kind.name) for kind in engine.KINDS.values()]
# A game started within this long of the group's last one joins the same game night, so play
# past midnight stays on one night.
SAME_EVENING = timedelta(hours=8)
NAME_LENGTH = 40


def normalise_name(name: str) -> str:
    """A player's name as stored: inner runs of spaces folded, none at the ends."""
    return " ".join(str(name).split())


class Group(models.Model):
    """A table of friends: everything its members create belongs to it."""

    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="table_groups"
    )
    # An IANA zone ("Europe/Paris") every time is shown in; blank: each phone's own zone.
    time_zone = models.CharField(max_length=64, blank=True, default="")

    def __str__(self):
        return self.name

    @classmethod
    def found(cls, user, name: str) -> "Group":
        """A new group with `user` as its owner, as signing up makes one."""
        group = cls.objects.create(name=name)
        Membership.objects.create(user=user, group=group, role=Membership.OWNER)
        return group

    def owners(self):
        return self.memberships.filter(role=Membership.OWNER)

    def add_member(self, user) -> tuple["Membership", bool]:
        """`user` in this group (as a member if new); True when they were not in it before."""
        return Membership.objects.get_or_create(user=user, group=self)


class Membership(models.Model):
    """A login's place in one group; a login may be in several."""

    OWNER, MEMBER = "owner", "member"
    ROLES = [(OWNER, "Owner"), (MEMBER, "Member")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=ROLES, default=MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "group"], name="one_membership_per_group")
        ]

    def __str__(self):
        return f"{self.user} in {self.group}"

    @property
    def is_owner(self) -> bool:
        return self.role == self.OWNER

    def is_last_owner(self) -> bool:
        return self.is_owner and not self.group.owners().exclude(pk=self.pk).exists()


class Removal(models.Model):
    """A login an owner removed from a group, and when: links made before then cannot bring
    them back (only a new invitation can)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="removals"
    )
    removed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "group"], name="removal_user_group")]

    def __str__(self):
        return f"{self.user} removed from {self.group}"

    @classmethod
    def keeps_out(cls, user, group_id, link_made) -> bool:
        """The login was removed from the group after the link was made."""
        return cls.objects.filter(user=user, group_id=group_id, removed_at__gte=link_made).exists()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def in_a_week():
    return timezone.now() + INVITATION_LIFE


INVITATION_LIFE = timedelta(days=7)
REMOVED = (
    "You were removed from this group after this link was made: ask an owner for a new invitation."
)


class InvitationQuerySet(models.QuerySet):
    def open_for(self, group):
        """The group's links that may still be used: not revoked, not expired, not used up."""
        links = self.filter(group=group, revoked_at__isnull=True, expires_at__gt=timezone.now())
        return links.filter(
            models.Q(max_uses__isnull=True) | models.Q(uses__lt=models.F("max_uses"))
        )


class Invitation(models.Model):
    """A link to join a group, until it is revoked, expires or is used up."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=in_a_week)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Invitation to {self.group}"

    def get_absolute_url(self):
        return reverse("invitation", args=[self.token])

    def problem(self) -> str | None:
        """Why this link can no longer be used, or None while it can."""
        if self.revoked_at:
            return "This invitation was revoked by the group's owner."
        if self.expires_at <= timezone.now():
            return "This invitation has expired."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This invitation has been used as many times as it allowed."
        return None

    def accept(self, user) -> tuple[Membership, bool]:
        """Join `user` to the group; True when they were not a member before. A member opening
        the link again uses nothing. Raises Refused when the link can no longer be used."""
        with transaction.atomic():
            link = Invitation.objects.select_for_update().get(pk=self.pk)
            existing = Membership.objects.filter(user=user, group_id=link.group_id).first()
            if existing:
                return existing, False
            problem = link.problem()
            if problem:
                raise Refused(problem)
            if Removal.keeps_out(user, link.group_id, link.created_at):
                raise Refused(REMOVED)
            link.uses += 1
            link.save(update_fields=["uses"])
            self.uses = link.uses
            return Membership.objects.create(user=user, group_id=link.group_id), True


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
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
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


class GameNightQuerySet(models.QuerySet):
    def for_new_game(self, group, date) -> "GameNight":
        """The game night a new game joins: the one whose last game started within the same
        evening (past midnight included) when the game is for today, else the group's night
        of that date, or a new one."""
        if date == timezone.localdate():
            recent = (
                Game.objects.filter(group=group, created_at__gte=timezone.now() - SAME_EVENING)
                .select_related("night")
                .order_by("-created_at")
                .first()
            )
            if recent:
                return recent.night
        night = self.filter(group=group, date=date).first()
        return night or self.create(group=group, date=date)


class GameNight(models.Model):
    """An evening at the table; the games started that evening share it."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    objects = GameNightQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-created_at"]

    def __str__(self):
        return f"Game night {self.date:%a %d %b %Y}"

    def get_absolute_url(self):
        return reverse("night", args=[self.pk])


class GameQuerySet(models.QuerySet):
    def start(
        self,
        *,
        group,
        kind: str,
        players,
        rules: dict,
        date=None,
        user=None,
        night=None,
        created_at=None,
        first_round=True,
    ) -> "Game":
        """Start a game: the players seated in order from the first dealer going left (names
        or Players), its options stored, and its first round open for entry."""
        definition = engine.kind_of(kind)
        stored = definition.rules_from(rules).to_dict()
        with transaction.atomic():
            if players and isinstance(players[0], str):
                players = Player.objects.named(group, players)
            if night is None:
                night = GameNight.objects.for_new_game(group, date or timezone.localdate())
            game = self.create(
                group=group,
                night=night,
                kind=definition.slug,
                rules=stored,
                created_by=user,
                created_at=created_at or timezone.now(),
            )
            seats = Seat.objects.bulk_create(
                Seat(game=game, player=player, position=i) for i, player in enumerate(players)
            )
            if first_round:
                Round.objects.create(game=game, number=1, dealer=seats[0])
        return game


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
    # Counts the game's changes (a hand saved, the game finished or reopened): phones following
    # the table live compare it with the one they showed, one cheap query per poll.
    version = models.PositiveIntegerField(default=1)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.kind_def.name} on {self.night.date:%d %b %Y}"

    def get_absolute_url(self):
        return reverse("game", args=[self.pk])

    @property
    def kind_def(self) -> engine.GameKind:
        """The game's description in the engine: words, rounds, deck, options, scoring."""
        return engine.KINDS[self.kind]

    @property
    def engine_rules(self):
        """The rules as the engine's dataclass."""
        cached = getattr(self, "_engine_rules", None)
        if cached is None or cached[0] != self.rules:
            cached = (self.rules, self.kind_def.rules_from(self.rules))
            self._engine_rules = cached
        return cached[1]

    @property
    def options(self) -> list[tuple[str, str]]:
        return self.kind_def.describe(self.engine_rules)

    @property
    def pool_limit(self) -> int | None:
        return self.kind_def.pool_limit(self.engine_rules)

    def seatings(self, seats, before: int | None = None) -> list[engine.Seating]:
        """Each seat's running total (of the rounds before `before`, or all), as the
        engine's table rules see it."""
        hands = Hand.objects.filter(round__game=self)
        if before is not None:
            hands = hands.filter(round__number__lt=before)
        by_seat: dict[int, dict[int, int]] = {seat.pk: {} for seat in seats}
        for seat_id, number, points in hands.values_list("seat_id", "round__number", "points"):
            by_seat[seat_id][number] = points
        return self.kind_def.seatings(
            ((seat.pk, seat.position, by_seat[seat.pk]) for seat in seats), self.engine_rules
        )

    def rematch_seats(self) -> list["Seat"]:
        """The seats in the same order around the table, starting from the next dealer: the
        player to the left of whoever dealt the last round played (out of the pool or not,
        everyone is back in)."""
        seats = list(self.seats.select_related("player"))
        rounds = self.rounds.order_by("-number")
        played = rounds.filter(Q(completed_at__isnull=False) | Q(hands__isnull=False)).first()
        last = played or rounds.first()
        if last is None:
            return seats
        positions = [seat.position for seat in seats]
        first = engine.next_dealer(positions, last.dealer.position, set(positions))
        start = positions.index(first)
        return seats[start:] + seats[:start]

    def current_round(self) -> "Round | None":
        """The round being played: the first one not complete (None when the game is over)."""
        if self.finished_at:
            return None
        return self.rounds.filter(completed_at__isnull=True).select_related("dealer").first()

    def changed(self) -> int:
        """Count a change of the game, inside the transaction that makes it (which holds the
        game's row): a phone that sees the new version then reads what was committed with it."""
        self.version += 1
        Game.objects.filter(pk=self.pk).update(version=self.version)
        return self.version

    def _lock(self) -> "Game":
        """Lock the game's rounds, then the game: the same order as a save, which locks its
        round and may then finish the game, so the two never wait on each other."""
        list(Round.objects.select_for_update().filter(game_id=self.pk).order_by("number"))
        return Game.objects.select_for_update().get(pk=self.pk)

    def finish(self) -> None:
        """End the game now. An open round keeps what was entered in it (its hands count; a
        round with none shows nowhere) and goes on if the game is reopened."""
        with transaction.atomic():
            game = self._lock()
            if game.finished_at:
                self.finished_at = game.finished_at
                return
            game.finished_at = self.finished_at = timezone.now()
            game.save(update_fields=["finished_at"])
            game.end_guest_passes()
            self.version = game.changed()

    def end_guest_passes(self) -> None:
        """A finished game's guest links end for good, even if it is reopened."""
        self.guest_passes.filter(ended_at__isnull=True).update(ended_at=self.finished_at)

    def reopen(self) -> None:
        """Take a finished game back into play; its next round opens if it has none open."""
        with transaction.atomic():
            game = self._lock()
            if not game.finished_at:
                self.finished_at = None
                return
            game.finished_at = self.finished_at = None
            game.save(update_fields=["finished_at"])
            self.version = game.changed()
            last = game.rounds.order_by("-number").first()
            if last is None:
                Round.objects.create(game=game, number=1, dealer=game.seats.first())
            elif last.completed_at is not None:
                last = Round.locked(game.pk, last.number)
                last.open_next(last.table(), finish=False)


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


GUEST_LIFE = timedelta(hours=12)


class GuestPass(models.Model):
    """A link that lets a phone without an account enter hands in one game, for 12 hours or
    until the game is finished."""

    game = models.ForeignKey("Game", on_delete=models.CASCADE, related_name="guest_passes")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # When the game was finished: the pass ended for good (reopening the game does not
    # bring it back; an owner makes a new one).
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Guest pass to game {self.game_id}"

    def get_absolute_url(self):
        return reverse("guest_join", args=[self.game_id, self.token])

    @property
    def expires_at(self):
        return self.created_at + GUEST_LIFE

    def problem(self) -> str | None:
        """Why this pass no longer lets anyone in, or None while it does."""
        if self.ended_at or self.game.finished_at:
            return (
                "This game was finished, so this guest link no longer lets anyone in: "
                "ask at the table for a new one."
            )
        if self.expires_at <= timezone.now():
            return "This guest link has expired: guest links last 12 hours."
        return None


class Conflict(Exception):
    """The hand was saved from another phone since this one loaded it."""

    def __init__(self, saved: "Hand"):
        super().__init__("saved from another phone")
        self.saved = saved


class Refused(Exception):
    """A save the table's rules refuse: the message says why, for the panel."""


@dataclass
class Entry:
    """What a phone sends for one hand."""

    outcome: str
    cards: str = ""
    entered: int | None = None  # points entered as a number
    version: int = 0  # the version of the hand the phone last saw (0: none)
    extra: dict = field(default_factory=dict)  # what more the game asks (Oklahoma's upcard)


@dataclass
class RoundTable:
    """A round as a save decides on it: the game's seats (with their players), the round's
    hands by seat, and the seats still playing in it."""

    seats: list["Seat"]
    hands: dict[int, "Hand"]
    playing: list["Seat"]
    earlier: list[engine.Seating] | None  # totals before the round, where they decide play

    def hands_in_order(self) -> list["Hand"]:
        return [self.hands[seat.pk] for seat in self.seats if seat.pk in self.hands]


class Round(models.Model):
    """One round (or deal) of a game: its dealer, its hands, and whether it is complete."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    dealer = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="+")
    completed_at = models.DateTimeField(null=True, blank=True)
    # How the round ended, where its game names it from all its hands (a knock, an undercut...).
    result = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number")
        ]

    def __str__(self):
        return f"{self.game.kind_def.round_word.capitalize()} {self.number} of {self.game}"

    def get_absolute_url(self):
        return reverse("round", args=[self.game_id, self.number])

    @property
    def kind(self) -> engine.GameKind:
        return self.game.kind_def

    @property
    def hand_size(self) -> int:
        return self.kind.hand_size(self.number)

    @property
    def wild_rank(self) -> int | None:
        return self.kind.wild_rank(self.number, self.game.engine_rules)

    @property
    def wild_label(self) -> str | None:
        return self.kind.wild_label(self.number, self.game.engine_rules)

    def table(self, seats: list[Seat] | None = None) -> RoundTable:
        """The round's seats, hands and players still in, in one query (the seats with their
        hands in this round, or the hands when the seats are known; one more in pool play,
        where the totals before it decide who plays)."""
        game = self.game
        if seats is None:
            seats = list(
                game.seats.select_related("player")
                .annotate(this_hand=FilteredRelation("hands", condition=Q(hands__round=self)))
                .select_related("this_hand")
            )
            found = [hand for seat in seats if (hand := getattr(seat, "this_hand", None))]
        else:
            found = list(self.hands.all())
        by_pk = {seat.pk: seat for seat in seats}
        hands = {}
        for hand in found:
            hand.round, hand.seat = self, by_pk[hand.seat_id]
            hands[hand.seat_id] = hand
        playing, earlier = seats, None
        if self.kind.totals_decide_play(game.engine_rules):
            earlier = game.seatings(seats, before=self.number)
            still = {s.key for s in self.kind.playing(earlier, game.engine_rules)}
            playing = [seat for seat in seats if seat.pk in still]
        return RoundTable(seats, hands, playing, earlier)

    def playing_seats(self) -> list[Seat]:
        """The seats still in the game in this round (pool play puts players out)."""
        return self.table().playing

    def problems(self, table: RoundTable) -> list[str]:
        """What keeps the round from being complete, in words for the table."""
        by_pk = {seat.pk: seat for seat in table.seats}
        missing = [seat.player.name for seat in table.playing if seat.pk not in table.hands]
        winners = [
            by_pk[seat_id].player.name
            for seat_id, hand in table.hands.items()
            if hand.outcome == engine.WENT_OUT
        ]
        enders = [
            by_pk[seat_id].player.name
            for seat_id, hand in table.hands.items()
            if hand.outcome in self.kind.round_enders
        ]
        return self.kind.round_problems(missing, winners, enders)

    def score(self, entry: Entry) -> engine.Scored:
        """One entry scored on its own, as the panel shows it while cards are tapped."""
        return self.kind.score(
            entry.outcome,
            entry.cards,
            self.number,
            self.game.engine_rules,
            entry.entered,
            entry.extra,
        )

    def settled(self, table: RoundTable) -> engine.RoundScore:
        """The round scored as a whole from its saved hands (in seat order), with the words
        of its report given the players' names."""
        hands = table.hands_in_order()
        settled = self.kind.settle([hand.in_round for hand in hands], self.game.engine_rules)
        report = settled.report
        if report is not None:
            names = [hand.seat.player.name for hand in hands]
            report.headline = report.headline.format(*names)
            for part in report.hands:
                part.name = names[part.hand]
            for choice in report.choices:
                choice.words = choice.words.format(*names)
            if report.choice_hand is not None:
                hand = report.choice_for = hands[report.choice_hand]
                report.choice_keep = [
                    (f"extra_{name}", value)
                    for name, value in hand.extra.items()
                    if name != report.choice_name
                ]
        return settled

    # ---------------------------------------------------------------- saving

    @classmethod
    def locked(cls, game_id: int, number: int) -> "Round":
        """The round and its game, locked until the transaction ends: every save of a round
        decides with what it read under this lock (SQLite's IMMEDIATE transactions lock the
        whole file)."""
        return (
            cls.objects.select_for_update()
            .select_related("game")
            .get(game_id=game_id, number=number)
        )

    def save_hand(
        self,
        seat: Seat,
        entry: Entry,
        user=None,
        by_name: str | None = None,
        seats=None,
        guest_pass_id: int | None = None,
    ):
        """Save one hand as one transaction under the round's lock, then recompute what
        follows from the round. Returns (hand, scored), the hand's round (`hand.round`) as the
        save left it, with its game; raises Refused with the reason,
        or Conflict with the saved hand when another phone changed it since `entry.version`
        (an identical save, like a double tap, is not a conflict). `seats` are the game's
        seats with their players, if the caller has them; `guest_pass_id` the guest link
        the save comes through."""
        with transaction.atomic():
            round_ = Round.locked(self.game_id, self.number)
            game = round_.game
            if game.finished_at:
                raise Refused("this game is finished: reopen it to change a hand")
            table = round_.table(seats)
            was_doubled = round_.doubled(table)
            if seat.pk not in {playing.pk for playing in table.playing}:
                word = round_.kind.round_word
                raise Refused(f"{seat.player.name} is out of the game in this {word}")
            scored = round_.score(entry)
            if scored.error:
                raise Refused(scored.error)
            cards = format_cards(scored.cards)
            stored_entry = entry.entered if entry.outcome == engine.POINTS else None
            extra = {name: value for name, value in entry.extra.items() if value}
            hand = table.hands.get(seat.pk)
            if hand is not None:
                if (hand.outcome, hand.cards, hand.entered_points, hand.extra) == (
                    entry.outcome,
                    cards,
                    stored_entry,
                    extra,
                ):
                    return hand, scored
                if entry.version != hand.version:
                    raise Conflict(hand)
            others = [
                parse_hand(other.cards)
                for seat_id, other in table.hands.items()
                if seat_id != seat.pk and other.cards
            ]
            problem = round_.kind.round_supply_error(others + [scored.cards], game.engine_rules)
            if problem:
                raise Refused(problem)
            name = _saver_name(user, by_name)
            if hand is None:
                hand = table.hands[seat.pk] = Hand(round=round_, seat=seat, version=0)
                old_summary, old_points, before = "", None, {}
            else:
                old_summary, old_points, before = hand.summary, hand.points, hand.entry_state
            hand.outcome, hand.cards, hand.entered_points = entry.outcome, cards, stored_entry
            hand.extra = extra
            hand.version += 1
            hand.updated_at, hand.updated_by, hand.updated_by_name = timezone.now(), user, name
            hand.guest_pass_id = guest_pass_id
            round_.rescore(table, written=hand, was_doubled=was_doubled)
            version = game.changed()
            HandChange.record(hand, user, name, old_summary, old_points, before, version)
            round_.update_completion(table)
        self.completed_at = round_.completed_at
        return hand, scored

    def last_save(self) -> "HandChange | None":
        """The save an undo would take back: the round's latest that is not undone itself
        (undos are not saves; they go back one save at a time)."""
        return (
            HandChange.objects.filter(round=self, undo=False, undone_at=None)
            .select_related("seat__player")
            .order_by("-changed_at", "-pk")
            .first()
        )

    def undo_last(
        self,
        user=None,
        expected: int | None = None,
        by_name: str | None = None,
        guest_pass_id: int | None = None,
    ):
        """Take back the round's last save under the round's lock: the hand goes back to what
        it was before (a first save removes the hand), the undo is recorded in the history,
        and what follows from the round is recomputed. `expected` is the save the phone
        offered to undo; another one since is refused. A guest (`guest_pass_id`) may undo only
        the saves made through that guest link. Returns the undo's HandChange."""
        with transaction.atomic():
            round_ = Round.locked(self.game_id, self.number)
            game = round_.game
            if game.finished_at:
                raise Refused("this game is finished: reopen it to undo a save")
            last = round_.last_save()
            if last is None:
                raise Refused(f"nothing was saved in this {round_.kind.round_word} to undo")
            who = last.seat.player.name
            if expected is not None and last.pk != expected:
                raise Refused(f"the last save is now {who}'s hand: look at it before undoing")
            if guest_pass_id is not None and last.guest_pass_id != guest_pass_id:
                raise Refused(f"{who}'s hand was saved from another phone: only it can undo that")
            table = round_.table()
            hand = table.hands.get(last.seat_id)
            if hand is None:
                raise Refused(f"{who}'s hand is no longer saved")
            name = _saver_name(user, by_name)
            old_summary, old_points, now_state = hand.summary, hand.points, hand.entry_state
            if last.before:
                hand.outcome = last.before["outcome"]
                hand.cards = last.before["cards"]
                hand.entered_points = last.before["entered_points"]
                hand.extra = last.before.get("extra", {})
                hand.version += 1
                hand.updated_at, hand.updated_by, hand.updated_by_name = timezone.now(), user, name
                hand.guest_pass_id = guest_pass_id
                round_.rescore(table, written=hand)
            else:
                hand.delete()
                del table.hands[last.seat_id]
                hand = None
                round_.rescore(table)
            last.undone_at = timezone.now()
            last.save(update_fields=["undone_at"])
            undo = HandChange.objects.create(
                round=round_,
                seat=last.seat,
                changed_by=user,
                changed_by_name=name,
                old_summary=old_summary,
                old_points=old_points,
                new_summary=hand.summary if hand else NOT_ENTERED,
                new_points=hand.points if hand else 0,
                before=now_state,
                after=last.before,
                undo=True,
                game_version=game.changed(),
                guest_pass_id=guest_pass_id,
            )
            round_.forget_unplayed_next()
            round_.update_completion(table)
        self.completed_at = round_.completed_at
        return undo

    def forget_unplayed_next(self) -> None:
        """Drop the next round when nothing was entered in it yet, so it opens again from
        this round as it now stands (its dealer and who is still in may have changed)."""
        self.game.rounds.filter(number=self.number + 1, hands__isnull=True).delete()

    def doubled(self, table: RoundTable) -> bool:
        """The round's winner changes the others' counts (Rummy's four pure sequences)."""
        return self.kind.doubled((hand.outcome, hand.all_pure) for hand in table.hands.values())

    def rescore(self, table: RoundTable, written: "Hand | None" = None, was_doubled=None) -> None:
        """Recompute the round's hands from their entries, as the whole round decides (a Rummy
        winner's four pure sequences double the others' counts), and store what changed: the
        hand just `written` always, the others only if their points moved. When the round's
        doubling is as it was, only the written hand is scored again."""
        kind, rules = self.kind, self.game.engine_rules
        if written is not None:
            own = self.score(written.entry)
            written.melds, written.all_pure = own.melds, own.all_pure
            doubled = self.doubled(table)
            if doubled == was_doubled and kind.scored_alone:
                points = own.points if own.points is not None else written.points
                written.points = kind.hand_points(written.outcome, points, doubled, rules)
                written.save()
                return
        hands = table.hands_in_order()
        scored = [self.score(hand.entry) for hand in hands]
        settled = kind.settle(
            [
                replace(
                    hand.in_round,
                    points=s.points if s.points is not None else hand.points,
                    all_pure=s.all_pure,
                )
                for hand, s in zip(hands, scored, strict=True)
            ],
            rules,
        )
        points = settled.points
        if settled.result != self.result:
            self.result = settled.result
            Round.objects.filter(pk=self.pk).update(result=self.result)
        moved = []
        for hand, s, total in zip(hands, scored, points, strict=True):
            if (hand.points, hand.melds, hand.all_pure) != (total, s.melds, s.all_pure):
                hand.points, hand.melds, hand.all_pure = total, s.melds, s.all_pure
                if hand is not written:
                    # Changed by another hand's save: the version that save gives the game (its
                    # row is locked), so phones following live are sent this hand's line too.
                    hand.moved_in_version = self.game.version + 1
                    moved.append(hand)
        if written is not None:
            written.save()
        if moved:
            Hand.objects.bulk_update(moved, ["points", "melds", "all_pure", "moved_in_version"])

    def update_completion(self, table: RoundTable) -> None:
        """Mark the round complete or not; when it completes, open the next round or, when
        the game is over, finish the game. Runs inside the save, under the round's lock."""
        complete = not self.problems(table)
        if complete != (self.completed_at is not None):
            self.completed_at = timezone.now() if complete else None
            Round.objects.filter(pk=self.pk).update(completed_at=self.completed_at)
        if complete:
            self.open_next(table)

    def open_next(self, table: RoundTable, finish: bool = True) -> "Round | None":
        """Open the round after this one (dealt by the next player still in to the left), or
        finish the game when this was its last round (unless told not to: reopening)."""
        game, kind, rules = self.game, self.kind, self.game.engine_rules
        rounds = dict(game.rounds.values_list("number", "completed_at"))
        if self.number + 1 in rounds:
            return None
        before = {seating.key: seating.total for seating in table.earlier or ()}
        seatings = [
            engine.Seating(
                seat.pk,
                seat.position,
                before.get(seat.pk, 0)
                + (table.hands[seat.pk].points if seat.pk in table.hands else 0),
            )
            for seat in table.seats
        ]
        playing = kind.playing(seatings, rules)
        completed = sum(1 for at in rounds.values() if at is not None)
        if kind.is_over(completed, seatings, rules):
            if finish and not game.finished_at:
                game.finished_at = timezone.now()
                game.save(update_fields=["finished_at"])
                game.end_guest_passes()
            return None
        seats = {seat.position: seat for seat in table.seats}
        dealt = next(seat.position for seat in table.seats if seat.pk == self.dealer_id)
        points = {
            seat.position: table.hands[seat.pk].points
            for seat in table.seats
            if seat.pk in table.hands
        }
        dealer = kind.next_dealer(
            sorted(seats), dealt, {seating.position for seating in playing}, points
        )
        return Round.objects.create(game=game, number=self.number + 1, dealer=seats[dealer])


def _saver_name(user, by_name: str | None) -> str:
    """Who saved, as the change history names them (a member, or a guest's device)."""
    return (by_name or (user.get_username() if user else ""))[:150]


NOT_ENTERED = "not entered"


class Hand(models.Model):
    """What one player scored in a round, from the cards left in their hand or as a number."""

    OUTCOMES = [
        (engine.CARDS, "Cards counted"),
        (engine.WENT_OUT, "Went out / declared"),
        (engine.POINTS, "Points entered"),
        (engine.DROP, "Drop"),
        (engine.MIDDLE_DROP, "Middle drop"),
        (engine.WRONG_DECLARATION, "Wrong declaration"),
        (engine.DRAWN, "Drawn hand"),
    ]

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="hands")
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
    def summary(self) -> str:
        """The hand in a few words for its change history."""
        if self.outcome == engine.POINTS:
            return f"{self.entered_points} point{pluralize(self.entered_points)} entered"
        game = self.round.game
        label = outcome_label(game, self.outcome)
        said = game.kind_def.extra_words(self.extra, game.engine_rules)
        label = f"{label} ({said})" if said else label
        return f"{label}: {self.cards}" if self.cards else label


def outcome_label(game: Game, outcome: str) -> str:
    """How the round page names a hand's outcome in this game."""
    return dict(game.kind_def.outcomes(game.engine_rules)).get(outcome) or dict(Hand.OUTCOMES).get(
        outcome, outcome
    )


class HandChange(models.Model):
    """One save of a hand that changed it, or the undo of one: who, when, and what it was
    before and after. Kept by round and seat, so an undo that removes a hand keeps its history."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="changes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="changes")
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
    def record(
        cls, hand: Hand, user, name: str, old_summary: str, old_points, before, game_version
    ) -> "HandChange":
        return cls.objects.create(
            round_id=hand.round_id,
            seat_id=hand.seat_id,
            before=before,
            after=hand.entry_state,
            changed_by=user,
            changed_by_name=name[:150],
            old_summary=old_summary,
            old_points=old_points,
            new_summary=hand.summary,
            new_points=hand.points,
            game_version=game_version,
            guest_pass_id=hand.guest_pass_id,
        )
