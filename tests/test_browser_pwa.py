"""The app in the phone's browser: the service worker registers and serves the offline page
when the network is gone, and the round page keeps the screen awake where it can."""

import pytest
from playwright.sync_api import expect

from games.engine import POINTS
from games.models import Entry
from tests.browser import phone_context, screenshot
from tests.factories import PASSWORD

pytestmark = pytest.mark.browser

# A stand-in for the Screen Wake Lock API, installed before any script of the page runs: it
# records each request and lets the test release the lock as the browser would.
WAKE_LOCK_STUB = """
window.wakeLockRequests = [];
window.wakeLockReleases = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request(type) {
    window.wakeLockRequests.push(type);
    const listeners = [];
    const sentinel = { type, released: false,
      addEventListener(name, listener) { if (name === "release") listeners.push(listener); },
      release() {
        sentinel.released = true;
        listeners.forEach((listener) => listener());
        return Promise.resolve();
      },
    };
    window.wakeLockReleases.push(() => sentinel.release());
    return Promise.resolve(sentinel);
  },
}});
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock; delete navigator.wakeLock;"


def signed_in_page(browser, live_server, member, script=None, worker=False):
    context = phone_context(
        browser, live_server, **({"service_workers": "allow"} if worker else {})
    )
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.goto("/login/")
    page.get_by_label("Username").fill(member.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="New game")).to_be_visible()
    return context, page


def test_the_service_worker_registers_and_shows_the_offline_page(browser, live_server, member):
    context, page = signed_in_page(browser, live_server, member, worker=True)
    manifest = page.request.get(page.locator("link[rel=manifest]").get_attribute("href"))
    assert manifest.ok and manifest.headers["content-type"] == "application/manifest+json"
    script = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert script == f"{live_server.url}/sw.js"
    page.reload()  # now the worker controls the page
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    context.set_offline(True)
    page.goto("/nights/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("not connected to the internet")
    # The page is styled: the app's CSS came from the worker's cache, not the network.
    felt = page.evaluate("getComputedStyle(document.querySelector('.topbar')).backgroundColor")
    assert felt == "rgb(15, 81, 50)"
    screenshot(page, "offline", audit=False)
    context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.get_by_role("heading", name="Game nights")).to_be_visible()
    context.close()


def test_the_round_page_keeps_the_screen_awake(browser, live_server, member, make_game):
    game = make_game(member)
    context, page = signed_in_page(browser, live_server, member, WAKE_LOCK_STUB)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.wakeLockRequests") == []  # only while entering a round
    page.goto(f"/games/{game.pk}/rounds/1/")
    page.wait_for_function("window.wakeLockRequests.length === 1")
    assert page.evaluate("window.wakeLockRequests") == ["screen"]
    # The phone hides the page (the lock is released), then shows it again: asked again.
    page.evaluate("window.wakeLockReleases[0]()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("window.wakeLockRequests.length === 2")
    # Shown again while the lock is held: not asked twice.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(200)
    assert page.evaluate("window.wakeLockRequests.length") == 2
    context.close()


def test_a_finished_game_does_not_keep_the_screen_awake(browser, live_server, member, make_game):
    game = make_game(member)
    game.rounds.get().save_hand(game.seats.first(), Entry(POINTS, "", 3), member)
    game.finish()
    context, page = signed_in_page(browser, live_server, member, WAKE_LOCK_STUB)
    page.goto(f"/games/{game.pk}/rounds/1/")
    page.wait_for_load_state("load")
    assert page.evaluate("window.wakeLockRequests") == []
    context.close()


def test_without_the_wake_lock_api_the_round_page_works_silently(
    browser, live_server, member, make_game
):
    game = make_game(member)
    context, page = signed_in_page(browser, live_server, member, NO_WAKE_LOCK)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/games/{game.pk}/rounds/1/")
    page.wait_for_load_state("load")
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.get_by_role("heading", name="Round 1 of 11")).to_be_visible()
    assert errors == []
    context.close()
