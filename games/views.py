from collections import Counter
from contextlib import suppress
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.engine.cards import SUITS, Card, CardError, format_cards, parse_hand, sort_cards

from . import table
from .forms import HandForm, NewGameForm, NightForm, PlayerForm, SignupForm
from .models import Game, GameNight, Group, Hand, HandChange, Membership, Player, Round, Seat

# A game started within this long of the group's last one joins the same game night.
SAME_EVENING = timedelta(hours=8)


def group_of(request) -> Group:
    return request.user.membership.group


def home(request):
    if not request.user.is_authenticated:
        return render(request, "home.html")
    from .history import game_results

    group = group_of(request)
    nights = list(GameNight.objects.filter(group=group).order_by("-date", "-created_at")[:30])
    results = game_results(Game.objects.filter(night__in=nights).order_by("created_at"))
    by_night = {}
    for result in sorted(results, key=lambda r: r.game.created_at):
        by_night.setdefault(result.game.night_id, []).append(
            {"game": result.game, "seats": result.seats, "leaders": result.winners}
        )
    rows = [{"night": night, "games": by_night.get(night.pk, [])} for night in nights]
    return render(request, "home.html", {"nights": rows})


def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            group = Group.objects.create(name=f"{user.username}'s table")
            Membership.objects.create(user=user, group=group)
        login(request, user)
        messages.success(request, "Welcome! Add your players, then start a game.")
        return redirect("new_game")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def players(request):
    group = group_of(request)
    form = PlayerForm(request.POST or None, group=group)
    if request.method == "POST" and form.is_valid():
        Player.objects.create(group=group, name=form.cleaned_data["name"])
        messages.success(request, f"{form.cleaned_data['name']} added.")
        return redirect("players")
    listed = Player.objects.filter(group=group)
    return render(request, "games/players.html", {"form": form, "players": listed})


def _night_for(group: Group, date):
    """The game night a new game joins: the group's night of that date, or the one whose
    last game started within the same evening (past midnight included)."""
    recent = (
        Game.objects.filter(group=group, created_at__gte=timezone.now() - SAME_EVENING)
        .select_related("night")
        .first()
    )
    if recent and date == timezone.localdate():
        return recent.night
    night = GameNight.objects.filter(group=group, date=date).first()
    return night or GameNight.objects.create(group=group, date=date)


@login_required
def new_game(request):
    group = group_of(request)
    form = NewGameForm(request.POST or None, group=group)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with transaction.atomic():
            known = {p.name.lower(): p for p in Player.objects.filter(group=group)}
            seated = []
            for name in data["players"]:
                player = known.get(name.lower()) or Player.objects.create(group=group, name=name)
                seated.append(player)
            game = Game.objects.create(
                group=group,
                night=_night_for(group, data["date"]),
                kind=data["kind"],
                rules=data["rules"],
                created_by=request.user,
            )
            Seat.objects.bulk_create(
                Seat(game=game, player=player, position=i) for i, player in enumerate(seated)
            )
            round_ = table.current_round(game)
        return redirect(round_)
    saved = Player.objects.filter(group=group)
    return render(request, "games/new_game.html", {"form": form, "saved_players": saved})


def _game_for(request, game_id) -> Game:
    return get_object_or_404(
        Game.objects.select_related("night"), pk=game_id, group=group_of(request)
    )


def _score_table(game: Game):
    seats = list(game.seats.select_related("player"))
    rounds = list(game.rounds.select_related("dealer").order_by("number"))
    hands = list(Hand.objects.filter(round__game=game))
    by_cell = {(h.round_id, h.seat_id): h for h in hands}
    total = Counter({seat.pk: 0 for seat in seats})
    rows = []
    for round_ in rounds:
        cells = []
        for seat in seats:
            hand = by_cell.get((round_.pk, seat.pk))
            if hand:
                total[seat.pk] += hand.points
            cells.append({"seat": seat, "hand": hand, "dealer": round_.dealer_id == seat.pk})
        rows.append(
            {
                "round": round_,
                "cells": cells,
                "wild": table.wild_label(game, round_.number) if game.is_three_thirteen else None,
            }
        )
    places = table.standings_from(seats, total)
    leaders = {seat.pk for place, seat, _ in places if place == 1} if hands else set()
    return {
        "seats": seats,
        "rows": rows,
        "total": [total[seat.pk] for seat in seats],
        "totals": total,
        "leaders": leaders,
        "standings": places,
    }


