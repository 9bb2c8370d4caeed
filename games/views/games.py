"""A game's life: the home page of recent nights, starting a game, its score table, finishing
and reopening it."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import engine

from ..access import TableRequest, game_access, member_required
from ..etags import game_etag
from ..forms import NewGameForm
from ..history import game_results
from ..lookups import game_context, game_for, guest_landing, tonight, whole_number
from ..models import Game, GameNight, Player


@require_safe
def home(request: TableRequest):
    if request.group is None:
        if request.guest is not None:
            return redirect(guest_landing(Game.objects.filter(request.guest.games())))
        return render(request, "home.html", {"kinds": engine.KINDS.values()})
    nights = list(GameNight.objects.filter(group=request.group)[:30])
    results = game_results(Game.objects.filter(night__in=nights).order_by("created_at"))
    by_night = {}
    for result in sorted(results, key=lambda r: r.game.created_at):
        by_night.setdefault(result.game.night_id, []).append(result)
    rows = [{"night": night, "games": by_night.get(night.pk, [])} for night in nights]
    return render(request, "home.html", {"nights": rows})


@member_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: TableRequest):
    rematch = None
    if request.GET.get("rematch"):
        rematch = Game.objects.filter(
            group=request.group, pk=whole_number(request.GET["rematch"])
        ).first()
    form = NewGameForm(request.POST or None, group=request.group, initial_game=rematch)
    if request.method == "POST" and form.is_valid():
        game = form.start(request.user)
        return redirect(game.current_round())
    saved = Player.objects.filter(group=request.group)
    return render(request, "games/new_game.html", {"form": form, "saved_players": saved})


@game_access
@require_safe
def game(request: TableRequest, game_id):
    game = game_for(request, game_id)
    context = game_context(game) | {"live_etag": game_etag(request, game)}
    return render(request, "games/game.html", context | tonight(request))


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
