"""The app's pages: each view parses, calls the models or the engine, and renders."""

import json
from dataclasses import replace

from django.contrib import messages
from django.contrib.auth import login
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import engine

from .access import TIME_ZONE_COOKIE, TableRequest, game_access, known_time_zones, member_required
from .charts import line_chart
from .forms import (
    HandForm,
    ImportForm,
    LeaderboardFilter,
    NewGameForm,
    NightForm,
    NightSearch,
    PlayerForm,
    SignupForm,
    TimeZoneForm,
)
from .history import game_results, leaderboard, player_record
from .live import game_etag, night_etag, round_etag
from .lookups import (
    game_context,
    game_for,
    night_games,
    round_changes_list,
    round_context,
    round_for,
    round_state_for,
    round_status,
    seats_for,
)
from .models import Conflict, Game, GameNight, Group, Player, Refused, Round
from .panels import HandPanel
from .transfer import ImportProblem, export_csv, export_json, import_json


@require_safe
def home(request: TableRequest):
    if request.group is None:
        return render(request, "home.html", {"kinds": engine.KINDS.values()})
    nights = list(GameNight.objects.filter(group=request.group)[:30])
    results = game_results(Game.objects.filter(night__in=nights).order_by("created_at"))
    by_night = {}
    for result in sorted(results, key=lambda r: r.game.created_at):
        by_night.setdefault(result.game.night_id, []).append(result)
    rows = [{"night": night, "games": by_night.get(night.pk, [])} for night in nights]
    return render(request, "home.html", {"nights": rows})


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: TableRequest):
    # An invitation sends here with ?next= so the new login comes back to join.
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, request.is_secure()
    ):
        next_url = ""  # only a page of this site
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            Group.found(user, f"{user.username}'s table")
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if next_url:
            return redirect(next_url)
        messages.success(request, "Welcome! Start your first game: list the players as they sit.")
        return redirect("new_game")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def players(request: TableRequest):
    form = PlayerForm(request.POST or None, group=request.group)
    if request.method == "POST" and form.is_valid():
        Player.objects.create(group=request.group, name=form.cleaned_data["name"])
        messages.success(request, f"{form.cleaned_data['name']} added.")
        return redirect("players")
    listed = Player.objects.filter(group=request.group)
    return render(request, "games/players.html", {"form": form, "players": listed})


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: TableRequest):
    rematch = None
    if request.GET.get("rematch"):
        rematch = Game.objects.filter(group=request.group, pk=_int(request.GET["rematch"])).first()
    form = NewGameForm(request.POST or None, group=request.group, initial_game=rematch)
    if request.method == "POST" and form.is_valid():
        game = form.start(request.user)
        return redirect(game.current_round())
    saved = Player.objects.filter(group=request.group)
    return render(request, "games/new_game.html", {"form": form, "saved_players": saved})


def _int(text) -> int | None:
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if 0 < value < 2**63 else None


@game_access
@require_safe
def game(request: TableRequest, game_id):
    game = game_for(request, game_id)
    context = game_context(game) | {"live_etag": game_etag(request, game)}
    return render(request, "games/game.html", context)


@game_access
@require_safe
def round_page(request: TableRequest, game_id, number):
    if request.htmx and request.htmx.target != "round-changes-list":
        # The round's summary, asked again after each save (as every phone's poll draws it).
        state = round_state_for(request, game_id, number)
        context = round_status(state.round, state.table, state.last_save, state.report)
        return render(request, "games/round.html#round-status", context)
    round_ = round_for(request, game_id, number)
    if request.htmx:  # the changes, opened
        context = {"changes": round_changes_list(round_)}
        return render(request, "games/round.html#round-changes", context)
    context = round_context(round_) | {"live_etag": round_etag(request, round_.game, number)}
    # "I'm entering for": a phone picks the one seat whose hand it enters; that panel opens.
    entering_for = _int(request.GET.get("seat"))
    if any(panel.seat.pk == entering_for for panel in context["panels"]):
        context["entering_for"] = entering_for
        context["panels"].sort(key=lambda panel: panel.seat.pk != entering_for)
    return render(request, "games/round.html", context)


