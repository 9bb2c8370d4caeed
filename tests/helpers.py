"""Shared test helpers (imported by tests, never from conftest)."""

from django.urls import get_resolver

from games.models import Game


def url_names() -> set[str]:
    """Every named URL of the site, but Django's admin (it has its own tests)."""
    return {
        name
        for name in get_resolver().reverse_dict
        if isinstance(name, str) and not name.startswith("admin")
    } | {
        f"{namespace}:{name}"
        for namespace, (_, resolver) in get_resolver().namespace_dict.items()
        if namespace != "admin"
        for name in resolver.reverse_dict
        if isinstance(name, str)
    }


def site_urls(game: Game) -> dict[str, str]:
    """A URL for every named URL of the site, on `game` (with its first round, first seat,
    night and first player): the table every access test walks, so no view is forgotten."""
    seat = game.seats.select_related("player").first()
    round_ = game.rounds.order_by("number").first()
    number = round_.number if round_ else 1
    return {
        "home": "/",
        "manifest": "/manifest.webmanifest",
        "service_worker": "/sw.js",
        "offline": "/offline/",
        "signup": "/signup/",
        "login": "/login/",
        "logout": "/logout/",
        "players": "/players/",
        "new_game": "/games/new/",
        "game": f"/games/{game.pk}/",
        "finish_game": f"/games/{game.pk}/finish/",
        "reopen_game": f"/games/{game.pk}/reopen/",
        "round": f"/games/{game.pk}/rounds/{number}/",
        "hand_entry": f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/",
        "undo_save": f"/games/{game.pk}/rounds/{number}/undo/",
        "nights": "/nights/",
        "night": f"/nights/{game.night_id}/",
        "export_night": f"/nights/{game.night_id}/export.csv",
        "player": f"/players/{seat.player_id}/",
        "leaderboard": "/group/",
        "group_time_zone": "/group/time-zone/",
        "export_group": "/group/export.json",
        "import": "/group/import/",
    }
