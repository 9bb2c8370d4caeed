"""Looking back: results of finished games, leaderboards, a player's record.

Every function here runs a fixed number of queries whatever the size of the history; the
work that grows with the data is done in Python over those rows.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from games import engine

from ..models import Game, Hand, Player, Seat
from . import ratings
from .kept import kept


@dataclass
class GameResult:
    game: Game
    seats: list = field(default_factory=list)
    totals: dict = field(default_factory=dict)
    places: list = field(default_factory=list)

    entered: bool = False  # any hand of the game entered yet
    settled: bool = False  # any round of the game complete

    @property
    def winners(self) -> list[Seat]:
        """Who won, or leads a game in play by its complete rounds (a round half entered would
        put whoever has not entered yet in the lead with 0); nobody before a hand is entered,
        nor while the first round is still being entered."""
        if not self.entered or not (self.settled or self.game.finished_at):
            return []
        return [seat for place, seat, _ in self.places if place == 1]

    def place_of(self, player_id: int) -> int | None:
        for place, seat, _ in self.places:
            if seat.player_id == player_id:
                return place
        return None

    def total_of(self, player_id: int) -> int | None:
        for seat in self.seats:
            if seat.player_id == player_id:
                return self.totals[seat.pk]
        return None


def game_results(games) -> list[GameResult]:
    """Final totals and places of the games of a queryset, in three queries: of a finished
    game every hand entered, of a game in play its complete rounds' (who leads)."""
    results = {game.pk: GameResult(game) for game in games.select_related("night")}
    complete = Q(hands__round__completed_at__isnull=False)
    seats = (
        Seat.objects.filter(game__in=games.values("pk"))
        .select_related("player")
        .annotate(
            total=Coalesce(Sum("hands__points"), Value(0), output_field=IntegerField()),
            settled_total=Coalesce(
                Sum("hands__points", filter=complete), Value(0), output_field=IntegerField()
            ),
            entered=Count("hands"),
            settled=Count("hands", filter=complete),
        )
        .order_by("game_id", "position")
    )
    for seat in seats:
        result = results[seat.game_id]
        result.seats.append(seat)
        if not result.game.finished_at:
            seat.total = seat.settled_total
        result.totals[seat.pk] = seat.total
        result.entered = result.entered or seat.entered > 0
        result.settled = result.settled or seat.settled > 0
    # Pool play places players by when they went out, and bonuses count the rounds each player
    # won, so those games need every round; for the others the total is enough (given as one
    # round, numbered 0).
    every = [
        pk
        for pk, result in results.items()
        if result.game.kind_def.needs_every_round(result.game.engine_rules)
    ]
    rounds: dict[int, dict[int, int]] = defaultdict(dict)
    if every:
        hands = Hand.objects.filter(round__game__in=every).filter(
            Q(round__game__finished_at__isnull=False) | Q(round__completed_at__isnull=False)
        )
        for seat_id, number, points in hands.values_list("seat_id", "round__number", "points"):
            rounds[seat_id][number] = points
    for result in results.values():
        game = result.game
        kind, rules = game.kind_def, game.engine_rules
        seatings = game.seatings(
            result.seats,
            rows=[
                (seat.pk, number, points)
                for seat in result.seats
                for number, points in rounds.get(seat.pk, {0: seat.total}).items()
            ],
        )
        by_pk = {seat.pk: seat for seat in result.seats}
        result.places = [
            (s.place, by_pk[s.key], s.points)
            for s in kind.standings(seatings, rules, finished=bool(game.finished_at))
        ]
        # The final points, bonuses included, are what a result shows and compares.
        result.totals = {seat.pk: points for _, seat, points in result.places}
    return list(results.values())


def finished_games(group, kind=None, start=None, end=None, player=None):
    games = Game.objects.filter(group=group, finished_at__isnull=False)
    if kind:
        games = games.filter(kind=kind)
    if start:
        games = games.filter(night__date__gte=start)
    if end:
        games = games.filter(night__date__lte=end)
    if player:
        games = games.filter(seats__player=player)
    return games.order_by("night__date", "created_at")


@dataclass
class LeaderboardRow:
    player: Player
    played: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def win_percent(self) -> int:
        return percent(self.wins, self.played)


def percent(part: int, whole: int) -> int:
    """`part` of `whole` in whole per cent, a half rounded up as people round it (5 of 8 is
    63%; Python's round() gives the even 62)."""
    return (200 * part + whole) // (2 * whole) if whole else 0


def leaderboard(group, kind=None, start=None, end=None) -> list[LeaderboardRow]:
    """Games played, wins and win rate of each player, most wins first. A shared first place
    counts as a win for each player in it. Read from the group's kept tales."""
    players = Player.objects.filter(group=group).in_bulk()
    rows: dict[int, LeaderboardRow] = {}
    for tale in kept(group.pk).in_order:
        if not tale.finished or not tale.rounds or (kind and tale.kind != kind):
            continue
        if (start and tale.date < start) or (end and tale.date > end):
            continue
        winners = set(tale.winners)
        for player in tale.players:
            row = rows.setdefault(player, LeaderboardRow(players[player]))
            row.played += 1
            row.wins += player in winners
    return sorted(rows.values(), key=lambda r: (-r.wins, -r.win_rate, r.player.name.lower()))


