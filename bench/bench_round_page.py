"""How big a round page is with 3 and 8 players: bytes of its HTML (and gzip-compressed) and
its height on a 390 px wide phone as the server draws it. Runs Django in-process on a throwaway
SQLite database and Chromium on the page with its stylesheet.

    uv run python -m bench.bench_round_page
"""

import gzip
import os

from bench.serving import ROOT, configure, member

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def main():
    configure()
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM beside Playwright's event loop
    from django.conf import settings
    from django.test import Client

    from games.models import Game

    settings.ALLOWED_HOSTS = ["testserver"]
    user, _ = member("bench")
    client = Client()
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
                game = Game.objects.start(
                    group=user.memberships.get().group, kind=kind, players=NAMES[:players], rules={}
                )
                html = client.get(f"/games/{game.pk}/rounds/1/").content
                styled = html.decode().replace("</head>", f"<style>{css}</style></head>")
                page.set_content(styled, wait_until="load")
                height = page.evaluate("document.documentElement.scrollHeight")
                print(
                    f"{kind:<15} {players} players: {len(html) / 1024:6.1f} KB HTML, "
                    f"{len(gzip.compress(html)) / 1024:5.1f} KB gzipped, {height:6d} px high "
                    f"({height / 844:.1f} screens)"
                )
        browser.close()


if __name__ == "__main__":
    main()
