"""Looking back further: a night's picture to share (for members, as a guest link's preview,
and by a link a member makes for the group's chat), the group's records, and its year in
review."""

from datetime import date

from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from games import engine

from ..access import TableRequest, member_required
from ..access.shares import link_preview_games, shared_night_games
from ..history import year as years
from ..history.kept import kept
from ..history.shared import picture_of, preview, told
from ..models import GameNight, GuestPass, NightLink, Player
from .secret_links import not_indexed

THEMES = ("light", "dark")


def _theme(request) -> str:
    theme = request.GET.get("theme", "light")
    return theme if theme in THEMES else "light"


def _png(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, max-age=60"
    return response


def _night_of(request: TableRequest, night_id) -> GameNight:
    return get_object_or_404(GameNight, pk=night_id, group=request.group)


@member_required
@require_safe
def night_picture(request: TableRequest, night_id):
    """The night's picture (PNG), for the group's members."""
    night = _night_of(request, night_id)
    theme = _theme(request)
    png = picture_of(night, told(night.games.all()), theme)
    return _png(png, f"game-night-{night.date.isoformat()}-{theme}.png")


@member_required
@require_safe
def night_share(request: TableRequest, night_id):
    """The page that shares the night's picture through the phone's share sheet."""
    night = _night_of(request, night_id)
    night_told = told(night.games.all())
    url = reverse("night_picture", args=[night.pk])
    link = NightLink.objects.filter(night=night).first()
    context = {
        "night": night,
        "told": night_told,
        "picture_url": url,
        "preview": preview(request, night, night_told, url),
        "file_name": f"game-night-{night.date.isoformat()}.png",
        "link_url": link and request.build_absolute_uri(link.get_absolute_url()),
    }
    return render(request, "games/share_night.html", context)


LINK_ACTIONS = ("make", "stop")


@member_required
@require_POST
def night_link(request: TableRequest, night_id):
    """The night's link for the chat made (one a night: tapped twice, or on two phones at once,
    it is the same link), or stopped: the link then shows nothing, and a new one is a new
    secret."""
    night = _night_of(request, night_id)
    action = request.POST.get("action")
    if action not in LINK_ACTIONS:
        return HttpResponseBadRequest("Make the link or stop it: nothing else is asked here.")
    if action == "stop":
        NightLink.objects.filter(night=night).delete()
    else:
        NightLink.objects.get_or_create(night=night, defaults={"created_by": request.user})
    return redirect("night_share", night.pk)


def _shared(request: TableRequest, token):
    """The night a shared link shows, and its games (404 where it shows nothing)."""
    link = get_object_or_404(NightLink.objects.select_related("night"), token=token)
    games = shared_night_games(request, link)
    if games is None:
        raise Http404("This link shows nothing to this login")
    return link.night, games


@require_safe
@not_indexed
def shared_night(request: TableRequest, token):
    """A night shared by its link: its picture and the lines of its story, for whoever holds
    the link (a chat's preview fetcher included), and nothing else of the group: no name but
    the first names the picture shows, no link to the group's pages."""
    night, games = _shared(request, token)
    night_told = told(games)
    url = reverse("shared_picture", args=[token])
    context = {
        "night": night,
        "told": night_told,
        "picture_url": url,
        "preview": preview(request, night, night_told, url),
        # Each game's winner (or leader) in a line of its own, first names as on the picture.
        "headlines": night_told.headlines() if night_told.tales else [],
    }
    return render(request, "games/shared_night.html", context)


@require_safe
@not_indexed
def shared_picture(request: TableRequest, token):
    """The picture of a night shared by its link (PNG), while the link is shared."""
    night, games = _shared(request, token)
    png = picture_of(night, told(games), _theme(request))
    return _png(png, f"game-night-{night.date.isoformat()}.png")


@require_safe
@not_indexed
def guest_picture(request: TableRequest, game_id, token):
    """A guest link's preview picture: the games the link lets its guest into, while it is
    good. Nothing of the night's other games, and nothing at all once it has ended."""
    guest_pass = get_object_or_404(
        GuestPass.objects.select_related("game__night"), game_id=game_id, token=token
    )
    games = link_preview_games(request, guest_pass)
    if games is None:
        raise Http404("This guest link has ended")
    night = guest_pass.game.night
    png = picture_of(night, told(games), _theme(request))
    return _png(png, f"game-night-{night.date.isoformat()}.png")


@member_required
@require_safe
def records_page(request: TableRequest):
    found = kept(request.group.pk)
    names = dict(Player.objects.filter(group=request.group).values_list("pk", "name"))
    kinds = [
        {
            "kind": engine.KINDS[slug],
            "records": [
                {"record": record, "words": record.words(names), "url": _round_url(record)}
                for record in rows
            ],
        }
        for slug, rows in found.records.items()
    ]
    context = {"kinds": kinds, "years": years.years(found)}
    return render(request, "games/records.html", context)


def _round_url(record) -> str:
    if record.round is None:
        return reverse("game", args=[record.tale.game_id])
    return reverse("round", args=[record.tale.game_id, record.round])


@member_required
@require_safe
def year_page(request: TableRequest, year=None):
    found = kept(request.group.pk)
    played = years.years(found)
    if year is None:
        return redirect("year", played[0] if played else date.today().year)
    if not 1 <= year <= 9999:
        raise Http404("No such year")
    review = years.review(found, year)
    players = Player.objects.filter(group=request.group).in_bulk()
    names = {pk: player.name for pk, player in players.items()}
    context = {
        "review": review,
        "years": played,
        "wins": [(players[p], won, n) for p, won, n in review.wins if p in players],
        "records": [
            {"record": r, "words": r.words(names), "url": _round_url(r)} for r in review.records
        ],
    }
    return render(request, "games/year.html", context)
