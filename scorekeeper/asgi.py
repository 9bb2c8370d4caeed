"""The ASGI application production serves (gunicorn with uvicorn workers, README): the pages,
and the live table's streams held open on the event loop (games.live)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
pages = get_wsgi_application()

from games.live.asgi import LiveApplication  # noqa: E402 - once Django is set up

application = LiveApplication(pages)
