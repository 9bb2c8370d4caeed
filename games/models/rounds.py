"""A round of a game and its save and undo: each one transaction under the round's lock that
decides with what it read there, then works out what follows from the round."""

from dataclasses import dataclass, replace
from functools import cache

from django.db import connection, models, transaction
from django.urls import reverse
from django.utils import timezone

from games import engine, plain
from games.engine.cards import format_cards, parse_hand

from .errors import Conflict, Question, Refused
from .hands import NOT_ENTERED, Entry, Hand, HandChange, Saver, entry_key
from .players import Player


@dataclass
class RoundTable:
    """A round as a save decides on it: the game's seats (with their players), the round's
    hands by seat, and the seats still playing in it."""

    seats: list
    hands: dict[int, Hand]
    playing: list
    earlier: list[engine.Seating] | None  # totals before the round, where they decide play

    def hands_in_order(self) -> list[Hand]:
        return [self.hands[seat.pk] for seat in self.seats if seat.pk in self.hands]


class Round(models.Model):
    """One round (or deal) of a game: its dealer, its hands, and whether it is complete."""

    game = models.ForeignKey("Game", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    dealer = models.ForeignKey("Seat", on_delete=models.PROTECT, related_name="+")
    completed_at = models.DateTimeField(null=True, blank=True)
    # How the round ended, where its game names it from all its hands (a knock, an undercut...).
    result = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_round_number")
        ]

    def __str__(self):
        return f"{self.kind_def.round_word.capitalize()} {self.number} of {self.game}"

    def get_absolute_url(self):
        return reverse("round", args=[self.game_id, self.number])

    @property
    def kind_def(self) -> engine.GameKind:
        """The game's description in the engine, as `Game.kind_def`."""
        return self.game.kind_def

    @property
    def hand_size(self) -> int:
        return self.kind_def.hand_size(self.number)

    @property
    def wild_rank(self) -> int | None:
        return self.kind_def.wild_rank(self.number, self.game.engine_rules)

    @property
    def wild_label(self) -> str | None:
        return self.kind_def.wild_label(self.number, self.game.engine_rules)

    def table(self, seats: list | None = None) -> RoundTable:
        """The round's seats, hands and players still in, in one query (the seats with their
        hands in this round, or the hands when the seats are known; one more in pool play,
        where the totals before it decide who plays)."""
        game = self.game
        if seats is None:
            seats, found = self._seats_and_hands()
        else:
            found = [
                plain.instance(Hand, row)[0]
                for row in plain.fetch_all(_hands_sql(connection.vendor), [self.pk])
            ]
        by_pk = {seat.pk: seat for seat in seats}
        hands = {}
        for hand in found:
            hand.round, hand.seat = self, by_pk[hand.seat_id]
            hands[hand.seat_id] = hand
        playing, earlier = seats, None
        if self.kind_def.totals_decide_play(game.engine_rules):
            earlier = game.seatings(seats, before=self.number)
            still = {s.key for s in self.kind_def.playing(earlier, game.engine_rules)}
            playing = [seat for seat in seats if seat.pk in still]
        return RoundTable(seats, hands, playing, earlier)

    def _seats_and_hands(self) -> tuple[list, list]:
        """The game's seats in order, with their players, and the round's hands: one plain
        statement, as every save reads it (the ORM's compiling cost more than the query)."""
        Seat = _seat_model()
        game = self.game
        seats, hands = [], []
        for row in plain.fetch_all(_seats_and_hands_sql(connection.vendor), [self.pk, game.pk]):
            seat, end = plain.instance(Seat, row)
            player, end = plain.instance(Player, row, end)
            Seat.game.field.set_cached_value(seat, game)
            Seat.player.field.set_cached_value(seat, player)
            seats.append(seat)
            if row[end] is not None:
                hands.append(plain.instance(Hand, row, end)[0])
        return seats, hands

    def playing_seats(self) -> list:
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
            if hand.outcome in self.kind_def.round_enders
        ]
        return self.kind_def.round_problems(missing, winners, enders)

    def score(self, entry: Entry) -> engine.Scored:
        """One entry scored on its own, as the panel shows it while cards are tapped."""
        return self.kind_def.score(
            entry.outcome,
            entry.cards,
            self.number,
            self.game.engine_rules,
            entry.entered,
            entry.extra,
        )

    def settled(self, table: RoundTable) -> engine.RoundScore:
        """The round scored as a whole from its saved hands, in seat order."""
        hands = [hand.in_round for hand in table.hands_in_order()]
        return self.kind_def.settle(hands, self.game.engine_rules)

    # ---------------------------------------------------------------- saving

    @classmethod
    def locked(cls, game_id: int, number: int) -> "Round":
        """The round and its game, locked until the transaction ends: every save of a round
        decides with what it read under this lock (SQLite's IMMEDIATE transactions lock the
        whole file). One plain statement, as the ORM's `select_for_update()` with the game
        would send it (both rows locked), without its compiling on every save."""
        Game = Round.game.field.related_model
        found = plain.fetch_all(_locked_sql(connection.vendor), [game_id, number])
        if not found:
            raise cls.DoesNotExist("No such round")
        round_, end = plain.instance(cls, found[0])
        game, _ = plain.instance(Game, found[0], end)
        cls.game.field.set_cached_value(round_, game)
        return round_

    def save_hand(
        self,
        seat,
        entry: Entry,
        user=None,
        by_name: str | None = None,
        seats=None,
        guest_pass_id: int | None = None,
        saver: Saver | None = None,
        ask: bool = False,
        within=None,
    ):
        """Save one hand as one transaction under the round's lock, then recompute what
        follows from the round. Returns (hand, scored), the hand's round (`hand.round`) as the
        save left it, with its game; raises Refused with the reason,
        or Conflict with the saved hand when another phone changed it since `entry.version`
        (an identical save, like a double tap, is not a conflict, and neither is a resend
        behind only the phone's own saves of the same `entry.save_key`). With `ask`, counted
        cards that could have won a round nobody has won yet raise Question, not saved.
        `seats` are the game's seats with their players, if the caller has them; `saver` says
        who saves (or `user`, `by_name` and `guest_pass_id`, as `Saver.of` reads them).
        `within(hand)` is called before the save commits, in its transaction (drawing its live
        change, games.live.changes), once the save changed something."""
        saver = saver or Saver.of(user, by_name, guest_pass_id)
        with transaction.atomic():
            round_ = Round.locked(self.game_id, self.number)
            game = round_.game
            if game.finished_at:
                raise Refused("this game is finished: reopen it to change a hand")
            table = round_.table(seats)
            was_doubled = round_.doubled(table)
            if seat.pk not in {playing.pk for playing in table.playing}:
                word = round_.kind_def.round_word
                raise Refused(f"{seat.player.name} is out of the game in this {word}")
            scored = round_.score(entry)
            if scored.error:
                raise Refused(scored.error)
            state = entry.state(format_cards(scored.cards))
            hand = table.hands.get(seat.pk)
            if hand is not None:
                if hand.entry_key == entry_key(state):
                    return hand, scored
                if entry.version != hand.version and not HandChange.made_by_key(
                    hand, entry.save_key
                ):
                    raise Conflict(hand)
            others = [
                parse_hand(other.cards)
                for seat_id, other in table.hands.items()
                if seat_id != seat.pk and other.cards
            ]
            problem = round_.kind_def.round_supply_error(others + [scored.cards], game.engine_rules)
            if problem:
                raise Refused(problem)
            if ask and round_.could_have_won(seat, entry, table):
                question = round_.kind_def.went_out_question.format(name=seat.player.name)
                raise Question(question)
            if hand is None:
                hand = table.hands[seat.pk] = Hand(round=round_, seat=seat, version=0)
                old_summary, old_points, before = "", None, {}
            else:
                old_summary, old_points, before = hand.summary, hand.points, hand.entry_state
            hand.write(state, saver)
            round_.rescore(table, written=hand, was_doubled=was_doubled)
            version = game.changed()
            change = HandChange.record(
                hand, saver, old_summary, old_points, before, version, entry.save_key
            )
            round_.update_completion(table)
            # What the round's page draws of this save can be drawn from what it holds (the
            # round and its game, the table it decided on, the change it recorded):
            # `round_state_saved`.
            hand.saved_with = (table, change)
            if within is not None:
                within(hand)
        self.completed_at = round_.completed_at
        return hand, scored

    def last_save(self) -> HandChange | None:
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
        saver: Saver | None = None,
        within=None,
    ):
        """Take back the round's last save under the round's lock: the hand goes back to what
        it was before (a first save removes the hand), the undo is recorded in the history,
        and what follows from the round is recomputed. `expected` is the save the phone
        offered to undo; another one since is refused. Who undoes may undo only what
        `Saver.may_undo` lets them (`saver`, or `user`, `by_name` and `guest_pass_id`). Returns
        the undo's HandChange. `within(round)` is called before it commits, in its transaction
        (drawing its live change)."""
        saver = saver or Saver.of(user, by_name, guest_pass_id)
        with transaction.atomic():
            round_ = Round.locked(self.game_id, self.number)
            game = round_.game
            if game.finished_at:
                raise Refused("this game is finished: reopen it to undo a save")
            last = round_.last_save()
            if last is None:
                raise Refused(f"nothing was saved in this {round_.kind_def.round_word} to undo")
            who = last.seat.player.name
            if expected is not None and last.pk != expected:
                raise Refused(f"the last save is now {who}'s hand: look at it before undoing")
            if not saver.may_undo(last):
                raise Refused(f"{who}'s hand was saved from another phone: only it can undo that")
            table = round_.table()
            hand = table.hands.get(last.seat_id)
            if hand is None:
                raise Refused(f"{who}'s hand is no longer saved")
            old_summary, old_points, now_state = hand.summary, hand.points, hand.entry_state
            if last.before:
                hand.write(last.before, saver)
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
                changed_by=saver.user,
                changed_by_name=saver.name,
                old_summary=old_summary,
                old_points=old_points,
                new_summary=hand.summary if hand else NOT_ENTERED,
                new_points=hand.points if hand else 0,
                before=now_state,
                after=last.before,
                undo=True,
                game_version=game.changed(),
                guest_pass_id=saver.guest_pass_id,
            )
            round_.forget_unplayed_next()
            round_.update_completion(table)
            if within is not None:
                within(round_)
        self.completed_at = round_.completed_at
        return undo

    def forget_unplayed_next(self) -> None:
        """Drop the next round when nothing was entered in it yet, so it opens again from
        this round as it now stands (its dealer and who is still in may have changed)."""
        self.game.rounds.filter(number=self.number + 1, hands__isnull=True).delete()

    def doubler(self, table: RoundTable | None = None) -> str | None:
        """The name of the winner whose hand changes the others' counts (a Rummy winner's four
        pure sequences), if any: read from `table`, else in one query (none for the games
        where no winner does)."""
        kind = self.kind_def
        if kind.count_reasons is None:
            return None
        if table is None:  # the round's winners, in seat order, as (outcome, pure, name)
            return kind.doubler(
                plain.fetch_all(
                    _winners_sql(connection.vendor), [self.game_id, self.number, engine.WENT_OUT]
                )
            )
        hands = table.hands_in_order()
        return kind.doubler((hand.outcome, hand.all_pure, hand.seat.player.name) for hand in hands)

    def could_have_won(self, seat, entry: Entry, table: RoundTable) -> bool:
        """An entry of counted cards that could have won this round, which nobody else has
        won: the table is asked whether the player went out before it is saved as it is."""
        if entry.outcome != engine.CARDS:
            return False
        if any(
            hand.outcome == engine.WENT_OUT and key != seat.pk for key, hand in table.hands.items()
        ):
            return False
        rules = self.game.engine_rules
        return self.kind_def.melds_completely(entry.cards, self.number, rules, entry.extra)

    def doubled(self, table: RoundTable) -> bool:
        """The round's winner changes the others' counts (Rummy's four pure sequences)."""
        return self.kind_def.doubled((hand.outcome, hand.all_pure) for hand in table.hands.values())

    def rescore(self, table: RoundTable, written: Hand | None = None, was_doubled=None) -> None:
        """Recompute the round's hands from their entries, as the whole round decides (a Rummy
        winner's four pure sequences double the others' counts), and store what changed: the
        hand just `written` always, the others only if their points moved. When the round's
        doubling is as it was, only the written hand is scored again (the save scored its
        entry already, and the engine keeps that score)."""
        kind, rules = self.kind_def, self.game.engine_rules
        if written is not None:
            own = self.score(written.entry)
            written.melds, written.all_pure = own.melds, own.all_pure
            doubled = self.doubled(table)
            if doubled == was_doubled and kind.scored_alone:
                points = own.points if own.points is not None else written.points
                written.points = kind.hand_points(written.outcome, points, doubled, rules)
                plain.save(written)
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
        if settled.result != self.result:
            self.result = settled.result
            plain.update(Round, self.pk, result=self.result)
        moved = []
        for hand, s, total in zip(hands, scored, settled.points, strict=True):
            if (hand.points, hand.melds, hand.all_pure) != (total, s.melds, s.all_pure):
                hand.points, hand.melds, hand.all_pure = total, s.melds, s.all_pure
                if hand is not written:
                    # Changed by another hand's save: the version that save gives the game (its
                    # row is locked), so phones following live are sent this hand's line too.
                    hand.moved_in_version = self.game.version + 1
                    moved.append(hand)
        if written is not None:
            plain.save(written)
        if moved:
            Hand.objects.bulk_update(moved, ["points", "melds", "all_pure", "moved_in_version"])

    def update_completion(self, table: RoundTable) -> None:
        """Mark the round complete or not; when it completes, open the next round or, when
        the game is over, finish the game. Runs inside the save, under the round's lock."""
        complete = not self.problems(table)
        if complete != (self.completed_at is not None):
            self.completed_at = timezone.now() if complete else None
            plain.update(Round, self.pk, completed_at=self.completed_at)
        if complete:
            self.open_next(table)

    def open_next(self, table: RoundTable, finish: bool = True) -> "Round | None":
        """Open the round after this one (dealt by the next player still in to the left), or
        finish the game when this was its last round (unless told not to: reopening)."""
        game, kind, rules = self.game, self.kind_def, self.game.engine_rules
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
                game.tell_the_night()
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


