"""Who is asking: the signed-in member's group, set once per request in one place."""

import zoneinfo
from dataclasses import dataclass
from functools import cache, wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from .models import Group, GuestPass, Membership


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

    @property
    def name(self) -> str:
        """How its saves are recorded in the game's history."""
        return f"guest on {self.device}"


def _guest(session) -> Guest | None:
    """The session's guest grant while its pass is still good (not expired, game not finished)."""
    grant = session.get(GUEST_KEY)
    if not isinstance(grant, dict):
        return None
    guest_pass = (
        GuestPass.objects.select_related("game")
        .filter(token=str(grant.get("token")), game_id=grant.get("game"))
        .first()
    )
    if guest_pass is None or guest_pass.problem():
        return None
    return Guest(guest_pass.game_id, guest_pass.game.group_id, str(grant.get("device", "")))


def let_guest_in(request: "TableRequest", guest_pass: GuestPass, device: str) -> None:
    request.session[GUEST_KEY] = {"game": guest_pass.game_id, "token": guest_pass.token,
                                  "device": device}  # fmt: skip


GROUP_KEY = "group_id"


class CurrentGroupMiddleware:
    """Sets `request.group`, the group whose data this request may see (None for nobody).

    The chosen group is kept in the session and checked against the login's memberships on
    every request, so a removed member loses it at once; otherwise their first group."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.group, request.membership, request.memberships = None, None, []
        request.guest, request.as_guest = _guest(request.session), False
        if request.user.is_authenticated:
            request.memberships = list(
                Membership.objects.select_related("group").filter(user=request.user)
            )
            chosen = request.session.get(GROUP_KEY)
            current = next((m for m in request.memberships if m.group_id == chosen), None)
            request.membership = current or next(iter(request.memberships), None)
            request.group = request.membership.group if request.membership else None
        return self.get_response(request)


def switch_group(request: TableRequest, group: Group) -> None:
    """Make `group` this session's current group (the caller has checked the membership)."""
    request.session[GROUP_KEY] = group.pk
    request.group = group


# The phone's own zone, as its browser names it (Intl.DateTimeFormat), set by static/js/app.js.
TIME_ZONE_COOKIE = "tz"


@cache
def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


class TimeZoneMiddleware:
    """Shows every time in the group's time zone, or when it chose none, in the phone's own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        group = getattr(request, "group", None)
        guest = getattr(request, "guest", None)
        if group is not None:
            chosen = group.time_zone
        elif guest is not None:  # a guest sees the game's group's times
            chosen = Group.objects.filter(pk=guest.group_id).values_list("time_zone", flat=True)
            chosen = next(iter(chosen), "")
        else:
            chosen = ""
        phone = request.COOKIES.get(TIME_ZONE_COOKIE, "")
        name = next((z for z in (chosen, phone) if z in known_time_zones()), "")
        request.time_zone = name
        if name:
            timezone.activate(zoneinfo.ZoneInfo(name))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


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
