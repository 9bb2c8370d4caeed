"""Looking back: game nights, a player's record, and the group's history as a file (export
and import)."""

import json

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from games import engine

from ..access import TableRequest, member_required
from ..charts import line_chart
from ..etags import night_etag
from ..forms import ImportForm, NightForm, NightSearch
from ..history import game_results, player_record
from ..history.kept import kept
from ..history.players import player_kinds
from ..history.shared import preview, told
from ..lookups import night_games
from ..models import Game, GameNight, Player
from ..transfer import ImportProblem, export_csv, export_json, import_json


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
    night_told = told(night.games.all())
    picture = preview(request, night, night_told, reverse("night_picture", args=[night.pk]))
    context = {"night": night, "form": form, "games": games, "live_etag": etag}
    context |= {"story": night_told.story, "preview": picture if night_told.story else None}
    return render(request, "games/night.html", context)


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
    # Each game as the home page shows it: its players, and who won or leads.
    results = game_results(Game.objects.filter(night__in=[n.pk for n in page]))
    by_night = {}
    for result in sorted(results, key=lambda r: r.game.created_at):
        by_night.setdefault(result.game.night_id, []).append(result)
    rows = [{"night": n, "games": by_night.get(n.pk, [])} for n in page]
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "rows": rows, "query": query.urlencode()}
    years = GameNight.objects.filter(group=request.group).dates("date", "year", order="DESC")
    context["years"] = [day.year for day in years]
    return render(request, "games/nights.html", context)


@member_required
@require_safe
def player_page(request: TableRequest, player_id):
    player = get_object_or_404(Player, pk=player_id, group=request.group)
    record = player_record(player)
    names = dict(Player.objects.filter(group=request.group).values_list("pk", "name"))
    looks = player_kinds(kept(request.group.pk), player, names)
    kinds = []
    for kind in engine.KINDS.values():
        results = [r for r in record.results if r.kind == kind.slug]
        chart = None
        if results:
            values = [r.total_of(player.pk) for r in results]
            labels = [f"{r.date.day} {r.date:%b}" for r in results]
            title = f"{player.name}'s totals in {kind.name}, game by game"
            chart = line_chart([(kind.name, player.colour, values)], labels, title)
        kinds.append(record.of_kind(kind, chart) | {"look": looks.get(kind.slug)})
    context = {"player": player, "record": record, "kinds": kinds}
    return render(request, "games/player.html", context)


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
