"""Who may see and change what: the one place that decides it.

The roles: a member of a group (an owner may manage the group too) sees and changes everything
of their current group; a guest (a phone without an account, let in by a guest link) sees its
game and the games of the same night started after it (the rematch, the next game), for the
12 hours of its link, enters hands there, and may undo only the saves made through its link; a
removed member is a stranger to the group at once, and no link made before the removal brings
them back; a member of another group, a login with no group, and a visitor see nothing
(not found, or the login page when signed out).

Views ask the decorators here, lookups the querysets (`games_seen`), templates the `may`
context (`table_access`), saves and undos the `saver`; the one-query live poll
(`games.access.quick`) decides the same from the same session checks, which a test holds to
these rules role by role.
"""

from dataclasses import dataclass
from datetime import datetime
from functools import cache, wraps

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.db.models import Q
from django.http import Http404, HttpRequest
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django_htmx.middleware import HtmxDetails

from .. import plain
from ..models import REMOVED, Game, Group, GuestPass, Membership, Removal, Saver
from ..time_zones import activate_time_zone


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
GROUP_KEY = "group_id"


@dataclass(frozen=True)
class Guest:
    """A phone without an account let in by a guest link, as its session says: into the link's
    game and the games of the same night started after it (`GuestPass.night_games`). Known only
    by its game (the live polls' quick look), it is let into that game alone."""

    game_id: int
    group_id: int
    device: str
    pass_id: int  # the guest link it came in by
    night_id: int | None = None  # the link's game's night, and when that game was started
    since: datetime | None = None

    @property
    def name(self) -> str:
        """How its saves are recorded in the game's history."""
        return f"guest on {self.device}"

    def games(self, at: str = "") -> Q:
        """Its games, as a filter on rows that lead to a game by `at` ("" or "game__")."""
        own = Q(**{f"{at}pk": self.game_id})
        if self.night_id is None:
            return own
        later = {f"{at}night_id": self.night_id, f"{at}group_id": self.group_id}
        return own | Q(**later, **{f"{at}created_at__gte": self.since})

    def sees(self, game) -> bool:
        """`games()` for a game already read."""
        if game.pk == self.game_id:
            return True
        return (
            self.night_id is not None
            and (game.night_id, game.group_id) == (self.night_id, self.group_id)
            and game.created_at >= self.since
        )

    def admits(self, game_id) -> bool:
        """`games()` for a game known by its id (one query unless it is the link's game)."""
        if game_id == self.game_id:
            return True
        return self.night_id is not None and Game.objects.filter(self.games(), pk=game_id).exists()


# ---------------------------------------------------------------- the session


def session_login(session) -> int | None:
    """The login a session holds, as Django's own check reads it (a backend of this site, a
    well-formed id), before its password hash is compared (`session_matches`)."""
    user_id = session.get(SESSION_KEY)
    if user_id is None or session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return None
    try:
        return User._meta.pk.to_python(user_id)
    except ValidationError:
        return None


def session_matches(session, user) -> bool:
    """The session was begun with the login's password as it is now (Django's check: a
    password change ends every other session). Where this says no, Django's `request.user`
    decides, which also knows the fallback secret keys and ends a session it refuses."""
    return constant_time_compare(str(session.get(HASH_SESSION_KEY, "")), _auth_hash(user))


_AUTH_HASHES: dict[tuple[str, str], str] = {}
AUTH_HASHES_KEPT = 4096


def _auth_hash(user) -> str:
    """`user.get_session_auth_hash()`, worked out once a process for each password hash and
    secret key (an HMAC of the two, on every request of every member otherwise). A new password
    or key is a new entry; all are forgotten once there are more than AUTH_HASHES_KEPT."""
    key = (user.password, settings.SECRET_KEY)
    found = _AUTH_HASHES.get(key)
    if found is None:
        found = _AUTH_HASHES[key] = user.get_session_auth_hash()
        if len(_AUTH_HASHES) > AUTH_HASHES_KEPT:
            _AUTH_HASHES.clear()
    return found


def guest_grant(session) -> dict | None:
    """What the session says of its guest link ({"game", "token", "device"}), if anything."""
    grant = session.get(GUEST_KEY)
    return grant if isinstance(grant, dict) else None


