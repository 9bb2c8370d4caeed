"""A game's score table: rows of rounds, a cell per seat, totals and standings, built in a
fixed number of queries from what was stored."""

from dataclasses import dataclass, field

from .models import Game, Hand, Round, Seat


@dataclass
class Cell:
    seat: Seat
    hand: Hand | None
    dealer: bool
    running: int = 0  # the seat's total after the round


@dataclass
class Row:
    round: Round
    wild: str | None
    cells: list[Cell]
    note: str = ""  # how the round ended, where its game names it: "Ann · Gin"


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
    lines: tuple[tuple[str, int], ...] = ()  # the game's bonuses, each as its own line
    total: int | None = None  # the points before the bonuses, where there are any


@dataclass
class ScoreTable:
    game: Game
    seats: list[Seat]
    rows: list[Row] = field(default_factory=list)
    totals: list[Total] = field(default_factory=list)
    standings: list[Placing] = field(default_factory=list)
    # The rounds the standings place by: of a game in play its complete ones, of a finished
    # game every round with a hand entered (none: nobody is placed yet).
    placed_rounds: int = 0
    half_entered: bool = False  # a game in play has a round with some of its hands entered

    @property
    def any_out(self) -> bool:
        return any(total.out for total in self.totals)

    @property
    def played_rows(self) -> list[Row]:
        """The rounds with a hand entered: a game in play's open round not yet."""
        return [row for row in self.rows if any(cell.hand for cell in row.cells)]

    def running_totals(self) -> dict[int, list[int | None]]:
        """Seat id -> the total after each played round, for charts; None where the seat's hand
        is not entered (its line stops where its play did)."""
        running = {seat.pk: [] for seat in self.seats}
        for row in self.played_rows:
            for cell in row.cells:
                running[cell.seat.pk].append(cell.running if cell.hand else None)
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
    running = dict.fromkeys((seat.pk for seat in seats), 0)
    for round_ in rounds:
        cells = [
            Cell(seat, by_cell.get((round_.pk, seat.pk)), round_.dealer_id == seat.pk)
            for seat in seats
        ]
        note = ""
        for cell in cells:
            running[cell.seat.pk] += cell.hand.points if cell.hand else 0
            cell.running = running[cell.seat.pk]
        result = kind.result_label(round_.result)
        if result:
            scored = [cell for cell in cells if cell.hand and cell.hand.points > 0]
            note = " · ".join([scored[0].seat.player.name, result] if scored else [result])
        # The wild rank by a round's number where it changes round by round (Three Thirteen);
        # a rank the options fix for the whole game (Rummy's) is said once, in the options.
        wild = kind.round_wild_label(round_.number)
        table.rows.append(Row(round_, wild, cells, note))
    by_round = {round_.pk: round_.number for round_ in rounds}
    seatings = game.seatings(
        seats, rows=[(hand.seat_id, by_round[hand.round_id], hand.points) for hand in hands]
    )
    # A game in play is placed by its complete rounds: a round half entered would put whoever
    # has not entered yet in the lead with 0. A finished game counts every hand entered.
    placed = seatings
    if not game.finished_at:
        complete = {round_.pk for round_ in rounds if round_.completed_at}
        table.placed_rounds = len(complete)
        settled = [hand for hand in hands if hand.round_id in complete]
        table.half_entered = len(settled) < len(hands)
        if table.half_entered:
            placed = game.seatings(
                seats,
                rows=[(hand.seat_id, by_round[hand.round_id], hand.points) for hand in settled],
            )
    else:
        table.placed_rounds = len(table.played_rows)
    places = kind.standings(placed, rules, finished=bool(game.finished_at))
    by_pk = {seat.pk: seat for seat in seats}
    table.standings = [
        Placing(s.place, by_pk[s.key], s.points, s.lines, s.seating.total) for s in places
    ]
    # While the game is played the leaders are marked; once it is over the standings say it.
    leaders = set()
    if table.placed_rounds and not game.finished_at:
        leaders = {s.key for s in places if s.place == 1}
    table.totals = [
        Total(seat, s.total, seat.pk in leaders, s.out_after is not None)
        for seat, s in zip(seats, seatings, strict=True)
    ]
    return table