def _seat_model():
    """The seats' model (its module imports this one)."""
    return Round.dealer.field.related_model


@cache
def _locked_sql(vendor: str) -> str:
    """`Round.locked`'s statement: the round with its game, both rows locked where the database
    locks rows."""
    r, g = Round, Round.game.field.related_model
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {plain.columns(r, 'r')}, {plain.columns(g, 'g')} FROM {plain.table(r)} r "
        f"JOIN {plain.table(g)} g ON g.{plain.col(g, 'id')} = r.{plain.col(r, 'game')} "
        f"WHERE r.{plain.col(r, 'game')} = %s AND r.{plain.col(r, 'number')} = %s{lock}"
    )


@cache
def _winners_sql(vendor: str) -> str:
    """The round's hands that went out, in seat order, as (outcome, pure, player's name)."""
    h, r, s, p = Hand, Round, _seat_model(), Player
    return (
        f"SELECT h.{plain.col(h, 'outcome')}, h.{plain.col(h, 'all_pure')}, "
        f"p.{plain.col(p, 'name')} FROM {plain.table(h)} h "
        f"JOIN {plain.table(r)} r ON r.{plain.col(r, 'id')} = h.{plain.col(h, 'round')} "
        f"JOIN {plain.table(s)} s ON s.{plain.col(s, 'id')} = h.{plain.col(h, 'seat')} "
        f"JOIN {plain.table(p)} p ON p.{plain.col(p, 'id')} = s.{plain.col(s, 'player')} "
        f"WHERE r.{plain.col(r, 'game')} = %s AND r.{plain.col(r, 'number')} = %s "
        f"AND h.{plain.col(h, 'outcome')} = %s ORDER BY s.{plain.col(s, 'position')}"
    )


@cache
def _seats_and_hands_sql(vendor: str) -> str:
    """A game's seats in order, each with its player and its hand in the round, if any."""
    s, p, h = _seat_model(), Player, Hand
    return (
        f"SELECT {plain.columns(s, 's')}, {plain.columns(p, 'p')}, {plain.columns(h, 'h')} "
        f"FROM {plain.table(s)} s "
        f"JOIN {plain.table(p)} p ON p.{plain.col(p, 'id')} = s.{plain.col(s, 'player')} "
        f"LEFT JOIN {plain.table(h)} h ON h.{plain.col(h, 'seat')} = s.{plain.col(s, 'id')} "
        f"AND h.{plain.col(h, 'round')} = %s "
        f"WHERE s.{plain.col(s, 'game')} = %s ORDER BY s.{plain.col(s, 'position')}"
    )


@cache
def _hands_sql(vendor: str) -> str:
    """A round's hands."""
    return (
        f"SELECT {plain.columns(Hand, 'h')} FROM {plain.table(Hand)} h "
        f"WHERE h.{plain.col(Hand, 'round')} = %s"
    )
