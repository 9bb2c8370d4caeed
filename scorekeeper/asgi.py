"""The ASGI application production serves (gunicorn with uvicorn workers, README): the pages,
and the live table's streams held open on the event loop (games.live)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django_pages = get_wsgi_application()

from games.live.asgi import LiveApplication  # noqa: E402 - once Django is set up
from games.live.polls import LivePolls  # noqa: E402

# Live polls that changed nothing are answered 304 before Django's handler (games.live.polls).
application = LiveApplication(LivePolls(django_pages))
