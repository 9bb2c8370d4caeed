"""A game's score table: rows of rounds, a cell per seat, totals and standings, built in a
fixed number of queries from what was stored."""

from dataclasses import dataclass, field

from games import engine

from .models import Game, Hand, Round, Seat


@dataclass
class Cell:
    seat: Seat
    hand: Hand | None
    dealer: bool


@dataclass
class Row:
    round: Round
    wild: str | None
    cells: list[Cell]


@dataclass
class Total:
    seat: Seat
    points: int
    leader: bool
    out: bool  # out of the pool


@dataclass
class Placing:
    """A seat's place in a game's final standings."""

    place: int
    seat: Seat
    points: int


@dataclass
class ScoreTable:
    game: Game
    seats: list[Seat]
    rows: list[Row] = field(default_factory=list)
    totals: list[Total] = field(default_factory=list)
    standings: list[Placing] = field(default_factory=list)

    @property
    def any_out(self) -> bool:
        return any(total.out for total in self.totals)

    def running_totals(self) -> dict[int, list[int]]:
        """Seat id -> the total after each round, for charts."""
        running = {seat.pk: [] for seat in self.seats}
        for row in self.rows:
            for cell in row.cells:
                before = running[cell.seat.pk][-1] if running[cell.seat.pk] else 0
                running[cell.seat.pk].append(before + (cell.hand.points if cell.hand else 0))
        return running


def score_table(game: Game) -> ScoreTable:
    kind, rules = game.kind_def, game.engine_rules
    seats = list(game.seats.select_related("player"))
    hands = list(Hand.objects.filter(round__game=game))
    rounds = list(game.rounds.order_by("number"))
    if game.finished_at:
        # A round left open with nothing entered when the game was finished is not part of it.
        played = {hand.round_id for hand in hands}
        rounds = [round_ for round_ in rounds if round_.completed_at or round_.pk in played]
    by_cell = {(hand.round_id, hand.seat_id): hand for hand in hands}
    table = ScoreTable(game, seats)
    for round_ in rounds:
        cells = [
            Cell(seat, by_cell.get((round_.pk, seat.pk)), round_.dealer_id == seat.pk)
            for seat in seats
        ]
        table.rows.append(Row(round_, kind.wild_label(round_.number, rules), cells))
    by_round = {round_.pk: round_.number for round_ in rounds}
    points: dict[int, dict[int, int]] = {seat.pk: {} for seat in seats}
    for hand in hands:
        points[hand.seat_id][by_round[hand.round_id]] = hand.points
    seatings = kind.seatings(((seat.pk, seat.position, points[seat.pk]) for seat in seats), rules)
    places = engine.standings(seatings)
    by_pk = {seat.pk: seat for seat in seats}
    table.standings = [Placing(place, by_pk[s.key], s.total) for place, s in places]
    # While the game is played the leaders are marked; once it is over the standings say it.
    leaders = set()
    if hands and not game.finished_at:
        leaders = {s.key for place, s in places if place == 1}
    table.totals = [
        Total(seat, s.total, seat.pk in leaders, s.out_after is not None)
        for seat, s in zip(seats, seatings, strict=True)
    ]
    return table
