"""Who is asking: the signed-in member's group, set once per request in one place."""

import zoneinfo
from dataclasses import dataclass
from functools import cache, wraps

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django_htmx.middleware import HtmxDetails

from .models import GUEST_LIFE, Game, GameNight, Group, GuestPass, Membership

AUTHENTICATION_BACKENDS = frozenset(settings.AUTHENTICATION_BACKENDS)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


class TableRequest(HtmxHttpRequest):
    """A request to the app's pages: the user and, for a member, their current group."""

    user: User | AnonymousUser
    group: Group | None
    time_zone: str  # the IANA zone times are shown in ("" when none is known: the server's)
    membership: Membership | None
    memberships: list[Membership]
    guest: "Guest | None"
    as_guest: bool


GUEST_KEY = "guest"


@dataclass(frozen=True)
class Guest:
    """A phone without an account let into one game by a guest link, as its session says."""

    game_id: int
    group_id: int
    device: str
    pass_id: int  # the guest link it came in by

    @property
    def name(self) -> str:
        """How its saves are recorded in the game's history."""
        return f"guest on {self.device}"


def _guest(session) -> tuple[Guest | None, str]:
    """The session's guest grant while its pass is still good (not expired, game not
    finished), and the time zone of the game's group."""
    grant = session.get(GUEST_KEY)
    if not isinstance(grant, dict):
        return None, ""
    guest_pass = (
        GuestPass.objects.select_related("game__group")
        .filter(token=str(grant.get("token")), game_id=grant.get("game"))
        .first()
    )
    if guest_pass is None or guest_pass.problem():
        return None, ""
    game = guest_pass.game
    guest = Guest(game.pk, game.group_id, str(grant.get("device", "")), guest_pass.pk)
    return guest, game.group.time_zone


def let_guest_in(request: "TableRequest", guest_pass: GuestPass, device: str) -> None:
    request.session[GUEST_KEY] = {
        "game": guest_pass.game_id,
        "token": guest_pass.token,
        "device": device,
    }


GROUP_KEY = "group_id"


def own_access(view):
    """Marks a view that checks who is asking itself, in its own query (the live polls): the
    middleware then leaves the request's group unread until `resolve_table` is called."""
    view.own_access = True
    return view


class CurrentGroupMiddleware:
    """Sets `request.group`, the group whose data this request may see (None for nobody), the
    request's guest grant, and the time zone every time is shown in.

    The chosen group is kept in the session and checked against the login's memberships on
    every request, so a removed member loses it at once; otherwise their first group. Times
    are shown in the group's time zone or, when it chose none, the phone's own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.group, request.membership, request.memberships = None, None, []
        request.guest, request.as_guest, request.time_zone = None, False, ""
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not getattr(view_func, "own_access", False):
            resolve_table(request)


def resolve_table(request) -> None:
    """Who is asking, read from the session and the database: one query for a member (their
    memberships with the login itself), two for a login with no group."""
    request.guest, guest_zone = _guest(request.session)
    members = _session_memberships(request)
    if members:
        request.user, request.memberships = members[0].user, members
    elif request.user.is_authenticated:
        request.memberships = list(
            Membership.objects.select_related("group").filter(user=request.user)
        )
    if request.memberships:
        chosen = request.session.get(GROUP_KEY)
        current = next((m for m in request.memberships if m.group_id == chosen), None)
        request.membership = current or next(iter(request.memberships), None)
        request.group = request.membership.group if request.membership else None
    zone = request.group.time_zone if request.group is not None else guest_zone
    activate_time_zone(request, zone)


def _session_memberships(request) -> list[Membership]:
    """The memberships of the session's login, with the login, when the session holds it just
    as Django's own check would let it in (its backend, an active login, the session's hash
    of the password as it is now); else none, and Django's `request.user` decides (it also
    knows the fallback keys, and ends a session it refuses)."""
    session = request.session
    user_id = session.get(SESSION_KEY)
    if user_id is None or session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
        return []
    try:
        user_id = User._meta.pk.to_python(user_id)
    except ValidationError:
        return []
    found = list(
        Membership.objects.select_related("group", "user").filter(
            user_id=user_id, user__is_active=True
        )
    )
    if found and constant_time_compare(
        str(session.get(HASH_SESSION_KEY, "")), found[0].user.get_session_auth_hash()
    ):
        return found
    return []


MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def switch_group(request: TableRequest, group: Group) -> None:
    """Make `group` this session's current group (the caller has checked the membership)."""
    request.session[GROUP_KEY] = group.pk
    request.group = group


# The phone's own zone, as its browser names it (Intl.DateTimeFormat), set by static/js/app.js.
TIME_ZONE_COOKIE = "tz"


