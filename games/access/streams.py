"""Who a live stream may go on telling: decided when it opens by the views' own decorators, and
again, for every stream of a game or night at once, each time there is something to tell. A
removed member, a login whose password changed and a finished game's guest drop out at the
first change after theirs, and are told nothing more."""

from dataclasses import dataclass
from functools import cache

from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from ..models import GUEST_LIFE, Game, GameNight, GuestPass, Membership
from ..plain import col, table
from . import TableRequest


@dataclass(frozen=True)
class StreamGrant:
    """Who a stream was opened for: a member's login as its session held it, or a guest link."""

    user_id: int | None
    session_hash: str
    guest_pass_id: int | None


def stream_grant(request: TableRequest) -> StreamGrant:
    """The grant of a request the decorators let in."""
    if request.as_guest:
        return StreamGrant(None, "", request.guest.pass_id)
    return StreamGrant(request.user.pk, str(request.session.get(HASH_SESSION_KEY, "")), None)


def still_allowed(page: str, pk: int, grants) -> set[StreamGrant]:
    """The grants that may still follow the game or game night (`page`) `pk`: members of its
    group whose login is active with the password their session began with, and, for a game
    not finished, guests whose link has not ended or expired and lets them into this game (its
    own, or a later game of its night). Plain SQL, from the models' tables: it runs for every
    change of every table followed, in each server process."""
    grants = set(grants)
    sql = _sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql["game" if page == "game" else "night"], [pk])
        row = cursor.fetchone()
        if row is None:
            return set()
        group_id = row[0]
        users = sorted({g.user_id for g in grants if g.user_id is not None})
        hashes = {}
        if users:
            cursor.execute(sql["members"].replace("<ids>", _marks(users)), [group_id, True, *users])
            hashes = {
                user_id: User(pk=user_id, password=password).get_session_auth_hash()
                for user_id, password in cursor.fetchall()
            }
        passes = set()
        links = sorted({g.guest_pass_id for g in grants if g.guest_pass_id is not None})
        if links and page == "game" and row[1] is None:
            _, _, night_id, created_at = row
            since = connection.ops.adapt_datetimefield_value(timezone.now() - GUEST_LIFE)
            started = connection.ops.adapt_datetimefield_value(created_at)
            statement = sql["passes"].replace("<ids>", _marks(links))
            cursor.execute(statement, [*links, since, pk, night_id, group_id, started])
            passes = {found for (found,) in cursor.fetchall()}
    return {
        grant
        for grant in grants
        if (
            grant.user_id in hashes
            and constant_time_compare(grant.session_hash, hashes[grant.user_id])
        )
        or grant.guest_pass_id in passes
    }


def _marks(values) -> str:
    return ", ".join(["%s"] * len(values))


@cache
def _sql(vendor: str) -> dict[str, str]:
    """The statements of `still_allowed`, from the models' tables (`<ids>` for the lists)."""
    game = (
        f"SELECT {col(Game, 'group')}, {col(Game, 'finished_at')}, {col(Game, 'night')}, "
        f"{col(Game, 'created_at')} FROM {table(Game)} WHERE {col(Game, 'id')} = %s"
    )
    night = (
        f"SELECT {col(GameNight, 'group')} FROM {table(GameNight)} "
        f"WHERE {col(GameNight, 'id')} = %s"
    )
    members = (
        f"SELECT u.{col(User, 'id')}, u.{col(User, 'password')} FROM {table(User)} u "
        f"WHERE EXISTS (SELECT 1 FROM {table(Membership)} m "
        f"WHERE m.{col(Membership, 'user')} = u.{col(User, 'id')} "
        f"AND m.{col(Membership, 'group')} = %s) "
        f"AND u.{col(User, 'is_active')} = %s AND u.{col(User, 'id')} IN (<ids>)"
    )
    passes = (
        f"SELECT p.{col(GuestPass, 'id')} FROM {table(GuestPass)} p "
        f"JOIN {table(Game)} pg ON pg.{col(Game, 'id')} = p.{col(GuestPass, 'game')} "
        f"WHERE p.{col(GuestPass, 'id')} IN (<ids>) AND p.{col(GuestPass, 'ended_at')} IS NULL "
        f"AND p.{col(GuestPass, 'created_at')} > %s "
        f"AND (p.{col(GuestPass, 'game')} = %s OR (pg.{col(Game, 'night')} = %s "
        f"AND pg.{col(Game, 'group')} = %s AND pg.{col(Game, 'created_at')} <= %s))"
    )
    return {"game": game, "night": night, "members": members, "passes": passes}