@login_required
def game(request, game_id):
    game = _game_for(request, game_id)
    current = None if game.finished_at else table.current_round(game)
    if current is None and not game.finished_at:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
    context = {"game": game, "current": current, **_score_table(game)}
    context["options"] = _options_text(game)
    context["out"] = _out_seats(game, context["totals"])
    return render(request, "games/game.html", context)


def _out_seats(game: Game, total) -> set[int]:
    if game.is_three_thirteen or game.engine_rules.format != "pool":
        return set()
    limit = game.engine_rules.pool_limit
    return {seat_id for seat_id, points in total.items() if points >= limit}


def _options_text(game: Game) -> list[tuple[str, str]]:
    rules = game.engine_rules
    if game.is_three_thirteen:
        return [
            ("Decks", str(rules.decks)),
            ("Aces", "low only (left over: 1)" if rules.aces == "low" else
             "high or low (left over: 15)"),
            ("J, Q, K cost", "10" if rules.faces == "ten" else "11, 12, 13"),
            ("Printed jokers", str(rules.jokers) + (" (left over: 20)" if rules.jokers else "")),
            ("Melds of wild cards only", "allowed" if rules.all_wild_melds else "not allowed"),
        ]  # fmt: skip
    options = [
        ("Decks", str(rules.decks)),
        ("Printed jokers", str(rules.jokers)),
        ("Wild joker rank", rules.wild_rank_label or "none"),
        ("Melds of jokers only", "allowed" if rules.all_joker_melds else "not allowed"),
        ("Maximum count per deal", str(rules.max_count) if rules.max_count else "none"),
        ("Format", "open" if rules.format == "open" else f"pool {rules.pool_limit}"),
    ]
    if rules.format == "pool":
        options.append(
            ("Drop / middle drop / wrong declaration",
             f"{rules.first_drop} / {rules.middle_drop} / {rules.wrong_declaration}")
        )  # fmt: skip
    return options


def _round_for(request, game_id, number):
    game = _game_for(request, game_id)
    round_ = game.rounds.select_related("dealer__player").filter(number=number).first()
    if round_ is None:
        current = table.current_round(game)
        if current is None or current.number != number:
            raise Http404("No such round")
        round_ = current
    return game, round_


def _panel(game, round_, seat, hand, *, outcome=None, cards=None, points=None, version=None,
           scored=None, error=None, conflict=None, saved_now=False):  # fmt: skip
    """Everything the template needs to draw one player's hand entry."""
    outcome = outcome or (hand.outcome if hand else Hand.CARDS)
    cards = cards if cards is not None else (hand.cards if hand else "")
    if points is None and hand and hand.outcome == Hand.POINTS:
        points = hand.entered_points
    version = version if version is not None else (hand.version if hand else 0)
    unchanged = hand is not None and (outcome, cards) == (hand.outcome, hand.cards)
    if scored is None and unchanged and (points is None or points == hand.entered_points):
        # A saved hand shows what was stored (after any doubling) without scoring it again.
        scored = table.Scored(points=hand.points, melds=hand.melds, unmelded=hand.leftover,
                              all_pure=hand.all_pure)  # fmt: skip
    elif scored is None and (cards or outcome != Hand.CARDS):
        scored = table.score_entry(game, round_.number, outcome, cards, points)
    chosen, parse_error = [], None
    try:
        chosen = parse_hand(cards)
    except CardError as problem:
        parse_error = str(problem)
    rules = game.engine_rules
    held = Counter(chosen)
    picker = [
        {
            "suit": suit,
            "cards": [
                {"card": card, "held": held[card], "full": held[card] >= rules.decks}
                for card in (Card(rank, suit) for rank in range(1, 14))
            ],
        }
        for suit in SUITS
    ]
    jokers = getattr(rules, "jokers", 0)
    return {
        "seat": seat,
        "hand": hand,
        "outcome": outcome,
        "cards": cards,
        "points": points,
        "version": version,
        "chosen": sort_cards(chosen),
        "picker": picker,
        "joker": {"held": held[Card(0, "")], "full": held[Card(0, "")] >= jokers}
        if jokers
        else None,
        "scored": scored,
        "error": error or (scored.error if scored else None) or parse_error,
        "conflict": conflict,
        "saved_now": saved_now,
        "size": table.hand_size(game, round_.number),
        "count": len(chosen),
        "open": hand is None or bool(error) or conflict is not None,
        "label": table.outcome_label(game, hand.outcome) if hand else None,
    }


