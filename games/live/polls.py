"""A live poll answered in front of Django's handler, where the quick look decides it.

Every phone at a table asks its live URL each time its stream tells of a change it was not
carried, and most of those asks find nothing new to them, or find the change kept as drawn
where it was made. The view answers them from one statement (`access.quick_look`) and, for a
change, one more; but Django's way to it (the request through thirteen middlewares, the URL
resolved, the view's decorators, the response back through them) costs as much again, after
an idle gap more than the look itself (issue 45). Here a GET of a live URL with an ETag takes
the same quick look and, when the state is the one the phone shows, answers Django's very 304,
and for a round's change kept as drawn for this phone Django's very answer: made by the same
code (`views.live.quick_etag`, `not_modified`, `kept_answer`) and given its headers by the
answer side of the same middlewares, in the order they run.

Anything else goes Django's whole way, untouched: not a live URL or not a GET, a host not
allowed, a request Django would send to HTTPS, a CSRF cookie Django would replace, a session
the quick look is not sure of, a change not kept for this phone (the quick look left in the
environ for the view, which does not look again), any error on the way (Django answers it, as
it would have), and every poll of a site whose middlewares are not the ones known here."""

import logging
import re
from importlib import import_module

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import DatabaseError
from django.middleware import csrf
from django.utils import timezone
from django.utils.module_loading import import_string

from ..views.live import LOOKED, kept_answer, not_modified, quick_etag

log = logging.getLogger(__name__)

# games.urls' live routes: games/<id>/live/, games/<id>/rounds/<number>/live/, nights/<id>/live/
LIVE_URL = re.compile(
    r"/(?:games/(?P<game>[0-9]{1,18})/(?:rounds/(?P<round>[0-9]{1,4})/)?"
    r"|nights/(?P<night>[0-9]{1,18})/)live/"
)
# The middlewares whose answer side a 304 goes through, in settings.MIDDLEWARE's order.
ANSWERING = (
    "django.middleware.security.SecurityMiddleware",
    "games.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)
# ... and those a changed poll's answer (a change kept as drawn) goes through too: its body
# compressed, the phone's CSRF cookie renewed (its token is in the forms), the session's Vary.
CHANGED = (
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
)
# Those that add nothing to a live poll's answer: no static file, no user, group, message,
# htmx detail or login attempt read (to a 304 the three above add nothing either: no body to
# compress, a session only read, whose Vary: Cookie is the view's own, no CSRF token asked; a
# cookie Django would replace goes its way).
SILENT = (
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.access.CurrentGroupMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "games.htmx.Middleware",
    "axes.middleware.AxesMiddleware",
)
# A CSRF cookie as Django keeps it (a secret, or a masked token from before Django 4.1).
CSRF_COOKIE = re.compile(
    f"[{re.escape(csrf.CSRF_ALLOWED_CHARS)}]"
    f"{{{csrf.CSRF_SECRET_LENGTH}}}(?:[{re.escape(csrf.CSRF_ALLOWED_CHARS)}]{{{csrf.CSRF_SECRET_LENGTH}}})?"
)


class LivePolls:
    """A WSGI application: Django's (`app`), with the live polls the quick look decides answered
    before it."""

    def __init__(self, app):
        self.app = app
        # Only while every middleware is one whose part in a 304 is known (answered here, or
        # adding nothing to it) and no setting Django's CommonMiddleware reads is set: any
        # other site answers every poll Django's whole way.
        self.on = not (
            set(settings.MIDDLEWARE) - set(ANSWERING) - set(CHANGED) - set(SILENT)
            or settings.PREPEND_WWW
            or settings.DISALLOWED_USER_AGENTS
        )
        # An answer goes back through them from the innermost out, as in Django's chain.
        made = {name: import_string(name)(_never) for name in (*ANSWERING, *CHANGED)}
        inside_out = settings.MIDDLEWARE[::-1]
        self.answering = [made[name].process_response for name in inside_out if name in ANSWERING]
        self.changed = [made[name].process_response for name in inside_out if name in made]
        self.csrf = made["django.middleware.csrf.CsrfViewMiddleware"]
        self.sessions = import_module(settings.SESSION_ENGINE).SessionStore

    def __call__(self, environ, start_response):
        if self.on and environ.get("REQUEST_METHOD") == "GET" and "HTTP_IF_NONE_MATCH" in environ:
            found = LIVE_URL.fullmatch(environ.get("PATH_INFO", ""))
            if found is not None:
                try:
                    response = self.answer(environ, found)
                except DatabaseError:  # Django's way answers it (and mends the connection)
                    log.debug("live poll: the quick look failed", exc_info=True)
                    response = None
                except Exception:  # Django's way answers it, as it answers any error
                    log.exception("live poll: the quick look failed")
                    response = None
                if response is not None:
                    headers = [*response.items()]
                    headers += [("Set-Cookie", c.OutputString()) for c in response.cookies.values()]
                    start_response(f"{response.status_code} {response.reason_phrase}", headers)
                    return response  # closing it sends request_finished, as Django's does
        return self.app(environ, start_response)

    def answer(self, environ: dict, found: re.Match):
        """Django's answer to this poll (304, or a round's change as kept), or None: Django's
        whole way answers it."""
        request = WSGIRequest(environ)
        try:
            request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware asks it
        except DisallowedHost:
            return None
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None  # SecurityMiddleware sends it to HTTPS
        secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
        if secret is not None and not CSRF_COOKIE.fullmatch(secret):
            return None  # CsrfViewMiddleware gives the phone a new one (Set-Cookie)
        request.session = self.sessions(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        request.group = request.guest = None
        request.as_guest, request.time_zone = False, ""
        game, number, night = found.group("game", "round", "night")
        page = "night" if night else ("round" if number else "game")
        key = (page, int(night or game), int(number) if number else None)
        quick = quick_etag(request, *key)
        if quick is None:
            return None
        response = not_modified(request, quick[2])
        answering = self.answering
        if response is None and page == "round":
            # Changed: what its stream would have carried, if kept as drawn for this phone.
            self.csrf.process_request(request)  # the phone's CSRF secret, for its forms
            try:
                response = kept_answer(request, quick, *key[1:])
            finally:
                timezone.deactivate()
            answering = self.changed
        elif response is not None and response.status_code != 304:
            response = None  # a precondition failed: Django says so
        if response is None:
            # The view answers with what changed, from this very look (and, on a round, not
            # looking again for a change kept: `views.live.kept_answer`).
            environ[LOOKED] = (key, *quick, request.group, request.guest)
            return None
        response._handler_class = WSGIHandler
        for answer in answering:
            response = answer(request, response)
        return response


def _never(request):
    raise AssertionError("only the answer side of these middlewares is used")
