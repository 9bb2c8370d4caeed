"""What the pages of a game share: the game or round a request may see, and what the score
table, a round and a game night show. Views and live updates both read them from here."""

from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from . import plain
from .access import TableRequest, games_seen, sees_game
from .charts import line_chart
from .history.story import numbered_names
from .models import Game, GameNight, Hand, HandChange, Player, Round, RoundTable, Seat
from .panels import HandPanel
from .recent import Recent
from .reports import ShownReport, shown_report
from .score_table import score_table


def whole_number(text) -> int | None:
    """A positive id or number a query string gives, or None for anything else."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if 0 < value < 2**63 else None


def game_for(request: TableRequest, game_id) -> Game:
    """The game, if this request may see it (`access.games_seen`)."""
    games = Game.objects.select_related("night").filter(games_seen(request))
    return get_object_or_404(games, pk=game_id)


def round_for(request: TableRequest, game_id, number) -> Round:
    """The round (with its game and dealer), if this request may see its game."""
    rounds = Round.objects.select_related("game__night", "dealer__player")
    rounds = rounds.filter(games_seen(request, "game"))
    return get_object_or_404(rounds, game_id=game_id, number=number)


def seats_for(request: TableRequest, game_id, number, only: int | None = None) -> list[Seat]:
    """The game's seats with their players and the game (with its night), if this request may
    see the game and it has this round: one plain statement (`_seats_sql`) for what entering
    a hand needs, as every tap's scoring and every save ask it. `only`: that seat alone (a
    tap's scoring needs no other)."""
    seats, game = [], None
    if only is None:
        found = plain.fetch_all(_seats_sql(connection.vendor), [game_id, number])
    else:
        found = plain.fetch_all(_seats_sql(connection.vendor, True), [game_id, number, only])
    for row in found:
        seat, end = plain.instance(Seat, row)
        player, end = plain.instance(Player, row, end)
        if game is None:  # the same game on every row: read once
            game, end = plain.instance(Game, row, end)
            Game.night.field.set_cached_value(game, plain.instance(GameNight, row, end)[0])
        Seat.game.field.set_cached_value(seat, game)
        Seat.player.field.set_cached_value(seat, player)
        seats.append(seat)
    if not seats or not sees_game(request, game):
        raise Http404("No such round")
    return seats


@cache
def _seats_sql(vendor: str, one: bool = False) -> str:
    """A game's seats in order (`one`: the seat of that id alone), each with the seat's player,
    the game and its night, if the game has the round numbered."""
    s, g, n, p = Seat, Game, GameNight, Player
    return (
        f"SELECT {plain.columns(s, 's')}, {plain.columns(p, 'p')}, {plain.columns(g, 'g')}, "
        f"{plain.columns(n, 'n')} FROM {plain.table(s)} s "
        f"JOIN {plain.table(g)} g ON g.{plain.col(g, 'id')} = s.{plain.col(s, 'game')} "
        f"JOIN {plain.table(n)} n ON n.{plain.col(n, 'id')} = g.{plain.col(g, 'night')} "
        f"JOIN {plain.table(p)} p ON p.{plain.col(p, 'id')} = s.{plain.col(s, 'player')} "
        f"WHERE s.{plain.col(s, 'game')} = %s AND EXISTS (SELECT 1 FROM {plain.table(Round)} r "
        f"WHERE r.{plain.col(Round, 'game')} = s.{plain.col(s, 'game')} "
        f"AND r.{plain.col(Round, 'number')} = %s) "
        + (f"AND s.{plain.col(s, 'id')} = %s " if one else "")
        + f"ORDER BY s.{plain.col(s, 'position')}, s.{plain.col(s, 'id')}"
    )


def guest_landing(games) -> str:
    """Where a guest's phone goes when it comes in or opens the site: of its `games` (its
    link's and those started since that night), the one in play now at its open round, else
    the latest."""
    latest = games.order_by("-created_at")
    game = latest.filter(finished_at=None).first() or latest.first()
    current = game.current_round() if not game.finished_at else None
    return (current or game).get_absolute_url()


