"""Who is asking: the signed-in member's group, set once per request in one place."""

import zoneinfo
from functools import cache, wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404, HttpRequest
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from .models import Group, Membership


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


class TableRequest(HtmxHttpRequest):
    """A request to the app's pages: the user and, for a member, their group."""

    user: User | AnonymousUser
    group: Group | None
    time_zone: str  # the IANA zone times are shown in ("" when none is known: the server's)


class CurrentGroupMiddleware:
    """Sets `request.group`, the group whose data this request may see (None for nobody)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.group = None
        if request.user.is_authenticated:
            membership = (
                Membership.objects.select_related("group").filter(user=request.user).first()
            )
            request.group = membership.group if membership else None
        return self.get_response(request)


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
        chosen = group.time_zone if group is not None else ""
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
