"""Word of a change, sent inside the transaction that makes it. On PostgreSQL a NOTIFY on one
channel, which the database delivers at commit (and never for a rolled-back change) to every
listening worker of every server. On SQLite nothing is sent: the workers read the versions."""

from django.db import connection

CHANNEL = "scorekeeper_live"


def game_changed(game) -> None:
    """A game's version moved (a save, an undo, a finish, a reopen): its table, its rounds and
    its night change."""
    _notify(f"game {game.pk} {game.night_id} {game.version}")


def night_changed(night_id: int) -> None:
    """A game was added to a night."""
    _notify(f"night {night_id}")


def members_changed(group_id: int) -> None:
    """Someone left or was removed from a group: its streams are checked again at once."""
    _notify(f"members {group_id}")


def _notify(payload: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])


def parse(payload: str) -> tuple[str, list[int]] | None:
    """A notification's kind and numbers, or None for one this code did not send."""
    what, *numbers = payload.split()
    if what not in ("game", "night", "members") or not all(n.isdigit() for n in numbers):
        return None
    return what, [int(n) for n in numbers]