def game_context(game: Game) -> dict:
    return {
        "game": game,
        "kind": game.kind_def,
        "current": game.current_round(),
        "table": score_table(game),
        "next_game": game.next_in_night() if game.finished_at else None,
    }


def round_status(round_: Round, table, last_save=..., report=..., last_undo=None) -> dict:
    """What the round's summary shows: its problems or completion, each hand's points, the
    round's notes (Rummy's double), its report where all its hands are scored together (Gin)
    and the save an undo would take back (the last two worked out here unless the caller
    has them)."""
    game = round_.game
    hands = table.hands_in_order()
    return {
        "game": game,
        "kind": game.kind_def,
        "round": round_,
        "hands": hands,
        "problems": round_.problems(table),
        "notes": game.kind_def.round_notes(
            (hand.outcome, hand.all_pure, hand.seat.player.name) for hand in hands
        ),
        "report": round_report(round_, table) if report is ... else report,
        "last_save": (None if game.finished_at else round_.last_save())
        if last_save is ...
        else last_save,
        # The round's latest change, where it is an undo: said in place of the Undo button, and
        # the save before it is then offered only behind a second tap.
        "last_undo": None if game.finished_at else last_undo,
        "next_game": game.next_in_night() if game.finished_at else None,
    }


def round_report(round_: Round, table: RoundTable) -> ShownReport | None:
    """The round's report for the page, where its hands are scored together (Gin)."""
    return shown_report(round_.settled(table).report, table.hands_in_order())


SHOWN_CHANGES = 10  # the round page's latest changes; all of them when its history is opened


def round_context(round_: Round, panels=None, all_changes: bool = False) -> dict:
    """Everything the round page draws: each playing seat's hand panel (one hand at a time),
    the summary, and the latest SHOWN_CHANGES changes (`all_changes`: every one), so that the
    page costs the same however long the round's history."""
    game = round_.game
    table = round_.table()
    panels = panels or {}
    doubler = round_.doubler(table)
    built = [
        panels.get(seat.pk)
        or HandPanel.saved(round_, seat, table.hands.get(seat.pk), doubler=doubler)
        for seat in table.playing
    ]
    # One hand at a time: the first hand still to enter is open, the others wait as one line
    # each (none opens by itself while a hand is being entered or refused on this page).
    busy = any(panel.editing or panel.error or panel.conflict for panel in built)
    waiting = [panel for panel in built if panel.hand is None and not panel.editing]
    for panel in waiting[0 if busy else 1 :]:
        panel.collapsed = True
    of_round = round_changes_list(round_)
    changes = list(of_round if all_changes else of_round[: SHOWN_CHANGES + 1])
    count = len(changes) if all_changes or len(changes) <= SHOWN_CHANGES else of_round.count()
    changes = changes if all_changes else changes[:SHOWN_CHANGES]
    last_undo = changes[0] if changes and changes[0].undo else None
    return round_status(round_, table, last_undo=last_undo) | {
        "wild_words": wild_words(round_),
        "panels": built,
        "outcomes": game.kind_def.outcomes(game.engine_rules),
        "changes": changes,
        "changes_count": count,
        "all_changes": all_changes,
        "is_last_known": is_last_known(round_),
    }


def wild_words(round_: Round) -> str:
    """The round's wild cards in words, for the page's facts: the picker and the melds mark
    them "W" ("3s wild, jokers too", "Jokers wild"), or "" when it has none."""
    game = round_.game
    jokers = game.kind_def.jokers(game.engine_rules) > 0
    label = round_.wild_label
    if label:
        return f"{label}, jokers too" if jokers and "joker" not in label else label
    return "Jokers wild" if jokers else ""


def round_changes_list(round_: Round):
    """Every save and undo of the round, latest first."""
    return HandChange.objects.filter(round=round_).select_related("seat__player")


