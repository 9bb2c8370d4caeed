"""Shared test helpers (imported by tests, never from conftest)."""

import asyncio
import errno
import os
import re
import sqlite3
import subprocess
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

from django.urls import get_resolver

from games.answers import REFUSED, status_read
from games.models import Game, GuestPass, Invitation, NightLink

CSRF_TOKEN = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[A-Za-z0-9]+')


def without_tokens(page) -> str:
    """A page's text with its CSRF tokens blanked: a token is 64 random letters and digits, so
    it holds a short name such as "Ann" now and then, and a check that a name is absent must not
    read it."""
    if isinstance(page, bytes):
        page = page.decode()
    return CSRF_TOKEN.sub(r"\1", page)


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
    link = NightLink.objects.get_or_create(night=game.night)[0]
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
        "game_stream": f"/games/{game.pk}/stream/",
        "finish_game": f"/games/{game.pk}/finish/",
        "reopen_game": f"/games/{game.pk}/reopen/",
        "round": f"/games/{game.pk}/rounds/{number}/",
        "round_live": f"/games/{game.pk}/rounds/{number}/live/",
        "hand_entry": f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/",
        "hand_photo": f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/photo/",
        "undo_save": f"/games/{game.pk}/rounds/{number}/undo/",
        "table_photo": f"/games/{game.pk}/rounds/{number}/table-photo/",
        "table_move": f"/games/{game.pk}/rounds/{number}/table-photo/move/",
        "nights": "/nights/",
        "night": f"/nights/{game.night_id}/",
        "night_live": f"/nights/{game.night_id}/live/",
        "night_stream": f"/nights/{game.night_id}/stream/",
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
        "guest_picture": f"/games/{game.pk}/guest/{guest_pass.token}/picture.png",
        "night_share": f"/nights/{game.night_id}/share/",
        "night_picture": f"/nights/{game.night_id}/picture.png",
        "night_link": f"/nights/{game.night_id}/share/link/",
        "shared_night": f"/shared/{link.token}/",
        "shared_picture": f"/shared/{link.token}/picture.png",
        "records": "/group/records/",
        "year_latest": "/group/year/",
        "year": f"/group/year/{game.night.date.year}/",
    }


def seats(game: Game) -> list:
    """The game's seats in order, with their players."""
    return list(game.seats.select_related("player"))


def save(client, game, number, seat, cards="", outcome="cards", version=0, htmx=False, **extra):
    """Save one hand through its URL, as the round page's form does."""
    data = {"outcome": outcome, "cards": cards, "save": "1", "version": version, **extra}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(hand_url(game, number, seat), data, **headers)


def status_of(response) -> int:
    """An answer's status as its page reads it: a refusal answered to the page's script (htmx)
    is 200 with the refusal's status in X-Refused (games/answers.py); a whole page keeps it."""
    if REFUSED in response:
        assert response.status_code == 200, response.status_code
        assert response.wsgi_request.headers.get("HX-Request") == "true"
    return status_read(response.status_code, response.get(REFUSED))


def hand_url(game, number, seat):
    return f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/"


class SmallDisk:
    """A tmpfs of a few MiB (mounted by the test, as root) that the database is moved onto and
    then really filled: every thread's connection reads the moved settings when it next
    connects (CONN_MAX_AGE 0, as `database_switch` does)."""

    def __init__(self, folder: Path, size: str):
        self.folder, self.size = folder, size
        self.filler = folder / "filler"
        self.keeper = None

    def mount(self) -> None:
        self.folder.mkdir()
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs", str(self.folder)],
            check=True,
        )

    def hold_database(self) -> Path:
        """Copy the test database onto the disk and point the connections at the copy; one
        connection stays open on it, as a running server's would, so its -wal and -shm files
        stay (a full disk has no room to make them again)."""
        from django.db import connection

        moved = self.folder / "scores.sqlite3"
        connection.close()
        with (
            closing(sqlite3.connect(connection.settings_dict["NAME"])) as source,
            closing(sqlite3.connect(moved)) as copy,
        ):
            source.backup(copy)
        self.keeper = sqlite3.connect(moved, check_same_thread=False)
        self.keeper.execute("PRAGMA journal_mode=WAL").fetchone()
        connection.settings_dict["NAME"] = str(moved)
        return moved

    def free(self) -> int:
        stats = os.statvfs(self.folder)
        return stats.f_bavail * stats.f_frsize

    def fill(self) -> int:
        """Write one file until the disk refuses a byte more; the bytes it took."""
        written = 0
        descriptor = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for size in (65536, 4096, 512, 1):
                while True:
                    try:
                        written += os.write(descriptor, b"\0" * size)
                    except OSError as error:
                        if error.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(descriptor)
        return written

    def make_room(self) -> None:
        self.filler.unlink()

    def unmount(self) -> None:
        if self.keeper is not None:
            self.keeper.close()
        # A server thread may still hold the database open for a moment (a page's live
        # stream, a request still being served): a lazy unmount detaches the disk now and
        # frees it once the last file on it is closed, where a plain one fails as busy.
        subprocess.run(["umount", "--lazy", str(self.folder)], check=True)


def on_own_loop(coroutine, runner=asyncio.run):
    """Run `coroutine` on an event loop of its own, in a thread of its own (Playwright's loop may
    be running on this one); its result."""
    with ThreadPoolExecutor(1) as apart:
        return apart.submit(runner, coroutine).result()
