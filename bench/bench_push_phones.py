"""Three phones in Chromium at one table, served as production serves the site (gunicorn with
uvicorn workers, DEBUG=0, SQLite or PostgreSQL): one phone saves hand after hand of a 13-card
Rummy deal for five, and the two others follow the round page from their streams. Prints how
long each save took to show on each other phone, from the tap on Save until that phone's line
for the hand shows the saved points (p50, p95, max), and that no phone reloaded. Not a test.

    uv run python -m bench.bench_push_phones [--postgres URL] [--saves 20] [--quick-start]

`--quick-start` serves the site with the README's first command (`manage.py serve`, DEBUG on as
a fresh checkout has it) instead of the production settings.
"""

import argparse
import statistics
import time

from bench.serving import configure, member, serve, serve_quick_start

# Two hands of different counts, saved in turn.
HANDS = ["2C 3C 4C 5D 6D 7D 8H 9H 10H JS QS KS 2D", "KC QD JH 9S 7C 5D 3H KD QH JS 9C 7D 5H"]


SHOWN = """([name, text]) => {
  for (const panel of document.querySelectorAll("section.hand-panel")) {
    if (panel.querySelector("summary .who")?.textContent === name
        && panel.querySelector(".hand-line")?.innerText === text) {
      window.shownAt = Date.now();
      return true;
    }
  }
  return false;
}"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its database is emptied)")
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument(
        "--quick-start", action="store_true", help="serve with the README's first command"
    )
    args = parser.parse_args()
    env = configure(args.postgres)
    from playwright.sync_api import expect, sync_playwright

    from games.models import Game
    from tests.browser import NO_WORKER, PHONE, launch_chromium, panel_for

    user, cookie = member("push")
    game = Game.objects.start(
        group=user.memberships.first().group,
        kind="rummy13",
        players=["Ann", "Bob", "Cid", "Dee", "Eve"],
        rules={"decks": 2, "jokers": 2},
        user=user,
    )
    server, port = serve_quick_start(env) if args.quick_start else serve(env)
    base = f"http://127.0.0.1:{port}"
    delays = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            pages = []
            for _ in range(3):
                context = browser.new_context(viewport=PHONE, base_url=base, **NO_WORKER)
                context.add_cookies([{"name": "sessionid", "value": cookie, "url": base}])
                page = context.new_page()
                page.goto(f"/games/{game.pk}/rounds/1/")
                expect(page.locator("[data-live-url]")).to_have_attribute(
                    "data-live-state", "stream"
                )
                page.evaluate("window.notReloaded = true")
                pages.append(page)
            saver, others = pages[0], pages[1:]
            names = ["Bob", "Cid"]  # two decks: the same cards in two hands at most
            for number in range(args.saves):
                name = names[number % len(names)]
                panel = panel_for(saver, name)
                if panel.locator("details").get_attribute("open") is None:
                    panel.locator("summary").click()
                panel.get_by_label("Or type the cards").fill(HANDS[(number // len(names)) % 2])
                line = panel_for(saver, name).locator(".hand-line")
                before = line.inner_text()
                tapped = time.time() * 1000
                panel.get_by_role("button", name=f"Save {name}'s hand").click()
                expect(line).not_to_have_text(before)
                expect(line).to_contain_text("Saved by")
                shown = line.inner_text()
                for page in others:
                    # Checked each frame in the page, which notes the moment it sees the line.
                    page.wait_for_function(SHOWN, arg=[name, shown], polling="raf")
                    delays.append((page.evaluate("window.shownAt") - tapped) / 1000)
            reloaded = [p.evaluate("window.notReloaded") is not True for p in pages]
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    delays.sort()
    ms = [round(d * 1000) for d in delays]
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    database = "PostgreSQL" if args.postgres else "SQLite"
    how = (
        "manage.py serve, the README's first command: gunicorn, 2 workers, DEBUG on"
        if args.quick_start
        else "gunicorn, 2 workers as the README runs it"
    )
    print(f"{args.saves} saves on one phone, shown on 2 others ({database}, {how})")
    print(
        f"  from the tap on Save: p50 {statistics.median(ms):.0f} ms, p95 {p95} ms, max {ms[-1]} ms"
    )
    print(f"  phones reloaded: {sum(reloaded)}")


if __name__ == "__main__":
    main()