def is_last_known(round_: Round) -> bool:
    """No later round is open (the round page then offers no way to a next one). A finished
    game's round left with no hand entered is left out of it: no way leads there."""
    return not round_.game.rounds.filter(SHOWN_LATER, number__gt=round_.number).exists()


# A later round the round page leads to: any while the game is in play, once it is finished
# only one with a hand entered (the finish left the others out).
SHOWN_LATER = Q(game__finished_at=None) | Q(hands__isnull=False)


@dataclass(frozen=True)
class RoundState:
    """A round as its game's version left it: what a live update of the round draws. Read in
    three queries; once made, only read (`round_state_at` shares it between the phones asking
    about one version)."""

    round: Round
    table: RoundTable
    last_save: HandChange | None
    report: ShownReport | None  # the round's report, where its hands are scored together (Gin)
    is_last_known: bool
    saves: list[tuple[int, int]]  # (seat, the game version its latest save or undo made)
    changes_count: int  # saves and undos, for "Changes (n)"
    last_undo: HandChange | None = None  # the round's latest change, where it is an undo

    @classmethod
    def of(
        cls, round_, table, last_save, is_last_known, saves, changes_count, last_undo=None
    ) -> "RoundState":
        """The state of `round_` and its `table`: its report drawn from them, and no save to
        take back once the game is finished."""
        undoable = None if round_.game.finished_at else last_save
        report = round_report(round_, table)
        return cls(round_, table, undoable, report, is_last_known, saves, changes_count, last_undo)


def round_state(game_id: int, number: int) -> RoundState:
    """The round (404 if there is none) as its game's current version left it: the round with
    its game, night and dealer, whether a later round is shown and how many changes it has, in
    one query; its seats and hands; its changes. Plain SQL, written once per database: the ORM
    spent longer building these queries than the database spent answering them, and every
    phone of a table asks for the round's summary after each save."""
    found = plain.fetch_all(_round_sql(connection.vendor), [game_id, number])
    if not found:
        raise Http404("No such round")
    row = found[0]
    round_, end = plain.instance(Round, row)
    game, end = plain.instance(Game, row, end)
    night, end = plain.instance(GameNight, row, end)
    dealer, end = plain.instance(Seat, row, end)
    player, end = plain.instance(Player, row, end)
    is_later, changes_count = row[end], row[end + 1]
    game.night, dealer.player = night, player
    round_.game, round_.dealer = game, dealer
    round_.later = bool(is_later)
    table = round_.table()
    seats = {seat.pk: seat for seat in table.seats}
    # Only each seat's latest change (its game version says whether a phone has seen it) and
    # the save an undo would take back: a round's history grows with every save, this does not.
    changes = [  # latest first
        plain.instance(HandChange, row)[0]
        for row in plain.fetch_all(_changes_sql(connection.vendor), [round_.pk] * 3 + [False])
    ]
    last_save = next((c for c in changes if not c.undo and c.undone_at is None), None)
    last_undo = changes[0] if changes and changes[0].undo else None
    for change in (last_save, last_undo):
        if change is not None:
            change.seat = seats[change.seat_id]
    return RoundState.of(
        round_,
        table,
        last_save,
        not round_.later,
        [(change.seat_id, change.game_version) for change in changes],
        changes_count,
        last_undo,
    )


