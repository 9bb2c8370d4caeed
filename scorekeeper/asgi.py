"""The ASGI application production serves (gunicorn with uvicorn workers, README): the pages,
and the live table's streams held open on the event loop (games.live)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django_pages = get_wsgi_application()

from django.urls import get_resolver  # noqa: E402 - once Django is set up

from games.live.asgi import LiveApplication  # noqa: E402
from games.live.polls import LivePolls  # noqa: E402

# Live polls that changed nothing are answered 304 before Django's handler (games.live.polls).
application = LiveApplication(LivePolls(django_pages))

# What the worker made to start (Django, the URLconf and every view it imports: about 86,000
# objects the collector tracks) lives as long as the worker: set aside, so that the collector's
# full collections, which every few hundred saves traversed all of it (70 ms each), look at
# what requests made since. Measured in-process over 600 saves: 0.19 ms of collection a save
# before, 0.08 ms after (bench_request_calls' table; issue 45).
get_resolver().url_patterns  # noqa: B018 - the views imported now, not by the first request
gc.freeze()
