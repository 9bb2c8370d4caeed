import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django_pages = get_wsgi_application()

from games.live.polls import LivePolls  # noqa: E402 - once Django is set up

# Live polls that changed nothing are answered 304 before Django's handler (games.live.polls).
application = LivePolls(django_pages)