@cache
def _round_sql(vendor: str) -> str:
    """`round_state`'s round: its game, night, dealer and the dealer's player, whether a later
    round is shown (SHOWN_LATER: any while the game is in play, once it is finished one with a
    hand entered), and how many changes it has."""
    r, g, n, s, p, h, c = Round, Game, GameNight, Seat, Player, Hand, HandChange
    return (
        f"SELECT {plain.columns(r, 'r')}, {plain.columns(g, 'g')}, {plain.columns(n, 'n')}, "
        f"{plain.columns(s, 's')}, {plain.columns(p, 'p')}, "
        f"EXISTS (SELECT 1 FROM {plain.table(r)} lr "
        f"INNER JOIN {plain.table(g)} lg ON lr.{plain.col(r, 'game')} = lg.{plain.col(g, 'id')} "
        f"LEFT OUTER JOIN {plain.table(h)} lh ON lh.{plain.col(h, 'round')} = "
        f"lr.{plain.col(r, 'id')} "
        f"WHERE (lg.{plain.col(g, 'finished_at')} IS NULL OR lh.{plain.col(h, 'id')} IS NOT NULL) "
        f"AND lr.{plain.col(r, 'game')} = r.{plain.col(r, 'game')} "
        f"AND lr.{plain.col(r, 'number')} > r.{plain.col(r, 'number')}), "
        f"(SELECT COUNT(*) FROM {plain.table(c)} cc "
        f"WHERE cc.{plain.col(c, 'round')} = r.{plain.col(r, 'id')}) "
        f"FROM {plain.table(r)} r "
        f"INNER JOIN {plain.table(g)} g ON r.{plain.col(r, 'game')} = g.{plain.col(g, 'id')} "
        f"INNER JOIN {plain.table(n)} n ON g.{plain.col(g, 'night')} = n.{plain.col(n, 'id')} "
        f"INNER JOIN {plain.table(s)} s ON r.{plain.col(r, 'dealer')} = s.{plain.col(s, 'id')} "
        f"INNER JOIN {plain.table(p)} p ON s.{plain.col(s, 'player')} = p.{plain.col(p, 'id')} "
        f"WHERE r.{plain.col(r, 'game')} = %s AND r.{plain.col(r, 'number')} = %s"
    )


@cache
def _changes_sql(vendor: str) -> str:
    """`round_state`'s changes of a round, latest first: each seat's latest, and the latest
    save not undone (what Undo would take back)."""
    c = HandChange
    cid, round_col = plain.col(c, "id"), plain.col(c, "round")
    at = plain.col(c, "changed_at")
    return (
        f"SELECT {plain.columns(c, 'c')} FROM {plain.table(c)} c "
        f"WHERE c.{round_col} = %s AND ("
        f"c.{cid} IN (SELECT MAX(u.{cid}) FROM {plain.table(c)} u WHERE u.{round_col} = %s "
        f"GROUP BY u.{plain.col(c, 'seat')}) "
        f"OR c.{cid} = (SELECT u.{cid} FROM {plain.table(c)} u WHERE u.{round_col} = %s "
        f"AND u.{plain.col(c, 'undo')} = %s AND u.{plain.col(c, 'undone_at')} IS NULL "
        f"ORDER BY u.{at} DESC, u.{cid} DESC LIMIT 1)) "
        f"ORDER BY c.{at} DESC, c.{cid} DESC"
    )


SHARED_STATES = 256
_SHARED_STATES = Recent(SHARED_STATES)  # (game, round number, version) -> RoundState


def round_state_at(game_id: int, number: int, version: int) -> RoundState:
    """The round as its game's version `version` left it (or a later one: it is read after the
    version), read once in this server process and shared by every phone that asks about that
    version: word of a save reaches every phone of its table at once, and each asks. Nothing
    in it is changed once made."""
    key = (game_id, number, version)
    state = _SHARED_STATES.get(key)
    if state is None:
        state = round_state(game_id, number)
        _SHARED_STATES.put(key, state)
    return state


def forget_shared_states() -> None:
    """Forget every round shared by version (a database put back from a backup repeats ids and
    versions: restart the server, or call this)."""
    _SHARED_STATES.clear()