def _round_context(game, round_, panels=None):
    hands = {h.seat_id: h for h in round_.hands.select_related("seat__player", "updated_by")}
    active = table.active_seats(game, round_.number)
    panels = panels or {}
    built = [
        panels.get(seat.pk) or _panel(game, round_, seat, hands.get(seat.pk)) for seat in active
    ]
    changes = HandChange.objects.filter(hand__round=round_).select_related(
        "hand__seat__player", "changed_by"
    )
    doubled = any(h.outcome == Hand.WENT_OUT and h.all_pure for h in hands.values())
    return {
        "game": game,
        "round": round_,
        "hands": sorted(hands.values(), key=lambda h: h.seat.position),
        "panels": built,
        "outcomes": table.outcome_choices(game),
        "size": table.hand_size(game, round_.number),
        "wild": table.wild_label(game, round_.number),
        "problems": table.round_problems(round_, list(hands.values()), active),
        "changes": changes,
        "doubled": doubled,
        "over": table.is_over(game) and round_.completed_at is not None,
        "is_last_known": not game.rounds.filter(number__gt=round_.number).exists(),
    }


@login_required
def round_page(request, game_id, number):
    game, round_ = _round_for(request, game_id, number)
    # htmx asks for the round's summary again after each save.
    template = "games/round.html#round-status" if request.htmx else "games/round.html"
    return render(request, template, _round_context(game, round_))


@login_required
@require_POST
def hand_entry(request, game_id, number, seat_id):
    game, round_ = _round_for(request, game_id, number)
    seat = get_object_or_404(Seat.objects.select_related("player"), pk=seat_id, game=game)
    form = HandForm(request.POST, outcomes=table.outcome_choices(game))
    form.is_valid()
    outcome = form.cleaned_data.get("outcome") or Hand.CARDS
    points = form.cleaned_data.get("points")
    version = form.cleaned_data.get("version") or 0
    cards = _edit_cards(request.POST)
    hand = Hand.objects.filter(round=round_, seat=seat).first()
    field_error = None
    if "points" in form.errors:
        field_error = "points must be a whole number from 0 up"
    panel_args = {"outcome": outcome, "cards": cards, "points": points, "version": version}
    if "save" in request.POST and not field_error:
        try:
            saved, scored = table.save_hand(
                round_, seat, outcome, cards, points, version, request.user
            )
        except table.Conflict as conflict:
            saved = conflict.saved
            panel = _panel(
                game,
                round_,
                seat,
                saved,
                conflict=saved,
                **{**panel_args, "version": saved.version},
            )
            return _answer_hand(request, game, round_, seat, panel, status=409)
        if saved is not None:
            if not request.htmx:
                messages.success(request, f"{seat.player.name}'s hand saved.")
                return redirect(round_)
            round_.refresh_from_db()
            panel = _panel(game, round_, seat, saved, saved_now=True)
            return _answer_hand(request, game, round_, seat, panel, refresh=True)
        panel = _panel(game, round_, seat, hand, scored=scored, error=scored.error, **panel_args)
        return _answer_hand(request, game, round_, seat, panel, status=422)
    panel = _panel(game, round_, seat, hand, error=field_error, **panel_args)
    if panel["error"] and "save" in request.POST:
        return _answer_hand(request, game, round_, seat, panel, status=422)
    return _answer_hand(request, game, round_, seat, panel)


def _edit_cards(post) -> str:
    """The cards text after a tap on the picker (add), on a chosen card (remove), or clear."""
    text = post.get("cards", "")
    if "clear" in post:
        return ""
    try:
        cards = parse_hand(text)
    except CardError:
        return text  # keep what was typed; the panel shows what is wrong with it
    if post.get("tap"):
        with suppress(CardError, IndexError):
            cards.append(parse_hand(post["tap"])[0])
    if post.get("untap"):
        with suppress(CardError, IndexError, ValueError):
            cards.remove(parse_hand(post["untap"])[0])
    return format_cards(cards)


def _answer_hand(request, game, round_, seat, panel, status=200, refresh=False):
    if request.htmx:
        context = {"game": game, "round": round_, "panel": panel,
                   "outcomes": table.outcome_choices(game)}  # fmt: skip
        response = render(request, "games/round.html#hand-panel", context, status=status)
        if refresh:
            response["HX-Trigger"] = "round-changed"
        return response
    context = _round_context(game, round_, panels={seat.pk: panel})
    return render(request, "games/round.html", context, status=status)


@login_required
@require_POST
def finish_game(request, game_id):
    game = _game_for(request, game_id)
    if not game.finished_at:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
        # An empty round left open at the end is not part of the game.
        Round.objects.filter(game=game, completed_at__isnull=True, hands__isnull=True).delete()
        messages.success(request, "Game finished.")
    return redirect(game)


