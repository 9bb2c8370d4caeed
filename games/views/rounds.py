"""A round at the table: its page, each hand's entry (scored as it stands, or saved), and the
undo of its last save."""

import re
from dataclasses import replace

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_POST, require_safe

from games import engine, vision
from games.engine.cards import format_cards

from ..access import TableRequest, game_access, saver
from ..answers import fragment
from ..etags import round_etag
from ..forms import HandForm
from ..live.changes import drawing_save, drawing_undo
from ..lookups import (
    round_changes_list,
    round_context,
    round_for,
    round_state_for,
    round_status,
    seats_for,
    whole_number,
)
from ..models import Conflict, Entry, Game, Question, Refused, Round, entry_key
from ..panels import HandPanel
from ..photos import PhotoInMemory, read_hand_photo, uploaded_photo
from ..table_photos import photographer
from ..templatetags.cards import hand_preview


@game_access
@require_safe
def round_page(request: TableRequest, game_id, number):
    if request.htmx and request.htmx.target != "round-changes-list":
        # The round's summary, asked again after each save (as every phone's poll draws it).
        state = round_state_for(request, game_id, number)
        context = round_status(
            state.round, state.table, state.last_save, state.report, state.last_undo
        )
        return render(request, "games/round.html#round-status", context)
    round_ = round_for(request, game_id, number)
    if request.htmx:  # the changes, opened
        context = {"changes": round_changes_list(round_), "round": round_}
        return render(request, "games/round.html#round-changes", context)
    every_change = request.GET.get("changes") == "all"
    context = round_context(round_, all_changes=every_change)
    context["live_etag"] = round_etag(request, round_.game, number)
    # "I'm entering for": a phone picks the one seat whose hand it enters; that panel opens,
    # in this round and the game's next ones (the choice, "Everyone" too, kept on the phone in
    # a cookie of the game's own). A guest's phone says so first, and one named for a player
    # ("Bob's phone") starts on that player's hand until it chooses.
    kept = f"entering_for_{round_.game_id}"
    chosen = request.GET["seat"] if "seat" in request.GET else request.COOKIES.get(kept)
    entering_for = whole_number(chosen)
    if request.as_guest:
        context["choose_first"] = True
        if chosen is None:
            entering_for = _named_for(request.guest.device, context["panels"])
    if any(panel.seat.pk == entering_for for panel in context["panels"]):
        context["entering_for"] = entering_for
        context["panels"].sort(key=lambda panel: panel.seat.pk != entering_for)
    context["photographer"] = photographer(context["panels"], context.get("entering_for"))
    response = render(request, "games/round.html", context)
    if "seat" in request.GET:
        response.set_cookie(
            kept,
            str(context.get("entering_for") or EVERYONE),
            max_age=SEAT_KEPT,
            path=reverse("game", args=[round_.game_id]),
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


EVERYONE = "everyone"  # the kept choice of no one seat
SEAT_KEPT = 12 * 3600  # s: an evening's games


def _named_for(device: str, panels) -> int | None:
    """The seat of the one player a phone's name starts with ("Bob's phone", "bob"), if any
    (of two such names, the longer: "Anna" before "Ann")."""
    device = device.casefold()
    named = [
        panel.seat
        for panel in panels
        if re.match(rf"{re.escape(panel.seat.player.name.casefold())}(?![\w])", device)
    ]
    named.sort(key=lambda seat: -len(seat.player.name))
    return named[0].pk if named else None


@game_access
@require_POST
def hand_entry(request: TableRequest, game_id, number, seat_id):
    """A hand's entry: scored as it stands (the phone shows the melds and points), or saved."""
    scoring = request.htmx and not HandForm.saves(request.POST)  # a tap's: no other seat read
    seats, seat = _seat_of(request, game_id, number, seat_id, alone=scoring)
    game = seat.game
    form = HandForm(request.POST, game=game)
    valid = form.is_valid()
    entry = form.entry()
    if request.htmx and not form.saving:
        return _preview(request, game, number, seat, entry, form)
    if not form.saving or not valid:
        round_ = _round_of(game, number)
        panel = _entering(round_, seat, entry, error=form.problem())
        return _answer_hand(request, round_, panel, status=422 if form.saving else 200)
    try:
        saved, _ = Round(game=game, number=number).save_hand(
            seat,
            entry,
            seats=seats,
            saver=saver(request),
            ask=not form.answered,
            within=drawing_save(request),
        )
    except Conflict as conflict:
        round_ = _round_of(game, number)
        shown = replace(entry, version=conflict.saved.version)
        panel = _entering(round_, seat, shown, hand=conflict.saved, conflict=conflict.saved)
        return _answer_hand(request, round_, panel, status=409)
    except Refused as refusal:
        round_ = _round_of(game, number)
        panel = _entering(round_, seat, entry, error=str(refusal))
        return _answer_hand(request, round_, panel, status=422)
    except Question as question:
        # Counted cards that could have won: asked first (nothing is saved until answered).
        round_ = _round_of(game, number)
        panel = _entering(round_, seat, entry, question=str(question))
        return _answer_hand(request, round_, panel)
    if not request.htmx:
        messages.success(request, f"{seat.player.name}'s hand saved.")
        return redirect(saved.round)
    # Taken: the hand's line and cards are sent to be swapped in (the form the phone filled
    # stays as it is, with the hand's new version), and the round's summary asks again. The
    # line is the one every other phone draws for the hand.
    round_ = saved.round
    table = getattr(saved, "saved_with", (None,))[0]  # the round as the save left it, if it did
    panel = HandPanel.saved(round_, seat, saved, picker=False, doubler=round_.doubler(table))
    context = {"game": game, "kind": game.kind_def, "round": round_, "panel": panel}
    context["as_drawn"] = _out_of_band(getattr(saved, "as_drawn", None), seat.pk)
    response = render(request, "games/round.html#hand-saved", context)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "round-changed"
    response["X-Hand-Version"] = str(saved.version)
    response["X-Game-Version"] = str(saved.round.game.version)  # its carried change's (live.js)
    response["X-Saved-Key"] = saved.entry_key
    return response


def _out_of_band(drawn: str | None, seat_id: int) -> SafeString | None:
    """The hand's line and cards as its save's change drew them (`changes.drawing_save`), made
    the answer's out-of-band swaps as the template's `oob` makes them: one attribute after each
    part's id (an id no text of a player's can hold: the template escapes their quotes). None
    where nothing was drawn: then the template draws them."""
    if not drawn:
        return None
    for part in ("hand-line", "hand-shown"):
        anchor = f'id="{part}-{seat_id}"'
        if drawn.count(anchor) != 1:
            return None
        drawn = drawn.replace(anchor, f'{anchor} hx-swap-oob="true"')
    return mark_safe(drawn)


def _seat_of(request: TableRequest, game_id, number, seat_id, alone: bool = False):
    """The game's seats (with their players and the game) and the one whose hand is asked
    for, if this request may enter hands in that game's round (`alone`: that seat's alone)."""
    seats = seats_for(request, game_id, number, only=seat_id if alone else None)
    seat = next((seat for seat in seats if seat.pk == seat_id), None)
    if seat is None:
        raise Http404("No such seat")
    return seats, seat


def _round_of(game: Game, number: int) -> Round:
    round_ = get_object_or_404(game.rounds.select_related("dealer__player"), number=number)
    round_.game = game
    return round_


def _hand(round_: Round, seat):
    return round_.hands.filter(seat=seat).first()


def _entering(round_: Round, seat, entry, **shown) -> HandPanel:
    """The panel of an entry not saved (refused, asked about, in conflict, or not a save)."""
    hand = shown.pop("hand", None) or _hand(round_, seat)
    return HandPanel.entering(round_, seat, hand, entry, doubler=round_.doubler(), **shown)


def _preview(request: TableRequest, game: Game, number: int, seat, entry, form) -> HttpResponse:
    """The melds and points of a hand as it stands, in place of the panel's preview only: the
    phone has drawn the chosen cards itself. It says which stored hand the entry would be
    (`entry_key`), so a draft kept on the phone can tell when the server has it."""
    kind, rules = game.kind_def, game.engine_rules
    scored = kind.score(entry.outcome, entry.cards, number, rules, entry.entered, entry.extra)
    problem = form.problem()
    sizes = kind.holds(number, entry.outcome)
    # Cleared, or still being tapped: no error until it is saved (too many is said at once).
    counting = engine.takes_cards(entry.outcome) and len(scored.cards) < min(sizes)
    round_ = Round(game=game, number=number)
    doubler = round_.doubler() if scored.complete else None
    panel = HandPanel(round_, seat, None, entry, scored=scored, editing=True, doubler=doubler)
    shown = hand_preview(
        seat.pk,
        scored,
        kind,
        kind.wild_rank(number, rules),
        complete=len(scored.cards) in sizes,
        problem=problem or (None if counting else scored.error),
        read=" ".join(str(card) for card in scored.cards),
        reasons=panel.reasons,
        points=panel.points,
        entry_key=entry_key(entry.state(format_cards(scored.cards))),
    )
    response = HttpResponse(shown)
    response["HX-Retarget"] = f"#preview-{seat.pk}"
    response["HX-Reswap"] = "outerHTML"
    return response


def _answer_hand(request: TableRequest, round_: Round, panel, status=200):
    game = round_.game
    if request.htmx:
        context = {
            "game": game,
            "kind": game.kind_def,
            "round": round_,
            "panel": panel,
            "outcomes": game.kind_def.outcomes(game.engine_rules),
        }
        return fragment(request, "games/round.html#hand-panel", context, status)
    context = round_context(round_, panels={panel.seat.pk: panel})
    return render(request, "games/round.html", context, status=status)


@game_access
@require_POST
def undo_save(request: TableRequest, game_id, number):
    """Take back the round's last save (the one the page offered, if another came since the
    undo is refused and the page shows the new last save). The game's guest may too, its own."""
    round_ = round_for(request, game_id, number)
    expected = whole_number(request.POST.get("change"))
    try:
        undo = round_.undo_last(
            expected=expected, saver=saver(request), within=drawing_undo(request)
        )
    except Refused as refusal:
        messages.error(request, f"Nothing was undone: {refusal}.")
        return redirect(round_)
    if request.htmx:
        return _undone(request, round_, undo)
    name = undo.seat.player.name
    if undo.removed_hand:
        messages.success(request, f"Undone: {name}'s hand is not entered any more.")
    else:
        messages.success(request, f"Undone: {name}'s hand is back to {undo.new_summary}.")
    return redirect(f"{round_.get_absolute_url()}#round-status")


def _undone(request: TableRequest, round_: Round, undo) -> HttpResponse:
    """An undo taken on this phone: the round's summary where Undo was tapped, and the hand's
    panel open again holding the entry that was undone (not saved), to correct and save."""
    round_ = _round_of(round_.game, round_.number)
    context = round_status(round_, round_.table(), last_undo=undo)
    seat = undo.seat
    hand = _hand(round_, seat)
    state = undo.before
    entry = Entry(
        state.get("outcome") or engine.CARDS,
        state.get("cards", ""),
        state.get("entered_points"),
        hand.version if hand else 0,
        state.get("extra", {}),
    )
    panel = _entering(round_, seat, entry, hand=hand, undone=True)
    response = render(
        request, "games/round.html#undone", context | {"panel": panel, "undone_here": True}
    )
    response["X-Game-Version"] = str(undo.game_version)
    return response


@csrf_exempt  # checked below, once the photo is known to stay in memory (`_hand_photo`)
@require_POST
def hand_photo(request: TableRequest, game_id, number, seat_id):
    """The cards of a photo of a hand become its panel's chosen cards, to check and correct
    before saving: who may save the hand may send its photo. The photo is read in memory and
    dropped: never written, logged or sent back."""
    request.upload_handlers = [PhotoInMemory(request)]
    return _hand_photo(request, game_id, number, seat_id)


@csrf_protect
@game_access
def _hand_photo(request: TableRequest, game_id, number, seat_id):
    _, seat = _seat_of(request, game_id, number, seat_id)
    game = seat.game
    round_ = _round_of(game, number)
    reading, problem = None, None
    if game.finished_at:
        problem = "This game is finished: reopen it to change a hand."
    elif not game.kind_def.reads_photos:
        problem = f"{game.kind_def.name}'s own deck cannot be read from a photo: tap the cards."
    else:
        data, problem = uploaded_photo(request, "Choose a photo of the hand first.")
        if data is not None:
            try:
                reading = read_hand_photo(data, game.kind_def, game.engine_rules, round_.number)
            except vision.PhotoError as refusal:
                problem = refusal.message
    status = 422 if problem else 200
    context = {"game": game, "kind": game.kind_def, "round": round_, "seat": seat}
    context |= {"reading": reading, "photo_problem": problem}
    if request.htmx:
        return fragment(request, "games/round.html#photo-reading", context, status)
    # Without JavaScript: the round page, the hand's panel holding what the photo shows.
    hand = _hand(round_, seat)
    entry = Entry(engine.CARDS, " ".join(reading.cards)) if reading else None
    if entry is None:
        entry = hand.entry if hand else Entry(engine.CARDS)
    panel = HandPanel.entering(round_, seat, hand, entry, reading=reading, photo_problem=problem)
    return render(
        request, "games/round.html", round_context(round_, panels={seat.pk: panel}), status=status
    )
