"""A stream's opening, on the Django side: the view decides who may follow what (with the
decorators every page wears) and answers the first event; the ASGI application (`asgi`), when
it serves the request, keeps the response open and hands it to the hub."""

from contextvars import ContextVar
from dataclasses import dataclass

from django.http import HttpResponse

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


class Holder:
    """Where a view served by the ASGI application leaves the stream it opened."""

    opened: Opened | None = None


# Set by the ASGI application around each request it serves (the WSGI thread sees the same
# holder); unset under any other server.
HOLDER: ContextVar[Holder | None] = ContextVar("live_stream_holder", default=None)


def event(name: str, data: str = "", event_id: str = "") -> bytes:
    """One server-sent event."""
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {name}\ndata: {data}\n\n".encode()


def open_stream(request, page: str, pk: int, group_id: int, token: str) -> HttpResponse:
    """The stream's first answer: the state the page should show (`token`, which the phone
    compares by asking its live URL). 204 where no server holds streams: the page then polls."""
    holder = HOLDER.get()
    if holder is None:
        response = HttpResponse(status=204)
    else:
        holder.opened = Opened(page, pk, group_id, token, stream_grant(request))
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