def _guest(session) -> tuple[Guest | None, str]:
    """The session's guest grant while its pass is still good (not expired), and the time
    zone of the game's group: one plain statement (`_guest_sql`), as every guest's request
    asks it."""
    grant = guest_grant(session)
    if grant is None or type(grant.get("game")) is not int:
        return None, ""
    found = plain.fetch_all(_guest_sql(connection.vendor), [str(grant.get("token")), grant["game"]])
    if not found:
        return None, ""
    pass_id, created_at, ended_at, game_id, group_id, night_id, started, time_zone = found[0]
    guest_pass = GuestPass(
        pk=pass_id,
        game_id=game_id,
        created_at=plain.value(GuestPass, "created_at", created_at),
        ended_at=plain.value(GuestPass, "ended_at", ended_at),
    )
    if guest_pass.problem():
        return None, ""
    device = str(grant.get("device", ""))
    since = plain.value(Game, "created_at", started)
    return Guest(game_id, group_id, device, pass_id, night_id, since), time_zone


@cache
def _guest_sql(vendor: str) -> str:
    p, g, gr = GuestPass, Game, Group
    return (
        f"SELECT p.{plain.col(p, 'id')}, p.{plain.col(p, 'created_at')}, "
        f"p.{plain.col(p, 'ended_at')}, g.{plain.col(g, 'id')}, g.{plain.col(g, 'group')}, "
        f"g.{plain.col(g, 'night')}, g.{plain.col(g, 'created_at')}, "
        f"gr.{plain.col(gr, 'time_zone')} "
        f"FROM {plain.table(p)} p JOIN {plain.table(g)} g ON g.{plain.col(g, 'id')} = "
        f"p.{plain.col(p, 'game')} JOIN {plain.table(gr)} gr ON gr.{plain.col(gr, 'id')} = "
        f"g.{plain.col(g, 'group')} "
        f"WHERE p.{plain.col(p, 'token')} = %s AND p.{plain.col(p, 'game')} = %s"
    )


def let_guest_in(request: TableRequest, guest_pass: GuestPass, device: str) -> None:
    request.session[GUEST_KEY] = {
        "game": guest_pass.game_id,
        "token": guest_pass.token,
        "device": device,
    }


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
    """The memberships of the session's login, with the login, in one plain statement, when
    the session holds it as `session_login` and `session_matches` let it in; else none, and
    Django's `request.user` decides."""
    user_id = session_login(request.session)
    if user_id is None:
        return []
    found = []
    user = None
    for row in plain.fetch_all(_memberships_sql(connection.vendor), [user_id, True]):
        membership, end = plain.instance(Membership, row)
        group, end = plain.instance(Group, row, end)
        if user is None:
            user, _ = plain.instance(User, row, end)
        Membership.group.field.set_cached_value(membership, group)
        Membership.user.field.set_cached_value(membership, user)
        found.append(membership)
    return found if found and session_matches(request.session, user) else []


@cache
def _memberships_sql(vendor: str) -> str:
    """A login's memberships with their groups and the login, in the memberships' order, if
    the login is active."""
    m = Membership
    return (
        f"SELECT {plain.columns(m, 'm')}, {plain.columns(Group, 'gr')}, "
        f"{plain.columns(User, 'u')} FROM {plain.table(m)} m "
        f"JOIN {plain.table(Group)} gr ON gr.{plain.col(Group, 'id')} = m.{plain.col(m, 'group')} "
        f"JOIN {plain.table(User)} u ON u.{plain.col(User, 'id')} = m.{plain.col(m, 'user')} "
        f"WHERE m.{plain.col(m, 'user')} = %s AND u.{plain.col(User, 'is_active')} = %s "
        f"ORDER BY m.{plain.col(m, 'joined_at')}, m.{plain.col(m, 'id')}"
    )


def switch_group(request: TableRequest, group: Group) -> None:
    """Make `group` this session's current group (the caller has checked the membership)."""
    request.session[GROUP_KEY] = group.pk
    request.group = group


# ---------------------------------------------------------------- who may open a page


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


