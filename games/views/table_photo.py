"""A photo of the whole table read into the round's hands, and the player's moves of what it
read (a hand to another seat, a card to another hand, a card lying between hands to a seat):
each hand's panel is filled as a photo of that hand fills it, nothing saved. Who may enter the
round's hands may send its table photo; the photo is read in memory and dropped. Without
JavaScript, "Save every hand" posts the reading itself: its hands are saved one after another,
each checked as its own Save checks it, until one is refused or asked about (static/js/
table_photo.js does the same through each panel's own Save)."""

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST

from games import engine, vision

from ..access import TableRequest, game_access, saver
from ..answers import fragment
from ..live.changes import drawing_save
from ..lookups import round_context, round_for, whole_number
from ..models import Conflict, Entry, Question, Refused, Round
from ..panels import HandPanel
from ..photos import PhotoInMemory, uploaded_photo
from ..table_photos import TableMoveError, carried, moved, read_table_photo

SAVE = "save"  # the move that saves every hand; "save:<seat>:<outcome>" answers a question too
ANSWERS = (engine.WENT_OUT, engine.CARDS)
NOTHING_FOUND = (
    "No cards were found in this photo: lay every hand face up in front of its seat, each "
    "corner showing, and take it again. Nothing was changed."
)


@dataclass(frozen=True)
class TableStop:
    """Where saving every hand stopped: the hand refused (why) or asked about (the question,
    its two answers' words)."""

    seat: object  # games.models.Seat
    question: str | None = None
    yes: str = ""
    no: str = ""
    error: str | None = None


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
            if table is not None and table.empty:
                # Refused as a file is, so that no panel loses what it holds (the hand photo's
                # rule: none found, the panel keeps its cards).
                table, problem = None, NOTHING_FOUND
    return _answer(request, round_, table, problem)


@game_access
@require_POST
def table_move(request: TableRequest, game_id, number):
    """One tap on a table photo's reading: its hands as the page carries them, moved."""
    round_, seats, problem = _playing(request, game_id, number)
    game, table, stop, saved = round_.game, None, None, ()
    if problem is None:
        kind, rules = game.kind_def, game.engine_rules
        move = request.POST.get("move", "")
        try:
            table = carried(request.POST, seats, kind, rules, round_.number)
            if move.split(":")[0] == SAVE:
                saved, stop = _save_every_hand(request, round_, seats, table, move)
                if stop is None:
                    return _every_hand_saved(request, round_, table, saved)
            else:
                table = moved(table, move, kind, rules, round_.number)
        except TableMoveError as refusal:
            table, problem = None, str(refusal)
    return _answer(request, round_, table, problem, stop, saved)


def _answered(move: str) -> tuple[int | None, str | None]:
    """The seat and outcome a "save:<seat>:<outcome>" move answers its question with."""
    _, seat, outcome = [*move.split(":"), "", ""][:3]
    if outcome not in ANSWERS:
        if move != SAVE:
            raise TableMoveError("That answer is not one the page offered: read the photo again.")
        return None, None
    return whole_number(seat), outcome


def _save_every_hand(request: TableRequest, round_, seats, table, move):
    """Each hand of the reading not saved yet, saved as its own Save saves it, in the table's
    order; (the seats saved, where it stopped or None). A hand saved meanwhile on another phone
    keeps that save; a hand with no card read is left to its panel."""
    seat_answered, outcome_answered = _answered(move)
    game, saved = round_.game, []
    already = round_.table().hands
    for held in table.hands:
        seat, cards = held.seat, " ".join(held.reading.cards)
        if seat.pk in already or not cards:
            continue
        answered = seat.pk == seat_answered
        entry = Entry(outcome_answered if answered else engine.CARDS, cards, None, 0)
        try:
            Round(game=game, number=round_.number).save_hand(
                seat,
                entry,
                seats=seats,
                saver=saver(request),
                ask=not answered,
                within=drawing_save(request),
            )
        except Conflict:
            continue  # saved on another phone since the page was drawn: that save stands
        except Refused as refusal:
            return tuple(saved), TableStop(seat, error=str(refusal))
        except Question as question:
            # Asked in the words its panel asks it in.
            asked = HandPanel.entering(
                round_, seat, None, entry, question=str(question), picker=False
            ).asked
            return tuple(saved), TableStop(seat, str(question), asked["yes"], asked["no"])
        saved.append(seat)
    return tuple(saved), None


def _every_hand_saved(request: TableRequest, round_, table, saved) -> HttpResponse:
    left = [hand.seat.player.name for hand in table.hands if not hand.reading.cards]
    said = f"Every hand of the photo is saved ({len(saved)})."
    if left:
        said += f" Nothing was read for {', '.join(left)}: enter it in its panel."
    messages.success(request, said)
    if request.htmx:
        answer = HttpResponse(status=204)
        answer["HX-Redirect"] = round_.get_absolute_url()
        return answer
    return redirect(round_)


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


def _answer(request: TableRequest, round_, table, problem, stop: TableStop | None = None, saved=()):
    status = 422 if problem or (stop and stop.error) else 200
    game = round_.game
    if request.htmx:
        context = {"game": game, "kind": game.kind_def, "round": round_}
        context |= {"table": table, "table_problem": problem}
        context |= {"table_stop": stop, "table_saved": saved}
        return fragment(request, "games/table_photo.html#table-answer", context, status)
    # Without JavaScript: the round page, each hand's panel holding what the photo shows (but
    # the hands saved since: their lines), a refusal in its hand's panel too.
    panels = {}
    if table is not None:
        hands = round_.table().hands
        for held in table.hands:
            seat, reading = held.seat, held.reading
            hand = hands.get(seat.pk)
            if seat in saved:
                continue
            entry = Entry(engine.CARDS, " ".join(reading.cards), None, hand.version if hand else 0)
            error = stop.error if stop is not None and stop.seat == seat else None
            panels[seat.pk] = HandPanel.entering(
                round_, seat, hand, entry, reading=reading, error=error
            )
    context = round_context(round_, panels=panels) | {"table": table, "table_problem": problem}
    context |= {"table_stop": stop, "table_saved": saved}
    if table is not None:
        context["photographer"] = table.hands[0].seat.pk
    return render(request, "games/round.html", context, status=status)