@dataclass
class Record:
    """A player's history at the table, per game."""

    player: Player
    results: list = field(default_factory=list)  # the tales of the player's finished games
    played: Counter = field(default_factory=Counter)
    won: Counter = field(default_factory=Counter)
    per_round: dict = field(default_factory=dict)  # kind -> average points per round
    # Games of a fixed number of rounds: kind -> [(round, wild in words, avg, hands)]
    by_round_number: dict = field(default_factory=dict)
    went_out: Counter = field(default_factory=Counter)
    best: dict = field(default_factory=dict)  # kind -> GameResult
    worst: dict = field(default_factory=dict)
    head_to_head: list = field(default_factory=list)  # (opponent, wins, losses, ties)

    def of_kind(self, kind: engine.GameKind, chart=None) -> dict:
        """What the player page shows for one game."""
        return {
            "kind": kind,
            "played": self.played[kind.slug],
            "won": self.won[kind.slug],
            "per_round": self.per_round.get(kind.slug),
            "rounds_won": self.went_out[kind.slug],
            "best": self.best.get(kind.slug),
            "worst": self.worst.get(kind.slug),
            "place_best": _place(self.best.get(kind.slug), self.player.pk),
            "place_worst": _place(self.worst.get(kind.slug), self.player.pk),
            "by_round": self.by_round_number.get(kind.slug, []),
            "chart": chart,
        }


def _place(result, player_id):
    if result is None:
        return None
    return {"place": result.place_of(player_id), "points": result.total_of(player_id)}


def player_record(player: Player) -> Record:
    """The player's history at the table, from the group's kept tales (their finished games,
    and the hands of every completed round)."""
    record = Record(player)
    tales = kept(player.group_id).in_order
    # Finished games with a hand counted: one finished with none is no result for anybody.
    record.results = [t for t in tales if t.finished and t.rounds and player.pk in t.players]

    def standing(game):
        """Best and worst by place, then by points: the lowest total where low wins, the highest
        where high does (a win is a better game than any fourth place, however few points)."""
        sign = -1 if game.kind_def.highest_wins else 1
        return (game.place_of(player.pk), sign * game.total_of(player.pk))

    for result in record.results:
        kind = result.kind
        record.played[kind] += 1
        record.won[kind] += result.place_of(player.pk) == 1
        if kind not in record.best or standing(result) < standing(record.best[kind]):
            record.best[kind] = result
        if kind not in record.worst or standing(result) > standing(record.worst[kind]):
            record.worst[kind] = result
    sums: dict[str, list] = defaultdict(lambda: [0, 0])
    by_number: dict[tuple[str, int], list] = defaultdict(lambda: [0, 0])
    for tale in tales:
        for facts in tale.rounds:
            for hand in facts.hands:
                if hand.player != player.pk:
                    continue
                sums[tale.kind][0] += hand.points
                sums[tale.kind][1] += 1
                if tale.kind_def.rounds:
                    by_number[(tale.kind, facts.number)][0] += hand.points
                    by_number[(tale.kind, facts.number)][1] += 1
                record.went_out[tale.kind] += hand.outcome == engine.WENT_OUT
    record.per_round = {kind: (total / n, n) for kind, (total, n) in sums.items()}
    for (slug, number), (total, n) in sorted(
        by_number.items(), key=lambda item: (list(engine.KINDS).index(item[0][0]), item[0][1])
    ):
        wild = engine.KINDS[slug].round_wild_label(number)
        record.by_round_number.setdefault(slug, []).append((number, wild, total / n, n))
    versus = defaultdict(lambda: [0, 0, 0])
    for result in record.results:
        # Who finished ahead, as the game's standings place them (highest or lowest wins,
        # pool play's order of going out).
        mine = result.place_of(player.pk)
        for place, other, _ in result.places:
            if other == player.pk:
                continue
            tally = versus[other]
            tally[0 if mine < place else 1 if mine > place else 2] += 1
    opponents = Player.objects.in_bulk(list(versus))
    record.head_to_head = sorted(
        ((opponents[pid], *tally) for pid, tally in versus.items() if pid in opponents),
        key=lambda row: row[0].name.lower(),
    )
    return record


def rating_tables(group, kind: str | None = None) -> list[dict]:
    """The group's leaderboards by rating, one per game kind (or the one asked for)."""
    found = kept(group.pk).ratings
    players = Player.objects.filter(group=group).in_bulk()
    tables = []
    for slug, history in found.items():
        if kind and slug != kind:
            continue
        rows = [(players[p], rated, n) for p, rated, n in ratings.table(history) if p in players]
        tables.append({"kind": engine.KINDS[slug], "rows": rows})
    return sorted(tables, key=lambda t: list(engine.KINDS).index(t["kind"].slug))
