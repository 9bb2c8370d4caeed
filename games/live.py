"""The table followed live from other phones.

Each live page (score table, round, game night) polls a URL of its own with the ETag it last
saw. An unchanged table answers 304 after one query of the view's own (the version); a changed
one answers with the page's live parts, which static/js/live.js swaps in. Polling with
conditional requests rather than server-sent events: no connection is held open, so it works
through every proxy and under gunicorn's sync workers, and the version lives in the database,
so any worker on any machine answers any phone.
"""

from django.db.models import Count, Sum
from django.shortcuts import get_object_or_404, render
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.views.decorators.http import require_safe

from .access import TableRequest, game_access, member_required
from .models import Game, GameNight


def _etag(request: TableRequest, *state) -> str:
    """A page's state as an ETag, for this user in this group: no cache between the phones
    and the server can hand one group's table to another, and nobody can guess another's."""
    # The time zone too: the same state shows other times in another zone.
    seen_by = (request.user.pk, request.group.pk if request.group else None, request.time_zone)
    digest = salted_hmac("games.live", repr((state, seen_by)), algorithm="sha256").hexdigest()[:32]
    return f'"{digest}"'


def game_etag(request: TableRequest, game: Game) -> str:
    return _etag(request, "game", game.pk, game.version, game.night.date)


def round_etag(request: TableRequest, game: Game, number: int) -> str:
    return _etag(request, "round", game.pk, number, game.version)


def night_etag(request: TableRequest, night: GameNight, games: int, versions: int) -> str:
    """The night's date, how many games it has and the sum of their versions (each only grows)."""
    return _etag(request, "night", night.pk, night.date, games, versions)


def _game_state(request: TableRequest, game_id) -> Game:
    """The game's version and its night's date in one query, only from the request's group."""
    games = Game.objects.select_related("night").only("version", "night__date")
    if request.as_guest:
        return get_object_or_404(games, pk=request.guest.game_id)
    return get_object_or_404(games, pk=game_id, group=request.group)


def _answer(request: TableRequest, etag: str, changed) -> object:
    """304 when the phone already shows this state, else the live parts (`changed()`)."""
    response = get_conditional_response(request, etag=etag) or changed()
    response["ETag"] = etag
    patch_vary_headers(response, ["Cookie"])
    patch_cache_control(response, private=True, no_cache=True)
    return response


@game_access
@require_safe
def game_live(request: TableRequest, game_id):
    from .views import _game_context, _game_for

    etag = game_etag(request, _game_state(request, game_id))
    return _answer(
        request,
        etag,
        lambda: render(request, "games/live/game.html", _game_context(_game_for(request, game_id))),
    )


@game_access
@require_safe
def round_live(request: TableRequest, game_id, number):
    from .views import _round_context, _round_for

    etag = round_etag(request, _game_state(request, game_id), number)

    def changed():
        game, round_ = _round_for(request, game_id, number)
        return render(request, "games/live/round.html", _round_context(game, round_))

    return _answer(request, etag, changed)


@member_required
@require_safe
def night_live(request: TableRequest, night_id):
    from .views import _night_games

    nights = GameNight.objects.annotate(games_count=Count("games"), versions=Sum("games__version"))
    night = get_object_or_404(nights, pk=night_id, group=request.group)
    etag = night_etag(request, night, night.games_count, night.versions or 0)

    def changed():
        return render(
            request, "games/live/night.html", {"night": night, "games": _night_games(night)}
        )

    return _answer(request, etag, changed)