@login_required
def night(request, night_id):
    from .charts import line_chart

    group = group_of(request)
    night = get_object_or_404(GameNight, pk=night_id, group=group)
    form = NightForm(request.POST or None, initial={"date": night.date})
    if request.method == "POST" and form.is_valid():
        night.date = form.cleaned_data["date"]
        night.save(update_fields=["date"])
        messages.success(request, "Date changed.")
        return redirect(night)
    games = []
    for game in night.games.order_by("created_at"):
        context = _score_table(game)
        running = Counter()
        series = {seat.pk: [] for seat in context["seats"]}
        for row in context["rows"]:
            for cell in row["cells"]:
                running[cell["seat"].pk] += cell["hand"].points if cell["hand"] else 0
                series[cell["seat"].pk].append(running[cell["seat"].pk])
        chart = line_chart(
            [(s.player.name, s.player.colour, series[s.pk]) for s in context["seats"]],
            [str(row["round"].number) for row in context["rows"]],
            f"Running totals, {game.get_kind_display()}",
        ) if context["rows"] else None  # fmt: skip
        games.append({"game": game, "chart": chart, **context})
    return render(request, "games/night.html", {"night": night, "form": form, "games": games})


# ---------------------------------------------------------------- looking back


@login_required
def player_page(request, player_id):
    from .charts import line_chart
    from .history import KIND_NAMES, player_record

    group = group_of(request)
    player = get_object_or_404(Player, pk=player_id, group=group)
    record = player_record(player)
    charts = []
    for kind, name in KIND_NAMES.items():
        results = [r for r in record.results if r.game.kind == kind]
        if results:
            values = [r.total_of(player.pk) for r in results]
            labels = [r.game.night.date.strftime("%d %b") for r in results]
            title = f"{player.name}'s totals in {name}, game by game"
            charts.append(line_chart([(name, player.colour, values)], labels, title))
    kinds = [
        {
            "kind": kind,
            "name": name,
            "played": record.played[kind],
            "won": record.won[kind],
            "per_round": record.per_round.get(kind),
            "went_out": record.went_out[kind],
            "best": record.best.get(kind),
            "worst": record.worst.get(kind),
        }
        for kind, name in KIND_NAMES.items()
    ]
    return render(request, "games/player.html", {
        "player": player, "record": record, "kinds": kinds, "charts": charts,
    })  # fmt: skip


@login_required
def leaderboard_page(request):
    from .forms import LeaderboardFilter
    from .history import leaderboard

    group = group_of(request)
    form = LeaderboardFilter(request.GET or None)
    kind = start = end = None
    if form.is_valid():
        kind = form.cleaned_data["kind"] or None
        start, end = form.cleaned_data["start"], form.cleaned_data["end"]
    rows = leaderboard(group, kind, start, end)
    return render(request, "games/leaderboard.html", {"form": form, "rows": rows})


@login_required
def nights_page(request):
    from django.core.paginator import Paginator

    from .forms import NightSearch

    group = group_of(request)
    form = NightSearch(request.GET or None, group=group)
    nights = GameNight.objects.filter(group=group).order_by("-date", "-created_at")
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
    return render(request, "games/nights.html", {
        "form": form, "page": page, "rows": rows, "query": query.urlencode(),
    })  # fmt: skip


def _download(content, filename, content_type):
    from django.http import HttpResponse

    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def export_data(request, file_format, night_id=None):
    import json

    from .transfer import export_csv, export_json

    if file_format not in ("csv", "json"):
        raise Http404("Exports are CSV or JSON")
    group = group_of(request)
    night = get_object_or_404(GameNight, pk=night_id, group=group) if night_id else None
    stem = f"game-night-{night.date.isoformat()}" if night else "scorekeeper-history"
    if file_format == "csv":
        return _download(export_csv(group, night), f"{stem}.csv", "text/csv; charset=utf-8")
    body = json.dumps(export_json(group, night), indent=1, ensure_ascii=False)
    return _download(body, f"{stem}.json", "application/json")


@login_required
def import_data(request):
    import json

    from .forms import ImportForm
    from .transfer import ImportProblem, import_json

    group = group_of(request)
    form = ImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            data = json.loads(upload.read().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            problems = [f"the file is not JSON: {error}"]
        else:
            try:
                counts = import_json(group, data)
            except ImportProblem as problem:
                problems = problem.problems
            else:
                messages.success(
                    request,
                    f"Imported {counts['nights']} game nights, {counts['games']} games and "
                    f"{counts['hands']} hands.",
                )
                return redirect("nights")
    empty = not (group.players.exists() or group.nights.exists())
    return render(request, "games/import.html", {"form": form, "problems": problems,
                                                 "empty": empty})  # fmt: skip
