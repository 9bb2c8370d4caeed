"""The live polls' one-query look at who is asking: the row a poll follows (a game or a game
night) read with the access check in the same statement, deciding as `games.access` does from
the same session checks (`session_login`, `session_matches`, the guest grant). Where it is not
certain it answers None and the poll takes the ordinary way through the middleware and the
decorators. tests/test_access_quick.py holds the two to the same answer, role by role, for
every live URL."""

from dataclasses import dataclass
from functools import cache

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from ..models import GUEST_LIFE, Game, GameNight, Group, GuestPass, Membership
from ..plain import col, table
from ..time_zones import zone_for
from . import GROUP_KEY, Guest, TableRequest, guest_grant, session_login, session_matches


@dataclass(frozen=True)
class Viewer:
    """Who a live page is drawn for: its state is the same for all who share these."""

    user_id: int | None
    group_id: int | None
    time_zone: str


def viewer(request: TableRequest) -> Viewer:
    """The viewer of a request the middleware has resolved."""
    group = request.group
    return Viewer(request.user.pk, group.pk if group else None, request.time_zone)


def quick_look(request, page: str, pk: int) -> tuple[Viewer, dict] | None:
    """One query for a live poll of a game or a game night (`page`): the row's state with who is
    asking checked in the same statement, as `resolve_table` and the decorators would decide
    it. None whenever that is not certain: then the poll takes the usual way, which decides
    exactly as every page does (and answers 404, or the login page).

    A member: the session's login (still active, its password unchanged since the session
    began), whose current group (the one chosen in the session, if still a membership, else
    the first) is the row's group; the request's group is then that group, as far as the row
    says it. A guest (games only, no login): the session's pass to this very game, not
    expired, the game not finished.

    Plain SQL, read from the models' tables: the ORM would spend longer building the query than
    the database answering it, on every poll of every phone."""
    session = request.session
    grant = guest_grant(session)
    user_id = session_login(session)
    if user_id is not None:
        # A member (holding a guest link or not): their current group is the row's, or the
        # ordinary way decides (it may let a guest link of theirs in).
        chosen = session.get(GROUP_KEY)
        chosen = chosen if isinstance(chosen, int) else None
        sql, names = _quick_sql(connection.vendor, page, "member")
        row = _fetch(sql, [user_id, True, user_id, chosen, user_id, pk], names)
        if row is None or row["password"] is None:
            return None
        if not session_matches(session, _Login(row.pop("password"))):
            return None
        current = chosen if row["chose"] else row["first"]
        if current != row["group_id"]:
            return None
        request.group = Group(pk=row["group_id"], time_zone=row["time_zone"])
        return Viewer(user_id, row["group_id"], zone_for(request, row["time_zone"])), row
    if session.get(SESSION_KEY) is not None:
        return None  # a login this site's backends would not read: Django decides
    if page != "game" or grant is None or grant.get("game") != pk:
        return None
    sql, names = _quick_sql(connection.vendor, page, "guest")
    since = connection.ops.adapt_datetimefield_value(timezone.now() - GUEST_LIFE)
    row = _fetch(sql, [str(grant.get("token")), since, pk], names)
    if row is None or not row["pass"] or row["finished_at"] is not None:
        return None
    request.guest = Guest(pk, row["group_id"], str(grant.get("device", "")), row["pass"])
    return Viewer(None, None, zone_for(request, row["time_zone"])), row


class _Login:
    """What `session_matches` reads of a login: its password's hash, hashed by Django's own
    method. Not a User: a model's instance costs its `__init__` and two signals on every poll."""

    __slots__ = ("password",)
    get_session_auth_hash = AbstractBaseUser.get_session_auth_hash
    _get_session_auth_hash = AbstractBaseUser._get_session_auth_hash

    def __init__(self, password: str):
        self.password = password


def _fetch(sql: str, params: list, names: tuple) -> dict | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    return None if found is None else dict(zip(names, found, strict=True))


@cache
def _quick_sql(vendor: str, page: str, who: str) -> tuple[str, tuple]:
    """The statement of a quick look and the names of its columns, from the models' tables."""
    member, guest_pass = Membership, GuestPass
    if who == "member":
        viewer_columns = (
            f"(SELECT {col(User, 'password')} FROM {table(User)} "
            f"WHERE {col(User, 'id')} = %s AND {col(User, 'is_active')} = %s), "
            f"(SELECT COUNT(*) FROM {table(member)} WHERE {col(member, 'user')} = %s "
            f"AND {col(member, 'group')} = %s), "
            f"(SELECT {col(member, 'group')} FROM {table(member)} WHERE {col(member, 'user')} = %s "
            f"ORDER BY {col(member, 'joined_at')}, {col(member, 'id')} LIMIT 1)"
        )
        viewer_names = ("password", "chose", "first")
    else:
        viewer_columns = (
            f"(SELECT {col(guest_pass, 'id')} FROM {table(guest_pass)} "
            f"WHERE {col(guest_pass, 'game')} = g.{col(Game, 'id')} "
            f"AND {col(guest_pass, 'token')} = %s AND {col(guest_pass, 'created_at')} > %s "
            f"AND {col(guest_pass, 'ended_at')} IS NULL LIMIT 1)"
        )
        viewer_names = ("pass",)
    group = f"JOIN {table(Group)} gr ON gr.{col(Group, 'id')} = "
    if page == "game":
        columns = (
            f"g.{col(Game, 'id')}, g.{col(Game, 'version')}, n.{col(GameNight, 'date')}, "
            f"g.{col(Game, 'finished_at')}, g.{col(Game, 'group')}, gr.{col(Group, 'time_zone')}, "
            f"g.{col(Game, 'followed_until')}"
        )
        names = ("pk", "version", "date", "finished_at", "group_id", "time_zone", "followed_until")
        rows = (
            f"FROM {table(Game)} g JOIN {table(GameNight)} n "
            f"ON n.{col(GameNight, 'id')} = g.{col(Game, 'night')} "
            f"{group}g.{col(Game, 'group')} WHERE g.{col(Game, 'id')} = %s"
        )
    else:
        games = f"FROM {table(Game)} x WHERE x.{col(Game, 'night')} = n.{col(GameNight, 'id')}"
        columns = (
            f"n.{col(GameNight, 'id')}, n.{col(GameNight, 'date')}, (SELECT COUNT(*) {games}), "
            f"(SELECT COALESCE(SUM(x.{col(Game, 'version')}), 0) {games}), "
            f"n.{col(GameNight, 'group')}, gr.{col(Group, 'time_zone')}"
        )
        names = ("pk", "date", "games", "versions", "group_id", "time_zone")
        rows = (
            f"FROM {table(GameNight)} n {group}n.{col(GameNight, 'group')} "
            f"WHERE n.{col(GameNight, 'id')} = %s"
        )
    return f"SELECT {columns}, {viewer_columns} {rows}", names + viewer_names
