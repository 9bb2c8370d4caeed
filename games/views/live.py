"""The table followed live from other phones.

Each live page (score table, round, game night) holds a stream (`game_stream`, `night_stream`:
games.live) that says when its table changed, and then asks a live URL of its own with the ETag
it last saw (static/js/live.js); where no stream can be held, it asks that URL every 2 seconds.
An unchanged table answers 304 after one query, which reads the version and checks who is
asking in the same statement (`access.quick_look`); a changed one answers with what changed,
which the phone swaps in: on a round page, the round's summary and the summary lines of the
hands saved since the version the phone shows, never a hand's form. The version lives in the
database, so any worker on any machine answers any phone.
"""

from django.db.models import Count, Sum
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from .. import plain
from ..access import (
    TableRequest,
    admit_guest,
    game_access,
    member_required,
    own_access,
    resolve_table,
)
from ..access.quick import quick_look
from ..etags import game_etag, live_etag, night_etag, round_etag
from ..history.shared import told
from ..live.changes import drawn, drawn_lately, keep_asked, part_for
from ..live.hub import game_token, night_token
from ..live.streams import MEMBER, looks, open_stream
from ..lookups import (
    game_context,
    game_for,
    night_games,
    round_changes,
    round_state_at,
    round_state_for,
    tonight,
    whole_number,
)
from ..models import Game, GameNight
from ..time_zones import activate_time_zone


def _seen_version(request: TableRequest) -> int | None:
    """The version the phone shows, from the ETag it sent (made weak by the gzip middleware)."""
    sent = request.headers.get("If-None-Match", "").strip().removeprefix("W/").strip('"')
    version = sent.split(".", 1)[0]
    return int(version) if version.isdigit() and len(version) < 10 else None


# Where `games.live.polls` left its quick look at a poll it could not answer 304 (by the
# request's environ: no header a phone sends can set it), for the view not to look again.
LOOKED = "games.live.looked"


def quick_etag(request, page: str, pk: int, number: int | None = None):
    """A live poll's quick look (`access.quick_look`: who asks, checked in the statement that
    reads the state) and the ETag of the state it shows to them, as (viewer, row, etag); None
    where the quick look is not certain. `page`: "game", "round" (of `number`) or "night"."""
    looked = request.META.get(LOOKED)
    if looked is not None and looked[0] == (page, pk, number):
        _, seen_by, row, etag, group, guest = looked
        request.group, request.guest = group, guest
        return seen_by, row, etag
    quick = quick_look(request, "night" if page == "night" else "game", pk)
    if quick is None:
        return None
    seen_by, row = quick
    if page == "round":
        etag = live_etag(seen_by, row["version"], "round", row["pk"], number)
    elif page == "game":
        etag = live_etag(seen_by, row["version"], "game", row["pk"], row["date"])
    else:
        etag = live_etag(seen_by, row["versions"], "night", row["pk"], row["date"], row["games"])
    return seen_by, row, etag


def _answer(request: TableRequest, etag: str, changed) -> object:
    """304 when the phone already shows this state, else what changed (`changed()`)."""
    return _live_headers(get_conditional_response(request, etag=etag) or changed(), etag)


def not_modified(request: TableRequest, etag: str):
    """The 304 a quick look allows, or None."""
    response = get_conditional_response(request, etag=etag)
    return None if response is None else _live_headers(response, etag)


def _live_headers(response, etag: str):
    response["ETag"] = etag
    patch_vary_headers(response, ["Cookie"])
    patch_cache_control(response, private=True, no_cache=True)
    return response


@own_access
@require_safe
def game_live(request: TableRequest, game_id):
    quick = quick_etag(request, "game", game_id)
    if quick is not None and (answer := not_modified(request, quick[2])) is not None:
        return answer
    resolve_table(request)
    return _game_live(request, game_id)


@game_access
def _game_live(request: TableRequest, game_id):
    game = game_for(request, game_id)
    return _answer(
        request,
        game_etag(request, game),
        lambda: render(request, "games/live/game.html", game_context(game) | tonight(request)),
    )


@own_access
@require_safe
def round_live(request: TableRequest, game_id, number):
    quick = quick_etag(request, "round", game_id, number)
    if quick is not None:
        seen_by, row, etag = quick
        if (answer := not_modified(request, etag)) is not None:
            return answer
        # Changed, and who asks is known: what changed, read for this game alone.
        if (answer := kept_answer(request, quick, game_id, number)) is not None:
            return answer
        state = round_state_at(row["pk"], number, row["version"])
        if (kept := _drawn_for_all(request, row, state)) is not None:
            return _answer(request, etag, lambda: HttpResponse(kept))
        return _answer(request, etag, lambda: _round_changed(request, state))
    resolve_table(request)
    return _round_live(request, game_id, number)


