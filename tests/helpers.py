"""Shared test helpers (imported by tests, never from conftest)."""

from django.urls import get_resolver

from games.models import Game, GuestPass, Invitation


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
    membership = game.group.memberships.order_by("pk").first()
    invitation = game.group.invitations.first() or Invitation.objects.create(group=game.group)
    guest_pass = game.guest_passes.first() or GuestPass.objects.create(game=game)
    return {
        "home": "/",
        "manifest": "/manifest.webmanifest",
        "service_worker": "/sw.js",
        "offline": "/offline/",
        "signup": "/signup/",
        "login": "/login/",
        "logout": "/logout/",
        "password_change": "/account/password/",
        "password_change_done": "/account/password/done/",
        "players": "/players/",
        "new_game": "/games/new/",
        "game": f"/games/{game.pk}/",
        "game_live": f"/games/{game.pk}/live/",
        "finish_game": f"/games/{game.pk}/finish/",
        "reopen_game": f"/games/{game.pk}/reopen/",
        "round": f"/games/{game.pk}/rounds/{number}/",
        "round_live": f"/games/{game.pk}/rounds/{number}/live/",
        "hand_entry": f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/",
        "hand_photo": f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/photo/",
        "undo_save": f"/games/{game.pk}/rounds/{number}/undo/",
        "nights": "/nights/",
        "night": f"/nights/{game.night_id}/",
        "night_live": f"/nights/{game.night_id}/live/",
        "export_night": f"/nights/{game.night_id}/export.csv",
        "player": f"/players/{seat.player_id}/",
        "leaderboard": "/group/",
        "group_time_zone": "/group/time-zone/",
        "export_group": "/group/export.json",
        "import": "/group/import/",
        "members": "/group/members/",
        "switch_group": "/group/switch/",
        "rename_group": "/group/rename/",
        "leave_group": "/group/leave/",
        "make_owner": f"/group/members/{membership.pk}/owner/",
        "remove_member": f"/group/members/{membership.pk}/remove/",
        "new_invitation": "/group/invitations/new/",
        "share_invitation": f"/group/invitations/{invitation.pk}/",
        "revoke_invitation": f"/group/invitations/{invitation.pk}/revoke/",
        "invitation": f"/invite/{invitation.token}/",
        "new_guest_pass": f"/games/{game.pk}/guests/",
        "guest_pass": f"/games/{game.pk}/guests/{guest_pass.pk}/",
        "guest_join": f"/games/{game.pk}/guest/{guest_pass.token}/",
    }


def seats(game: Game) -> list:
    """The game's seats in order, with their players."""
    return list(game.seats.select_related("player"))


def save(client, game, number, seat, cards="", outcome="cards", version=0, htmx=False, **extra):
    """Save one hand through its URL, as the round page's form does."""
    data = {"outcome": outcome, "cards": cards, "save": "1", "version": version, **extra}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(hand_url(game, number, seat), data, **headers)


def hand_url(game, number, seat):
    return f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/"
