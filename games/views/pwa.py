"""The app on a phone's home screen: its manifest, its service worker (served from the root so
it controls every page) and the page it shows when there is no connection."""

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe

from games import engine

NAME = "Scorekeeper"
THEME = "#0f5132"
BACKGROUND = "#f6f7f6"
# The app shell every page needs, cached when the service worker installs (hashed names in
# production, so a deploy brings a new worker and new caches).
SHELL = [
    "css/app.css",
    "js/app.js",
    "js/live.js",
    "js/entry.js",
    "django_htmx/htmx-2.min.js",
    "js/vendor/htmx-ext-sse.js",
    "img/favicon.svg",
    "img/icon-192.png",
]


def _games_named() -> str:
    names = [kind.name for kind in engine.KINDS.values()]
    return ", ".join(names[:-1]) + " and " + names[-1]


@require_safe
def manifest(request):
    icon = {"type": "image/png"}
    data = {
        "name": f"{NAME}: card game scores",
        "short_name": NAME,
        "description": f"Scores for {_games_named()} at the table.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static("img/icon-192.png"), "sizes": "192x192", "purpose": "any", **icon},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "purpose": "any", **icon},
            {
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "purpose": "maskable",
                **icon,
            },
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"  # it names the icons' hashed files
    return response


def _worker_source() -> str:
    path = finders.find("js/sw.js")
    with open(path, encoding="utf-8") as source:
        return source.read()


@require_safe
def service_worker(request):
    """static/js/sw.js, told what to cache first; its version changes with what it caches,
    so phones pick up a new worker after every deploy."""
    shell = [static(name) for name in SHELL]
    offline = reverse("offline")
    code = _worker_source()
    version = hashlib.sha256(json.dumps([shell, offline, code]).encode()).hexdigest()[:12]
    head = (
        f"const VERSION = {json.dumps(version)};\n"
        f"const SHELL = {json.dumps(shell)};\n"
        f"const OFFLINE_URL = {json.dumps(offline)};\n"
        f"const STATIC_URL = {json.dumps(settings.STATIC_URL)};\n"
    )
    response = HttpResponse(head + code, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request):
    """What a page shows when it cannot be loaded: nobody's data, so any phone may keep it."""
    response = render(request, "offline.html")
    response["Cache-Control"] = "no-cache"
    return response