@game_access
def _round_live(request: TableRequest, game_id, number):
    state = round_state_for(request, game_id, number)
    etag = round_etag(request, state.round.game, number)
    return _answer(request, etag, lambda: _round_changed(request, state))


def kept_answer(request: TableRequest, quick, game_id: int, number: int):
    """A changed round poll's answer from the change kept as drawn (`_kept_change`), or None
    (not kept for this phone: the round is read and drawn); who asks is admitted as the quick
    look found them, and their time zone activated, either way."""
    seen_by, row, etag = quick
    admit_guest(request, game_id)
    activate_time_zone(request, seen_by.time_zone)
    if LOOKED in request.META:
        return None  # `games.live.polls` looked for it already: a round's poll it left is one
    if (kept := _kept_change(request, row, number)) is None:
        return None
    return _answer(request, etag, lambda: HttpResponse(kept))


def _one_behind_while_followed(request: TableRequest, row: dict) -> bool:
    """The phone shows the version before the quick look's, of a game a round page's stream
    followed lately: its change may be kept as drawn (`changes.drawn_lately`)."""
    if _seen_version(request) != row["version"] - 1:
        return False
    return drawn_lately(plain.value(Game, "followed_until", row["followed_until"]))


def _kept_change(request: TableRequest, row: dict, number: int) -> str | None:
    """A phone one version behind asks what its stream would have carried (two saves crossed
    its own post, a word heard late): the change as drawn where it was made, for its kind of
    viewer, with its own CSRF token; one query instead of the round read and drawn again in
    each worker. None when not drawn (no stream followed the game, as the quick look's row
    says: not even looked for then) or not for this phone."""
    game_id, version = row["pk"], row["version"]
    if not _one_behind_while_followed(request, row):
        return None
    change = drawn(game_id, version)
    if change is None or change[0] != number:
        return None
    zone = getattr(request, "time_zone", "")
    return part_for(change[1], looks(request), zone, get_token(request))


def _drawn_for_all(request: TableRequest, row: dict, state) -> str | None:
    """A phone one version behind on a round page that a stream follows asks for a change no
    save drew (`changes.keep_asked`): it is drawn and kept once, so that the other phones of
    the table, told of the version at the same moment and asking the same in any worker, are
    answered from it (`kept_answer`, `games.live.polls`) instead of each drawing it again.
    What it shows this phone, or None (another case: drawn for that phone alone)."""
    version = row["version"]
    if not _one_behind_while_followed(request, row) or state.round.game.version != version:
        return None
    if not any(made == version for _, made in state.saves):
        return None  # the change was not to this round's hands (another round's, the game's)
    zone, looking = getattr(request, "time_zone", ""), looks(request)
    parts = keep_asked(state, version, zone, for_guest=looking != MEMBER)
    return None if parts is None else part_for(parts, looking, zone, get_token(request))


def _round_changed(request: TableRequest, state):
    since = _seen_version(request)
    if since is not None and since > state.round.game.version:
        since = None  # not a version this game has had: everything
    return render(request, "games/round.html#live-change", round_changes(state, since))


@own_access
@require_safe
def night_live(request: TableRequest, night_id):
    quick = quick_etag(request, "night", night_id)
    if quick is not None and (answer := not_modified(request, quick[2])) is not None:
        return answer
    resolve_table(request)
    return _night_live(request, night_id)


@member_required
def _night_live(request: TableRequest, night_id):
    night = _night_of(request, night_id)
    etag = night_etag(request, night, night.games_count, night.versions or 0)

    def changed():
        context = {
            "night": night,
            "games": night_games(night),
            "story": told(night.games.all()).story,
        }
        return render(request, "games/live/night.html", context)

    return _answer(request, etag, changed)


def _night_of(request: TableRequest, night_id) -> GameNight:
    """The group's night, with how many games it has and the sum of their versions."""
    nights = GameNight.objects.annotate(games_count=Count("games"), versions=Sum("games__version"))
    return get_object_or_404(nights, pk=night_id, group=request.group)


@require_safe
@game_access
def game_stream(request: TableRequest, game_id):
    """The stream of a game's score table and of its rounds' pages (`?round=<number>`: that
    round's changes are carried, not only told)."""
    game = game_for(request, game_id)
    token = game_token(game.version)
    number = whole_number(request.GET.get("round"))
    return open_stream(request, "game", game.pk, game.group_id, token, number or None)


@require_safe
@member_required
def night_stream(request: TableRequest, night_id):
    night = _night_of(request, night_id)
    token = night_token(night.games_count, night.versions or 0)
    return open_stream(request, "night", night.pk, night.group_id, token)