@game_access
@require_POST
def hand_entry(request: TableRequest, game_id, number, seat_id):
    """A hand's entry: scored as it stands (the phone shows the melds and points), or saved."""
    seats = seats_for(request, game_id, number)
    seat = next((seat for seat in seats if seat.pk == seat_id), None)
    if seat is None:
        raise Http404("No such seat")
    game = seat.game
    form = HandForm(request.POST, game=game)
    valid = form.is_valid()
    entry = form.entry()
    if request.htmx and not form.saving:
        return _preview(request, game, number, seat, entry, form)
    if not form.saving or not valid:
        round_ = _round_of(game, number)
        panel = HandPanel.entering(round_, seat, _hand(round_, seat), entry, error=form.problem())
        return _answer_hand(request, round_, panel, status=422 if form.saving else 200)
    who = _who(request)
    try:
        saved, _ = Round(game=game, number=number).save_hand(seat, entry, seats=seats, **who)
    except Conflict as conflict:
        round_ = _round_of(game, number)
        shown = replace(entry, version=conflict.saved.version)
        panel = HandPanel.entering(round_, seat, conflict.saved, shown, conflict=conflict.saved)
        return _answer_hand(request, round_, panel, status=409)
    except Refused as refusal:
        round_ = _round_of(game, number)
        panel = HandPanel.entering(round_, seat, _hand(round_, seat), entry, error=str(refusal))
        return _answer_hand(request, round_, panel, status=422)
    if not request.htmx:
        messages.success(request, f"{seat.player.name}'s hand saved.")
        return redirect(saved.round)
    # Taken: the hand's line and cards are sent to be swapped in (the form the phone filled
    # stays as it is, with the hand's new version), and the round's summary asks again.
    panel = HandPanel.saved(saved.round, seat, saved, saved_now=True, picker=False)
    context = {"game": game, "kind": game.kind_def, "round": saved.round, "panel": panel}
    response = render(request, "games/round.html#hand-saved", context)
    response["HX-Reswap"] = "none"
    response["HX-Trigger"] = "round-changed"
    response["X-Hand-Version"] = str(saved.version)
    response["X-Saved-Entry"] = panel.stored
    return response


def _who(request: TableRequest) -> dict:
    """Who saves, as the game's records name them: a member, or a guest's phone and link."""
    if request.as_guest:
        return {"by_name": request.guest.name, "guest_pass_id": request.guest.pass_id}
    return {"user": request.user}


def _round_of(game: Game, number: int) -> Round:
    round_ = get_object_or_404(game.rounds.select_related("dealer__player"), number=number)
    round_.game = game
    return round_


def _hand(round_: Round, seat):
    return round_.hands.filter(seat=seat).first()


def _preview(request: TableRequest, game: Game, number: int, seat, entry, form) -> HttpResponse:
    """The melds and points of a hand as it stands, in place of the panel's preview only: the
    phone has drawn the chosen cards itself."""
    kind, rules = game.kind_def, game.engine_rules
    scored = kind.score(entry.outcome, entry.cards, number, rules, entry.entered, entry.extra)
    problem = form.problem()
    sizes = kind.holds(number, entry.outcome)
    counting = engine.takes_cards(entry.outcome) and 0 < len(scored.cards) < min(sizes)
    context = {
        "game": game,
        "kind": kind,
        "seat": seat,
        "scored": scored,
        "wild_rank": kind.wild_rank(number, rules),
        "complete": len(scored.cards) in sizes,
        "problem": problem or (None if counting else scored.error),
        "read": " ".join(str(card) for card in scored.cards),
    }
    response = render(request, "games/round.html#hand-preview", context)
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
        return render(request, "games/round.html#hand-panel", context, status=status)
    context = round_context(round_, panels={panel.seat.pk: panel})
    return render(request, "games/round.html", context, status=status)


@game_access
@require_POST
def undo_save(request: TableRequest, game_id, number):
    """Take back the round's last save (the one the page offered, if another came since the
    undo is refused and the page shows the new last save). The game's guest may too."""
    round_ = round_for(request, game_id, number)
    expected = _int(request.POST.get("change"))
    who = _who(request)
    try:
        undo = round_.undo_last(expected=expected, **who)
    except Refused as refusal:
        messages.error(request, f"Nothing was undone: {refusal}.")
        return redirect(round_)
    who = undo.seat.player.name
    if undo.removed_hand:
        messages.success(request, f"Undone: {who}'s hand is not entered any more.")
    else:
        messages.success(request, f"Undone: {who}'s hand is back to {undo.new_summary}.")
    return redirect(round_)


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def finish_game(request: TableRequest, game_id):
    """Finishing early is asked first: the page says what becomes of the open round."""
    game = game_for(request, game_id)
    if game.finished_at:
        return redirect(game)
    if request.method == "POST":
        game.finish()
        messages.success(request, "Game finished. You can reopen it from its score table.")
        return redirect(game)
    current = game.current_round()
    table = current.table() if current else None
    context = {
        "game": game,
        "kind": game.kind_def,
        "current": current,
        "entered": len(table.hands) if table else 0,
        "playing": len(table.playing) if table else 0,
    }
    return render(request, "games/finish.html", context)


@member_required
@require_POST
def reopen_game(request: TableRequest, game_id):
    game = game_for(request, game_id)
    if game.finished_at:
        game.reopen()
        messages.success(request, "Game reopened: its hands can be changed again.")
    return redirect(game)


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def night(request: TableRequest, night_id):
    night = get_object_or_404(GameNight, pk=night_id, group=request.group)
    form = NightForm(request.POST or None, initial={"date": night.date})
    if request.method == "POST" and form.is_valid():
        night.date = form.cleaned_data["date"]
        night.save(update_fields=["date"])
        messages.success(request, "Date changed.")
        return redirect(night)
    games = night_games(night)
    etag = night_etag(request, night, len(games), sum(item["game"].version for item in games))
    context = {"night": night, "form": form, "games": games, "live_etag": etag}
    return render(request, "games/night.html", context)


