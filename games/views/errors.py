"""What the site answers when something outside a view fails."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponseServerError
from django.shortcuts import render

UNREACHABLE = "Can't reach the scores right now — nothing you saved is lost; try again in a moment."
DISK_FULL = (
    "The server's disk is full; your hand is kept on this phone and goes once there is room."
)
BUSY = (
    "The server has too many phones at once; your hand is kept on this phone and goes again "
    "in a moment."
)
SQLITE_FULL = 13  # SQLite's primary result code for "database or disk is full"


def trouble(error: Exception) -> tuple[str, str]:
    """The heading and the message for a database error: a full disk (SQLite's SQLITE_FULL,
    PostgreSQL's disk_full), a server out of connections (too many clients), or out of reach."""
    cause = error.__cause__
    text = str(error).lower()
    code = getattr(cause, "sqlite_errorcode", None)
    if (code is not None and code & 0xFF == SQLITE_FULL) or (
        getattr(cause, "sqlstate", None) == "53100"
    ):
        return "The scores can't be written", DISK_FULL
    # A refused connection carries no SQLSTATE in psycopg: PostgreSQL's words say which.
    if getattr(cause, "sqlstate", None) == "53300" or any(
        words in text
        for words in ("too many clients", "too many connections", "slots are reserved")
    ):
        return "The scores are busy", BUSY
    return "Can't reach the scores", UNREACHABLE


def server_error(request):
    """handler500: a database that can't be reached, can't be written (a full disk) or has no
    connection left is a pause (503, in the app's style, saying which, with nothing
    acknowledged), anything else a 500 in the app's style (drawn without the database).

    Django calls this inside the `except` that caught the error, wherever it was raised (a view
    or a middleware such as the one reading the session's user), so `sys.exc_info()` tells which.
    """
    error = sys.exc_info()[1]
    if not isinstance(error, (OperationalError, InterfaceError)):
        try:
            return render(request, "500.html", status=500)
        except Exception:  # noqa: BLE001 - the page of last resort must not fail in turn
            return HttpResponseServerError("Something went wrong. Try again in a moment.")
    htmx = request.headers.get("HX-Request") == "true"
    template = "unreachable_fragment.html" if htmx else "503.html"
    heading, message = trouble(error)
    context = {"heading": heading, "message": message}
    response = render(request, template, context, status=503)
    response["Retry-After"] = "5"
    response["Cache-Control"] = "no-store"
    return response
