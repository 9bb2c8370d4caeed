"""Which time zone a page shows times in: the group's chosen one, or else the phone's own (as
its browser names it), or else the server's."""

import zoneinfo
from functools import cache

from django.utils import timezone

# The phone's own zone, as its browser names it (Intl.DateTimeFormat), set by static/js/app.js.
TIME_ZONE_COOKIE = "tz"


@cache
def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def phone_zone(request) -> str:
    """The phone's own zone, when it sent one that exists ("" otherwise)."""
    zone = request.COOKIES.get(TIME_ZONE_COOKIE, "")
    return zone if zone in known_time_zones() else ""


def zone_for(request, chosen: str) -> str:
    """The zone times are shown in: the group's `chosen` one if it exists, else the phone's."""
    return chosen if chosen in known_time_zones() else phone_zone(request)


def activate_time_zone(request, chosen: str) -> None:
    """Every time of this request in `zone_for`'s zone (the server's when there is none)."""
    name = request.time_zone = zone_for(request, chosen)
    if name:
        timezone.activate(zoneinfo.ZoneInfo(name))
