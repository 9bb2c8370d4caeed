"""What the pages of a game share: the game or round a request may see, and what the score
table, a round and a game night show. Views and live updates both read them from here."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from .access import TableRequest
from .charts import line_chart
from .models import Game, HandChange, Round, Seat
from .panels import HandPanel
from .score_table import score_table


def game_for(request: TableRequest, game_id) -> Game:
    """The game, if this request may see it: its group's, or the one its guest pass opens."""
    games = Game.objects.select_related("night")
    if request.as_guest:
        return get_object_or_404(games, pk=request.guest.game_id)
    return get_object_or_404(games, pk=game_id, group=request.group)


def round_for(request: TableRequest, game_id, number) -> Round:
    """The round (with its game and dealer), if this request may see its game."""
    rounds = Round.objects.select_related("game__night", "dealer__player")
    if request.as_guest:
        return get_object_or_404(rounds, game_id=request.guest.game_id, number=number)
    return get_object_or_404(rounds, game_id=game_id, game__group=request.group, number=number)


def seats_for(request: TableRequest, game_id, number) -> list[Seat]:
    """The game's seats with their players and the game, if this request may see the game and
    it has this round: one query for what entering a hand needs."""
    seats = Seat.objects.select_related("game__night", "player").filter(game__rounds__number=number)
    if request.as_guest:
        seats = seats.filter(game_id=request.guest.game_id)
    else:
        seats = seats.filter(game_id=game_id, game__group=request.group)
    found = list(seats)
    if not found:
        raise Http404("No such round")
    return found


def game_context(game: Game) -> dict:
    return {
        "game": game,
        "kind": game.kind_def,
        "current": game.current_round(),
        "table": score_table(game),
    }


def round_status(round_: Round, table) -> dict:
    """What the round's summary shows: its problems or completion, each hand's points, the
    round's notes (Rummy's double) and the save an undo would take back."""
    game = round_.game
    hands = table.hands_in_order()
    return {
        "game": game,
        "kind": game.kind_def,
        "round": round_,
        "hands": hands,
        "problems": round_.problems(table),
        "notes": game.kind_def.round_notes((hand.outcome, hand.all_pure) for hand in hands),
        "last_save": None if game.finished_at else round_.last_save(),
    }


def round_context(round_: Round, panels=None) -> dict:
    """Everything the round page draws: each playing seat's hand panel (one hand at a time),
    the summary, and the changes."""
    game = round_.game
    table = round_.table()
    panels = panels or {}
    built = [
        panels.get(seat.pk) or HandPanel.saved(round_, seat, table.hands.get(seat.pk))
        for seat in table.playing
    ]
    # One hand at a time: the first hand still to enter is open, the others wait as one line
    # each (none opens by itself while a hand is being entered or refused on this page).
    busy = any(panel.editing or panel.error or panel.conflict for panel in built)
    waiting = [panel for panel in built if panel.hand is None and not panel.editing]
    for panel in waiting[0 if busy else 1 :]:
        panel.collapsed = True
    return (
        round_status(round_, table)
        | _round_history(round_)
        | {
            "panels": built,
            "outcomes": game.kind_def.outcomes(game.engine_rules),
        }
    )


def _round_history(round_: Round) -> dict:
    """The round's changes, and whether a later round is open (the page's way there)."""
    return {
        "changes": HandChange.objects.filter(round=round_).select_related("seat__player"),
        "is_last_known": not round_.game.rounds.filter(number__gt=round_.number).exists(),
    }


def round_changes(round_: Round, since: int | None) -> dict:
    """What a phone showing the round at game version `since` (None: unknown) must change:
    the summary, and the hands saved or undone since then, drawn as their summary lines."""
    table = round_.table()
    seats = table.playing
    if since is not None:
        changed = HandChange.objects.filter(round=round_, game_version__gt=since)
        saved = set(changed.values_list("seat_id", flat=True))
        seats = [seat for seat in seats if seat.pk in saved]
    panels = [
        HandPanel.saved(round_, seat, table.hands.get(seat.pk), picker=False) for seat in seats
    ]
    return round_status(round_, table) | _round_history(round_) | {"panels": panels}


def night_games(night) -> list[dict]:
    """Each game of the night with its score table and chart of running totals."""
    games = []
    for game in night.games.order_by("created_at"):
        table = score_table(game)
        running = table.running_totals()
        chart = None
        if table.rows:
            chart = line_chart(
                [(s.player.name, s.player.colour, running[s.pk]) for s in table.seats],
                [str(row.round.number) for row in table.rows],
                f"Running totals, {game.kind_def.name}",
            )
        games.append({"game": game, "kind": game.kind_def, "chart": chart, "table": table})
    return games
