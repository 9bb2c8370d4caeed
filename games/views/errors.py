"""What the site answers when something outside a view fails."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponseServerError
from django.shortcuts import render

UNREACHABLE = "Can't reach the scores right now — nothing you saved is lost; try again in a moment."


def server_error(request):
    """handler500: a database that can't be reached is a pause (503, in the app's style, with
    nothing acknowledged), anything else a 500 in the app's style (drawn without the database).

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
    response = render(request, template, {"message": UNREACHABLE}, status=503)
    response["Retry-After"] = "5"
    response["Cache-Control"] = "no-store"
    return response