@cache
def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def activate_time_zone(request, chosen: str) -> None:
    """Every time in the group's chosen zone, or else the phone's own (or the server's)."""
    name = request.time_zone = _zone(request, chosen)
    if name:
        timezone.activate(zoneinfo.ZoneInfo(name))


def member_required(view):
    """Signed in, and a member of a group: a login with no group sees nothing."""

    @login_required
    @wraps(view)
    def checked(request: TableRequest, *args, **kwargs):
        if request.group is None:
            raise Http404("You are not a member of a group")
        return view(request, *args, **kwargs)

    return checked


def owner_required(view):
    """A member who is an owner of the current group; other members are refused (403)."""

    @member_required
    @wraps(view)
    def checked(request: TableRequest, *args, **kwargs):
        if not request.membership.is_owner:
            raise PermissionDenied("Only the group's owners can do this")
        return view(request, *args, **kwargs)

    return checked


def game_access(view):
    """One game's table, rounds and hand saves: members of its group, or the phone holding a
    guest pass to this very game (then `request.as_guest` is True). Anyone else: not found,
    or log in when signed out."""

    @wraps(view)
    def checked(request: TableRequest, game_id, *args, **kwargs):
        guest = request.guest
        if (
            guest
            and guest.game_id == game_id
            and guest.group_id != getattr(request.group, "pk", None)
        ):
            request.as_guest = True
        elif request.group is None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise Http404("You are not a member of a group")
        return view(request, game_id, *args, **kwargs)

    return checked


def client_ip(request: HttpRequest) -> str:
    """The phone's address, for slowing password guessing: behind the TLS proxy, the address
    the proxy appended last to X-Forwarded-For (earlier ones are the client's word, not proof)."""
    if settings.BEHIND_HTTPS_PROXY:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "")


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
    asking checked in the same statement, as `resolve_table` and the views' checks would
    decide it. None whenever that is not certain: then the poll takes the usual way, which
    decides exactly as every page does (and answers 404, or the login page).

    A member: the session's user (still active, its password unchanged since the session
    began), whose current group (the one chosen in the session, if still a membership, else
    the first) is the row's group. A guest (games only, no login): the session's pass to this
    very game, not expired, the game not finished.

    Plain SQL, read from the models' tables: the ORM would spend longer building the query than
    the database answering it, on every poll of every phone."""
    session = request.session
    grant = session.get(GUEST_KEY)
    user_id = session.get(SESSION_KEY)
    if user_id is not None:
        if grant is not None or session.get(BACKEND_SESSION_KEY) not in AUTHENTICATION_BACKENDS:
            return None
        try:
            user_id = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        chosen = session.get(GROUP_KEY)
        chosen = chosen if isinstance(chosen, int) else None
        sql, names = _quick_sql(connection.vendor, page, "member")
        row = _fetch(sql, [user_id, True, user_id, chosen, user_id, pk], names)
        if row is None or row["password"] is None:
            return None
        known = User(password=row["password"]).get_session_auth_hash()
        if not constant_time_compare(str(session.get(HASH_SESSION_KEY, "")), known):
            return None
        current = chosen if row["chose"] else row["first"]
        if current != row["group_id"]:
            return None
        return Viewer(user_id, row["group_id"], _zone(request, row["time_zone"])), row
    if page != "game" or not isinstance(grant, dict) or grant.get("game") != pk:
        return None
    sql, names = _quick_sql(connection.vendor, page, "guest")
    since = connection.ops.adapt_datetimefield_value(timezone.now() - GUEST_LIFE)
    row = _fetch(sql, [str(grant.get("token")), since, pk], names)
    if row is None or not row["pass"] or row["finished_at"] is not None:
        return None
    request.guest = Guest(pk, row["group_id"], str(grant.get("device", "")), row["pass"])
    return Viewer(None, None, _zone(request, row["time_zone"])), row


def _fetch(sql: str, params: list, names: tuple) -> dict | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    return None if found is None else dict(zip(names, found, strict=True))


@cache
def _quick_sql(vendor: str, page: str, who: str) -> tuple[str, tuple]:
    """The statement of a quick look and the names of its columns, from the models' tables."""
    q = connection.ops.quote_name

    def table(model):
        return q(model._meta.db_table)

    def col(model, field):
        return q(model._meta.get_field(field).column)

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
            f"g.{col(Game, 'finished_at')}, g.{col(Game, 'group')}, gr.{col(Group, 'time_zone')}"
        )
        names = ("pk", "version", "date", "finished_at", "group_id", "time_zone")
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


def _zone(request, chosen: str) -> str:
    """The zone `activate_time_zone` would pick, without activating it."""
    phone = request.COOKIES.get(TIME_ZONE_COOKIE, "")
    return next((z for z in (chosen, phone) if z in known_time_zones()), "")