def admit_guest(request: TableRequest, game_id: int) -> bool:
    """The request comes from a guest let into this game (and not from a member of its group,
    who is a member there): from now on it sees that game as its guest."""
    guest = request.guest
    if guest and guest.group_id != getattr(request.group, "pk", None) and guest.admits(game_id):
        request.as_guest = True
    return request.as_guest


def _opens_a_page(request) -> bool:
    """A page opened in the browser, not a script's request (htmx, a live poll)."""
    headers = request.headers
    return (
        request.method in ("GET", "HEAD")
        and not request.htmx
        and "If-None-Match" not in headers
        and headers.get("Sec-Fetch-Dest", "document") == "document"
    )


def game_access(view):
    """One game's table, rounds and hand saves: members of its group, or a phone whose guest
    pass lets it into this game. Anyone else: not found, or log in when signed out; a guest
    whose pass has ended is told so on the page it opens, not shown a login form."""

    @wraps(view)
    def checked(request: TableRequest, game_id, *args, **kwargs):
        if not admit_guest(request, game_id) and request.group is None:
            if not request.user.is_authenticated:
                ended = request.guest is None and guest_grant(request.session) is not None
                if ended and _opens_a_page(request):
                    return render(request, "games/guest_ended.html", status=403)
                return redirect_to_login(request.get_full_path())
            raise Http404("You are not a member of a group")
        return view(request, game_id, *args, **kwargs)

    return checked


# ---------------------------------------------------------------- what a request may see


def games_seen(request: TableRequest, to_game: str = "") -> Q:
    """The games this request may see, as a filter on rows that lead to a game by `to_game`
    ("" for games themselves, "game" for rounds and seats): its guest's one game, or its
    group's games, or none."""
    at = f"{to_game}__" if to_game else ""
    if request.as_guest:
        return request.guest.games(at)
    if request.group is None:
        return Q(pk__in=[])
    return Q(**{f"{at}group": request.group})


def sees_game(request: TableRequest, game) -> bool:
    """`games_seen` for a game already read."""
    if request.as_guest:
        return request.guest.sees(game)
    return request.group is not None and game.group_id == request.group.pk


def saver(request: TableRequest) -> Saver:
    """Who saves or undoes, as the game's records name them: a member, or a guest's phone and
    the link it came in by."""
    if request.as_guest:
        return Saver.of(by_name=request.guest.name, guest_pass_id=request.guest.pass_id)
    return Saver.of(request.user)


def may_undo(request: TableRequest, change) -> bool:
    """This phone may undo the round's last save (`change`), by the rule undo itself keeps."""
    return change is not None and saver(request).may_undo(change)


def shown_saver(request: TableRequest, record) -> str:
    """Who saved a hand or made a change (`record`), as this phone may see it: a guest sees a
    member as "a member", never their login's name; members see every name."""
    name = getattr(record, "changed_by_name", None)
    if name is None:
        name = record.updated_by_name
    if request.as_guest and record.guest_pass_id is None:
        return "a member"
    return name or "someone"


def removed_since(user, group_id: int, link_made) -> str | None:
    """Why a link made at `link_made` cannot bring `user` into the group: they were removed
    from it after the link was made (only a new invitation can). None when it may."""
    if user.is_authenticated and Removal.keeps_out(user, group_id, link_made):
        return REMOVED
    return None


@dataclass(frozen=True)
class TableAccess:
    """What the pages may offer this request, for the templates (`may`)."""

    group_pages: bool  # the group's own pages: players, nights, history, rematch, reopen
    guest: Guest | None  # the guest this phone is, for its badge and its way back


def table_access(request) -> dict:
    """Context processor: `may`, what this request may be offered."""
    guest = getattr(request, "guest", None)
    as_guest = getattr(request, "as_guest", False)
    group = getattr(request, "group", None)
    return {"may": TableAccess(group is not None and not as_guest, guest)}


def client_ip(request: HttpRequest) -> str:
    """The phone's address, for slowing password guessing: behind the TLS proxy, the address
    the proxy appended last to X-Forwarded-For (earlier ones are the client's word, not proof)."""
    if settings.BEHIND_HTTPS_PROXY:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "")
