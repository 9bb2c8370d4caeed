"""A stream's opening, on the Django side: the view decides who may follow what (with the
decorators every page wears) and answers the first event; the ASGI application (`asgi`), when
it serves the request, keeps the response open and hands it to the hub."""

from contextvars import ContextVar
from dataclasses import dataclass

from django.http import HttpResponse
from django.middleware.csrf import get_token

from ..access.quick import viewer
from ..access.streams import StreamGrant, stream_grant

# How long a phone waits before it opens a dropped stream again (EventSource's `retry`).
RETRY_MS = 1000


@dataclass(frozen=True)
class Opened:
    """A stream a view let open: what it follows, the state its first event told, and who
    for."""

    page: str  # "game" or "night"
    pk: int
    group_id: int
    token: str
    grant: StreamGrant
    # A round page's stream (None: another page): its round, the phone as a change is drawn for
    # it (`changes.looks` and its time zone), its CSRF token, and whose ETags it keeps.
    round_number: int | None = None
    looks: str = ""
    zone: str = ""
    csrf: str = ""
    viewer: object = None


class Holder:
    """Where a view served by the ASGI application leaves the stream it opened."""

    opened: Opened | None = None


# Set by the ASGI application around each request it serves (the WSGI thread sees the same
# holder); unset under any other server.
HOLDER: ContextVar[Holder | None] = ContextVar("live_stream_holder", default=None)


def event(name: str, data: str = "", event_id: str = "") -> bytes:
    """One server-sent event."""
    head = f"id: {event_id}\n" if event_id else ""
    lines = "".join(f"data: {line}\n" for line in data.replace("\r", "").split("\n"))
    return f"{head}event: {name}\n{lines}\n".encode()


MEMBER = "member"
GUEST = "guest"


def looks(request) -> str:
    """Who a phone is, as a change is drawn for it (games.live.changes): a member, or the guest
    link it came by."""
    return f"{GUEST}:{request.guest.pass_id}" if request.as_guest else MEMBER


def key(looks: str, zone: str) -> str:
    """A drawn change's key: who it is drawn for, and the time zone its times are in."""
    return f"{looks}|{zone}"


def open_stream(
    request, page: str, pk: int, group_id: int, token: str, round_number: int | None = None
) -> HttpResponse:
    """The stream's first answer: the state the page should show (`token`, which the phone
    compares by asking its live URL). 204 where no server holds streams: the page then polls.
    A round page's stream (`round_number`) also carries the changes made in its round."""
    holder = HOLDER.get()
    if holder is None:
        response = HttpResponse(status=204)
    else:
        grant = stream_grant(request)
        if round_number is None:
            holder.opened = Opened(page, pk, group_id, token, grant)
        else:
            holder.opened = Opened(
                page,
                pk,
                group_id,
                token,
                grant,
                round_number,
                looks(request),
                getattr(request, "time_zone", ""),
                get_token(request),
                viewer(request),
            )
        first = f"retry: {RETRY_MS}\n".encode() + event("version", token, token)
        response = HttpResponse(first, content_type="text/event-stream")
        response["X-Accel-Buffering"] = "no"  # nginx and the like: pass each event on at once
    response["Cache-Control"] = "no-cache, no-store, private"
    return response


def streams_held(request) -> dict:
    """Whether the server drawing this page holds streams (the ASGI application does; runserver
    and WSGI servers don't): a page served without them asks its live URL every 2 seconds and
    opens no stream it would be refused (a context processor)."""
    return {"streams_held": HOLDER.get() is not None}
