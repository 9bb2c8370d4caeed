"""How big a round page is with 3 and 8 players: bytes of its HTML (and gzip-compressed) and
its height on a 390 px wide phone as the server draws it. Runs Django in-process on a throwaway
SQLite database and Chromium on the page with its stylesheet.

    uv run python bench/bench_round_page.py
"""

import gzip
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's event loop

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from games.models import Game  # noqa: E402

settings.ALLOWED_HOSTS = ["testserver"]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def group_of(user):
    memberships = getattr(user, "memberships", None)
    return memberships.first().group if memberships is not None else user.membership.group


def main():
    call_command("migrate", verbosity=0)
    client = Client()
    client.post("/signup/", {"username": "bench", "password1": "Table-talk-42",
                             "password2": "Table-talk-42"})  # fmt: skip
    user = User.objects.get(username="bench")
    client.force_login(user)
    css = (ROOT / "static" / "css" / "app.css").read_text()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 390, "height": 844})
        for kind in ("three-thirteen", "rummy13"):
            for players in (3, 8):
                game = Game.objects.start(group=group_of(user), kind=kind,
                                          players=NAMES[:players], rules={})  # fmt: skip
                html = client.get(f"/games/{game.pk}/rounds/1/").content
                styled = html.decode().replace("</head>", f"<style>{css}</style></head>")
                page.set_content(styled, wait_until="load")
                height = page.evaluate("document.documentElement.scrollHeight")
                print(f"{kind:<15} {players} players: {len(html) / 1024:6.1f} KB HTML, "
                      f"{len(gzip.compress(html)) / 1024:5.1f} KB gzipped, {height:6d} px high "
                      f"({height / 844:.1f} screens)")  # fmt: skip
        browser.close()


if __name__ == "__main__":
    main()
