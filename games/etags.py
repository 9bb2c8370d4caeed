"""A live page's state as an ETag: what the page shows and what its live URL answers compare."""

from django.utils.crypto import salted_hmac

from .access import TableRequest
from .access.quick import Viewer, viewer
from .models import Game, GameNight


def live_etag(seen_by: Viewer, version: int, *state) -> str:
    """A page's state as an ETag, for this viewer: no cache between the phones and the server
    can hand one group's table to another, and nobody can guess another's. It starts with the
    version the page shows, so a poll says what it has seen."""
    digest = salted_hmac("games.live", repr((version, state, seen_by)), algorithm="sha256")
    return f'"{version}.{digest.hexdigest()[:32]}"'


def game_etag(request: TableRequest, game: Game) -> str:
    return live_etag(viewer(request), game.version, "game", game.pk, game.night.date)


def round_etag(request: TableRequest, game: Game, number: int) -> str:
    return live_etag(viewer(request), game.version, "round", game.pk, number)


def night_etag(request: TableRequest, night: GameNight, games: int, versions: int) -> str:
    """The night's date, how many games it has and the sum of their versions (each only grows)."""
    return live_etag(viewer(request), versions, "night", night.pk, night.date, games)
