"""A photo of the whole table read into the round's hands, and the player's moves of what it
read (a hand to another seat, a card to another hand, a card lying between hands to a seat):
each hand's panel is filled as a photo of that hand fills it, nothing saved. Who may enter the
round's hands may send its table photo; the photo is read in memory and dropped."""

from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from games import engine, vision

from ..access import TableRequest, game_access
from ..lookups import round_context, round_for, whole_number
from ..models import Entry
from ..panels import HandPanel
from ..photos import PhotoInMemory, uploaded_photo
from ..table_photos import TableMoveError, carried, moved, read_table_photo


@csrf_exempt  # checked below, once the photo is known to stay in memory (as a hand's photo)
@require_POST
def table_photo(request: TableRequest, game_id, number):
    """Every hand of the round from one photo of the table, from the `photographer` seat."""
    request.upload_handlers = [PhotoInMemory(request)]
    return _table_photo(request, game_id, number)


@csrf_protect
@game_access
def _table_photo(request: TableRequest, game_id, number):
    round_, seats, problem = _playing(request, game_id, number)
    game, table = round_.game, None
    if problem is None:
        by_pk = {seat.pk: seat for seat in seats}
        photographer = by_pk.get(whole_number(request.POST.get("photographer")), seats[0])
        data, problem = uploaded_photo(request, "Choose a photo of the table first.")
        if data is not None:
            kind, rules = game.kind_def, game.engine_rules
            try:
                table = read_table_photo(data, seats, photographer, kind, rules, round_.number)
            except vision.PhotoError as refusal:
                problem = refusal.message
    return _answer(request, round_, table, problem)


@game_access
@require_POST
def table_move(request: TableRequest, game_id, number):
    """One tap on a table photo's reading: its hands as the page carries them, moved."""
    round_, seats, problem = _playing(request, game_id, number)
    game, table = round_.game, None
    if problem is None:
        kind, rules = game.kind_def, game.engine_rules
        try:
            table = carried(request.POST, seats, kind, rules, round_.number)
            table = moved(table, request.POST.get("move", ""), kind, rules, round_.number)
        except TableMoveError as refusal:
            table, problem = None, str(refusal)
    return _answer(request, round_, table, problem)


def _playing(request: TableRequest, game_id, number):
    """The round, if this request may see its game, the seats whose hands it enters, and why
    its table may not be read from a photo (None: it may)."""
    round_ = round_for(request, game_id, number)
    seats = round_.table().playing
    return round_, seats, _refused(round_, seats)


def _refused(round_, seats) -> str | None:
    game = round_.game
    if len(seats) not in vision.HANDS:
        return vision.tables.hands_words(len(seats))
    if game.finished_at:
        return "This game is finished: reopen it to change a hand."
    if not game.kind_def.reads_photos:
        return f"{game.kind_def.name}'s own deck cannot be read from a photo: tap the cards."
    return None


def _answer(request: TableRequest, round_, table, problem):
    status = 422 if problem else 200
    game = round_.game
    if request.htmx:
        context = {"game": game, "kind": game.kind_def, "round": round_}
        context |= {"table": table, "table_problem": problem}
        return render(request, "games/table_photo.html#table-answer", context, status=status)
    # Without JavaScript: the round page, each hand's panel holding what the photo shows.
    panels = {}
    if table is not None:
        hands = round_.table().hands
        for held in table.hands:
            seat, reading = held.seat, held.reading
            hand = hands.get(seat.pk)
            entry = Entry(engine.CARDS, " ".join(reading.cards), None, hand.version if hand else 0)
            panels[seat.pk] = HandPanel.entering(round_, seat, hand, entry, reading=reading)
    context = round_context(round_, panels=panels) | {"table": table, "table_problem": problem}
    if table is not None:
        context["photographer"] = table.hands[0].seat.pk
    return render(request, "games/round.html", context, status=status)
