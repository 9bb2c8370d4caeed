"""Game nights, the games played on them, their seats, and the guest links that let a phone
without an account into one game."""

import json
import logging
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.db import DatabaseError, models, transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone

from games import engine, plain
from games.live import announce as live

from .groups import new_token
from .hands import Hand
from .players import Player
from .rounds import Round

log = logging.getLogger(__name__)

GAME_KINDS = [(kind.slug, kind.name) for kind in engine.KINDS.values()]
# A game started within this long of the group's last one joins the same game night, so play
# past midnight stays on one night.
SAME_EVENING = timedelta(hours=8)


class GameNightQuerySet(models.QuerySet):
    def for_new_game(self, group, date) -> "GameNight":
        """The game night a new game joins: when the game is for today, the night being played
        (one of its games started within the last SAME_EVENING): tonight's, or last night's
        played on past midnight (a night of yesterday with a game started on its own date);
        else the group's night of that date, or a new one. A game written up just now for an
        earlier date (last week's, yesterday's) is no night being played."""
        if date == timezone.localdate():
            played_on_its_date = Exists(
                Game.objects.filter(
                    night=OuterRef("night"), created_at__date=OuterRef("night__date")
                )
            )
            recent = (
                Game.objects.filter(
                    group=group,
                    created_at__gte=timezone.now() - SAME_EVENING,
                    night__date__range=(date - timedelta(days=1), date),
                )
                .filter(Q(night__date=date) | Q(played_on_its_date))
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

    group = models.ForeignKey("Group", on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    created_at = models.DateTimeField(default=timezone.now)

    objects = GameNightQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-created_at"]

    def __str__(self):
        return f"Game night {self.date:%a %d %b %Y}"

    def get_absolute_url(self):
        return reverse("night", args=[self.pk])


class NightLink(models.Model):
    """A night's picture shared by a link, for a group's chat: whoever holds the link sees the
    picture (first names and points) and the lines of its story, nothing else of the group,
    and a chat shows the picture under the link (Open Graph). A member makes it and may stop
    it; a new link after that is a new secret, the old one dead."""

    night = models.OneToOneField(GameNight, on_delete=models.CASCADE, related_name="link")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"Shared link to {self.night}"

    def get_absolute_url(self):
        return reverse("shared_night", args=[self.token])


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
            # The night's earlier games point their phones on to this one (a guest's too, which
            # follows the stream of the game it is on): each changes.
            for earlier in self.select_for_update().filter(night=night).exclude(pk=game.pk):
                earlier.changed()
            live.night_changed(night.pk)
        return game


class Game(models.Model):
    group = models.ForeignKey("Group", on_delete=models.CASCADE, related_name="games")
    night = models.ForeignKey("GameNight", on_delete=models.PROTECT, related_name="games")
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
    # Until when a round page's stream, on any worker of any server, follows the game (its hub
    # marks it, games.live.hub): a save or an undo draws its live change only while one may.
    followed_until = models.DateTimeField(null=True, blank=True)
    # ... and until when a guest's round page follows it: its changes are drawn for guests
    # only while one may (a table of members alone draws them once, not twice).
    guests_followed_until = models.DateTimeField(null=True, blank=True)

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
        """The rules as the engine's dataclass (frozen: made once for each kind and options
        in this process, as every request of a game asks them)."""
        cached = getattr(self, "_engine_rules", None)
        if cached is None or cached[0] is not self.rules:  # read, or given new options
            cached = (self.rules, _rules_of(self.kind, json.dumps(self.rules, sort_keys=True)))
            self._engine_rules = cached
        return cached[1]

    @property
    def options(self) -> list[tuple[str, str]]:
        return self.kind_def.describe(self.engine_rules)

    @property
    def pool_limit(self) -> int | None:
        return self.kind_def.pool_limit(self.engine_rules)

    def seatings(self, seats, before: int | None = None, rows=None) -> list[engine.Seating]:
        """Each seat's running total as the engine's table rules see it, from its hands'
        points as (seat id, round number, points) rows: those given, or the game's hands read
        here (of the rounds before `before`, or all)."""
        if rows is None:
            hands = Hand.objects.filter(round__game=self)
            if before is not None:
                hands = hands.filter(round__number__lt=before)
            rows = hands.values_list("seat_id", "round__number", "points")
        by_seat: dict[int, dict[int, int]] = {seat.pk: {} for seat in seats}
        for seat_id, number, points in rows:
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

    def next_in_night(self) -> "Game | None":
        """The first game of the same night started after this one and still in play: where
        the table went on."""
        later = Game.objects.filter(night_id=self.night_id, group_id=self.group_id)
        later = later.filter(created_at__gt=self.created_at, finished_at=None)
        return later.order_by("created_at").first()

    def changed(self) -> int:
        """Count a change of the game, inside the transaction that makes it (which holds the
        game's row): a phone that sees the new version then reads what was committed with it."""
        self.version += 1
        plain.update(Game, self.pk, version=self.version)
        live.game_changed(self)
        return self.version

    def tell_the_night(self) -> None:
        """This game ended or came back into play: once that is committed, the night's other
        games change too, so that the pages pointing on from them follow (a guest's list of
        tonight's games, "the table has gone on"). Each in a transaction of its own after this
        one's, never holding two games' rows at once (two games finishing at the same moment
        must not wait on each other)."""
        night_id, pk = self.night_id, self.pk

        def tell():
            others = Game.objects.filter(night_id=night_id).exclude(pk=pk)
            for other in others.values_list("pk", flat=True):
                try:
                    with transaction.atomic():
                        locked = Game.objects.select_for_update().filter(pk=other).first()
                        if locked is not None:
                            locked.changed()
                except DatabaseError:
                    # What was committed stands (the finish, the save that ended the game): its
                    # phone is answered as it was taken; that game's phones see the next change.
                    log.warning("telling game %s of game %s's end failed", other, pk, exc_info=True)

        transaction.on_commit(tell, robust=True)

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
            self.version = game.changed()
            game.tell_the_night()

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
            game.tell_the_night()
            last = game.rounds.order_by("-number").first()
            if last is None:
                Round.objects.create(game=game, number=1, dealer=game.seats.first())
            elif last.completed_at is not None:
                last = Round.locked(game.pk, last.number)
                last.open_next(last.table(), finish=False)


class Seat(models.Model):
    """A player's place at a game; position 0 dealt first and the deal passes left."""

    game = models.ForeignKey("Game", on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="seats")
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
    """A link that lets a phone without an account enter hands in one game and in the games
    of the same game night started after it (the rematch, the next game), for 12 hours: a
    guest stays in for the night, and sees a finished game's final scores."""

    game = models.ForeignKey("Game", on_delete=models.CASCADE, related_name="guest_passes")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # When the pass was ended for good, if it was (passes made before guests stayed for the
    # night ended when their game was finished).
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
        if self.ended_at:
            return "This guest link has ended: ask at the table for a new one."
        if self.expires_at <= timezone.now():
            return "This guest link has expired: guest links last 12 hours."
        return None

    def night_games(self):
        """The games this pass lets its guest into: its own, and those of the same game night
        started after it (a rematch, the next game of the evening)."""
        game = self.game
        later = Q(night_id=game.night_id, group_id=game.group_id, created_at__gte=game.created_at)
        return Game.objects.filter(Q(pk=game.pk) | later)


@lru_cache(maxsize=1024)
def _rules_of(kind: str, stored: str):
    """The engine's rules of a game of `kind` whose options are `stored` (JSON); raises
    CardError when they are bad (not kept)."""
    return engine.KINDS[kind].rules_from(json.loads(stored))