def round_state_saved(hand: Hand, version: int) -> RoundState | None:
    """The round as the save of `hand` that made its game's version `version` left it (what
    `round_state` reads again), from what the save holds: its round and game, the table it
    decided on and the change it recorded (`Round.save_hand`), and one query for what it does
    not (whether a later round is open, how many changes the round has). None if another
    change to the game came since, or `hand` is not such a save. Its `saves` hold the saved
    hand's seat only: enough to draw what changed since the version before, not to share."""
    table, change = getattr(hand, "saved_with", (None, None))
    round_ = hand.round
    if change is None or change.game_version != version:
        return None
    found = plain.fetch_all(
        _saved_sql(connection.vendor), [round_.number, round_.pk, round_.game_id]
    )
    if not found or found[0][0] != version:
        return None
    _, is_later, changes_count = found[0]
    change.seat = hand.seat
    return RoundState.of(
        round_, table, change, not bool(is_later), [(hand.seat_id, version)], changes_count
    )


@cache
def _saved_sql(vendor: str) -> str:
    """`round_state_saved`'s statement: the game's version, whether a later round is open, how
    many changes the round has. Plain SQL: it runs for every save (the ORM's compiling of it
    cost more than the query)."""
    g, r, c = Game, Round, HandChange
    return (
        f"SELECT g.{plain.col(g, 'version')}, "
        f"EXISTS (SELECT 1 FROM {plain.table(r)} r WHERE r.{plain.col(r, 'game')} = "
        f"g.{plain.col(g, 'id')} AND r.{plain.col(r, 'number')} > %s), "
        f"(SELECT COUNT(*) FROM {plain.table(c)} c WHERE c.{plain.col(c, 'round')} = %s) "
        f"FROM {plain.table(g)} g WHERE g.{plain.col(g, 'id')} = %s"
    )


def round_state_for(request: TableRequest, game_id, number) -> RoundState:
    """The round's state, if this request may see its game (as `round_for` decides)."""
    state = round_state(game_id, number)
    if not sees_game(request, state.round.game):
        raise Http404("No such round")
    return state


def round_changes(state: RoundState, since: int | None) -> dict:
    """What a phone showing the round at game version `since` (None: unknown) must change:
    the summary, and the hands saved or undone since then, drawn as their summary lines."""
    round_, table = state.round, state.table
    seats = table.playing
    if since is not None:
        # The hands saved since, and those whose points another hand's save changed since.
        saved = {seat for seat, version in state.saves if version > since}
        saved |= {key for key, hand in table.hands.items() if hand.moved_in_version > since}
        seats = [seat for seat in seats if seat.pk in saved]
    doubler = round_.doubler(table)
    panels = [
        HandPanel.saved(round_, seat, table.hands.get(seat.pk), picker=False, doubler=doubler)
        for seat in seats
    ]
    return round_status(round_, table, state.last_save, state.report, state.last_undo) | {
        "panels": panels,
        "is_last_known": state.is_last_known,
        "changes_count": state.changes_count,
    }


def night_games(night) -> list[dict]:
    """Each game of the night with its score table and chart of running totals."""
    games = []
    night_games = [(game, score_table(game)) for game in night.games.order_by("created_at", "pk")]
    names = numbered_names(
        (game.pk, game.kind_def.name, bool(table.played_rows) or not game.finished_at)
        for game, table in night_games
    )
    for game, table in night_games:
        # Only the rounds played so far, each line only as far as its player's hands are
        # entered: a game in play does not run on to its open round.
        played, running = table.played_rows, table.running_totals()
        chart = None
        if played:
            chart = line_chart(
                [(s.player.name, s.player.colour, running[s.pk]) for s in table.seats],
                [str(row.round.number) for row in played],
                f"Running totals, {names[game.pk]}",
            )
        games.append(
            {
                "game": game,
                "kind": game.kind_def,
                "name": names[game.pk],
                "chart": chart,
                "table": table,
            }
        )
    return games


def tonight(request: TableRequest) -> dict:
    """A guest stays for the night: the games its pass lets it into, the next ones too (its
    score table lists them, and lists a game started since as the page follows the table)."""
    if not request.as_guest:
        return {}
    games = list(Game.objects.filter(request.guest.games()).order_by("created_at", "pk"))
    names = numbered_names((game.pk, game.kind_def.name, True) for game in games)
    return {"tonight": [(game, names[game.pk]) for game in games]}
