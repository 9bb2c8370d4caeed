"""Each game told round by round as plain data (a `Tale`): the hands as the engine scored
them, the running totals and the engine's standings after every round. The story, the records,
the ratings and the year in review are all read from tales; `kept` keeps them."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime

from django.db.models import Q
from django.urls import reverse

from games import engine

from ..models import Game, Hand, Seat


@dataclass(frozen=True, slots=True)
class HandFacts:
    player: int  # the player's id
    outcome: str
    points: int
    all_pure: bool
    cards: str
    extra: dict


@dataclass
class RoundFacts:
    number: int
    result: str  # how the round ended, where its game names it (a knock, an undercut)
    hands: list[HandFacts]
    running: dict[int, int]  # player -> total after this round
    places: dict[int, int]  # player -> place after this round, as the engine's standings say


@dataclass
class Tale:
    """A game as the look-back reads it: who played, each round counted (every completed one; of
    a finished game, the one left open too), the final places."""

    game_id: int
    kind: str
    rules: dict
    night_id: int
    date: date
    started: datetime
    finished: datetime | None
    players: list[int]  # in seat order
    rounds: list[RoundFacts] = field(default_factory=list)
    places: list[tuple[int, int, int]] = field(default_factory=list)  # (place, player, points)
    # When its hands were last played: its last round completed (or, finished, a hand saved in
    # the round left open); a hand corrected in a completed round later leaves it alone.
    played_until: datetime | None = None

    @property
    def kind_def(self) -> engine.GameKind:
        return engine.KINDS[self.kind]

    @property
    def engine_rules(self):
        return self.kind_def.rules_from(self.rules)

    @property
    def winners(self) -> list[int]:
        """Who won (or leads); nobody, in a game with no hand counted."""
        if not self.rounds:
            return []
        return [player for place, player, _ in self.places if place == 1]

    def place_of(self, player: int) -> int | None:
        return next((place for place, who, _ in self.places if who == player), None)

    def points_of(self, player: int) -> int | None:
        return next((points for _, who, points in self.places if who == player), None)

    total_of = points_of  # as a GameResult names it

    @property
    def game_url(self) -> str:
        return reverse("game", args=[self.game_id])

    @property
    def last_round(self) -> int | None:
        return self.rounds[-1].number if self.rounds else None

    @property
    def order(self) -> tuple:
        """When it was played: the night's date, then when it was started."""
        return (self.date, self.started, self.game_id)


def tell(tale: Tale, seats: list[tuple[int, int, int]], rows) -> Tale:
    """Fill `tale` from its seats [(seat id, position, player id)] and the hands of its
    completed rounds [(round number, round result, seat id, HandFacts)], in the engine's
    words: `seatings` and `standings` after each round, and at the end."""
    kind, rules = tale.kind_def, tale.engine_rules
    player_of = {seat: player for seat, _, player in seats}
    by_round: dict[int, list] = defaultdict(list)
    results = {}
    for number, result, _seat, hand in rows:
        by_round[number].append(hand)
        results[number] = result
    points: dict[int, dict[int, int]] = {seat: {} for seat, _, _ in seats}
    for number in sorted(by_round):
        hands = by_round[number]
        for seat, _, player in seats:
            got = next((h.points for h in hands if h.player == player), None)
            if got is not None:
                points[seat][number] = got
        seatings = kind.seatings(((s, pos, points[s]) for s, pos, _ in seats), rules)
        standings = kind.standings(seatings, rules, finished=False)
        tale.rounds.append(
            RoundFacts(
                number,
                results[number],
                hands,
                {player_of[s.key]: s.seating.total for s in standings},
                {player_of[s.key]: s.place for s in standings},
            )
        )
    seatings = kind.seatings(((s, pos, points[s]) for s, pos, _ in seats), rules)
    tale.places = [
        (s.place, player_of[s.key], s.points)
        for s in kind.standings(seatings, rules, finished=tale.finished is not None)
    ]
    return tale


def tales_of(games) -> dict[int, Tale]:
    """The tales of a queryset of games, in four queries whatever their number."""
    tales = {}
    for pk, kind, rules, night_id, day, started, finished in games.values_list(
        "pk", "kind", "rules", "night_id", "night__date", "created_at", "finished_at"
    ):
        tales[pk] = Tale(pk, kind, rules, night_id, day, started, finished, [])
    if not tales:
        return tales
    ids = list(tales)
    seats: dict[int, list] = defaultdict(list)
    for seat, game_id, position, player in (
        Seat.objects.filter(game_id__in=ids)
        .order_by("position")
        .values_list("pk", "game_id", "position", "player_id")
    ):
        seats[game_id].append((seat, position, player))
        tales[game_id].players.append(player)
    player_of = {seat: player for found in seats.values() for seat, _, player in found}
    rows: dict[int, list] = defaultdict(list)
    # The completed rounds; and of a finished game, the hands of the round left open too, which
    # count in its final standings as its score table counts them (Game.finish).
    counted = Q(round__completed_at__isnull=False) | Q(round__game__finished_at__isnull=False)
    hands = Hand.objects.filter(counted, round__game_id__in=ids).order_by(
        "round__number", "seat__position"
    )
    fields = ("round__game_id", "round__number", "round__result", "seat_id", "outcome")
    fields += ("points", "all_pure", "cards", "extra", "round__completed_at", "updated_at")
    for row in hands.values_list(*fields):
        game_id, number, result, seat, outcome, points, pure, cards, extra, done, saved = row
        hand = HandFacts(player_of[seat], outcome, points, pure, cards, extra or {})
        rows[game_id].append((number, result, seat, hand))
        played, tale = done or saved, tales[game_id]
        if tale.played_until is None or played > tale.played_until:
            tale.played_until = played
    for game_id, tale in tales.items():
        tell(tale, seats[game_id], rows[game_id])
    return tales


def tales_of_night(night) -> list[Tale]:
    """The night's games told, in the order they were started."""
    found = tales_of(Game.objects.filter(night=night))
    return sorted(found.values(), key=lambda tale: tale.order)


__all__ = ["HandFacts", "RoundFacts", "Tale", "tales_of", "tales_of_night", "tell"]