# ---------------------------------------------------------------- looking back


@member_required
@require_safe
def player_page(request: TableRequest, player_id):
    player = get_object_or_404(Player, pk=player_id, group=request.group)
    record = player_record(player)
    kinds = []
    for kind in engine.KINDS.values():
        results = [r for r in record.results if r.game.kind == kind.slug]
        chart = None
        if results:
            values = [r.total_of(player.pk) for r in results]
            labels = [r.game.night.date.strftime("%d %b") for r in results]
            title = f"{player.name}'s totals in {kind.name}, game by game"
            chart = line_chart([(kind.name, player.colour, values)], labels, title)
        kinds.append(record.of_kind(kind, chart))
    context = {"player": player, "record": record, "kinds": kinds}
    return render(request, "games/player.html", context)


@member_required
@require_safe
def leaderboard_page(request: TableRequest):
    return _leaderboard(request)


def _leaderboard(request: TableRequest, zone_form=None):
    form = LeaderboardFilter(request.GET or None)
    rows = None  # no board at all for a choice that makes no sense, only its error
    if form.is_valid() or not form.is_bound:
        data = form.cleaned_data if form.is_bound else {}
        rows = leaderboard(
            request.group, data.get("kind") or None, data.get("start"), data.get("end")
        )
    zone_form = zone_form or TimeZoneForm(
        initial={"time_zone": request.group.time_zone}, phone_zone=_phone_zone(request)
    )
    context = {"form": form, "rows": rows, "zone_form": zone_form}
    status = 422 if zone_form.errors else 200
    return render(request, "games/leaderboard.html", context, status=status)


def _phone_zone(request: TableRequest) -> str:
    zone = request.COOKIES.get(TIME_ZONE_COOKIE, "")
    return zone if zone in known_time_zones() else ""


@member_required
@require_POST
def group_time_zone(request: TableRequest):
    """The group's time zone, or none: then each phone shows times in its own."""
    form = TimeZoneForm(request.POST, phone_zone=_phone_zone(request))
    if not form.is_valid():
        return _leaderboard(request, zone_form=form)
    group = request.group
    group.time_zone = form.cleaned_data["time_zone"]
    group.save(update_fields=["time_zone"])
    if group.time_zone:
        messages.success(request, f"Times are now shown in {group.time_zone.replace('_', ' ')}.")
    else:
        messages.success(request, "Times are now shown in each phone's own time zone.")
    return redirect("leaderboard")


@member_required
@require_safe
def nights_page(request: TableRequest):
    form = NightSearch(request.GET or None, group=request.group)
    nights = GameNight.objects.filter(group=request.group).order_by("-date", "-created_at")
    if form.is_valid():
        # Both conditions hold for one game: the player played that game.
        wanted = {}
        if form.cleaned_data["player"]:
            wanted["games__seats__player"] = form.cleaned_data["player"]
        if form.cleaned_data["kind"]:
            wanted["games__kind"] = form.cleaned_data["kind"]
        nights = nights.filter(**wanted).distinct()
    page = Paginator(nights, 20).get_page(request.GET.get("page"))
    games = (
        Game.objects.filter(night__in=[n.pk for n in page])
        .prefetch_related("seats__player")
        .order_by("created_at")
    )
    by_night = {}
    for game in games:
        by_night.setdefault(game.night_id, []).append(game)
    rows = [{"night": n, "games": by_night.get(n.pk, [])} for n in page]
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "rows": rows, "query": query.urlencode()}
    return render(request, "games/nights.html", context)


def _download(content, filename, content_type):
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@member_required
@require_safe
def export_data(request: TableRequest, file_format, night_id=None):
    if file_format not in ("csv", "json"):
        raise Http404("Exports are CSV or JSON")
    night = get_object_or_404(GameNight, pk=night_id, group=request.group) if night_id else None
    stem = f"game-night-{night.date.isoformat()}" if night else "scorekeeper-history"
    if file_format == "csv":
        body = export_csv(request.group, night)
        return _download(body, f"{stem}.csv", "text/csv; charset=utf-8")
    body = json.dumps(export_json(request.group, night), indent=1, ensure_ascii=False)
    return _download(body, f"{stem}.json", "application/json")


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_data(request: TableRequest):
    group = request.group
    form = ImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            counts = import_json(group, form.cleaned_data["file"].read())
        except ImportProblem as problem:
            problems = problem.problems
        else:
            messages.success(request, "Imported " + _counted(counts) + ".")
            return redirect("nights")
    empty = not (group.players.exists() or group.nights.exists())
    context = {"form": form, "problems": problems, "empty": empty}
    return render(request, "games/import.html", context)


def _counted(counts) -> str:
    words = [("nights", "game night"), ("games", "game"), ("hands", "hand")]
    parts = [f"{counts[key]} {word}{pluralize(counts[key])}" for key, word in words]
    return f"{parts[0]}, {parts[1]} and {parts[2]}"
