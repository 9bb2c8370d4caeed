"""The whole app under its strict Content-Security-Policy: a walk through every kind of page,
with cards tapped and a hand saved, meets no policy violation."""

import pytest
from playwright.sync_api import expect

from tests.browser import RECORD_VIOLATIONS, enter_hand, screenshot, sign_up, start_game

pytestmark = pytest.mark.browser


def test_a_walk_through_the_app_meets_no_policy_violation(phone):
    page = phone
    page.add_init_script(RECORD_VIOLATIONS)
    console = []
    page.on("console", lambda message: console.append(message.text))
    seen = []

    def check(name):
        response_policy = page.evaluate("window.__violations")
        seen.extend(f"{name}: {v}" for v in response_policy)

    sign_up(page)
    check("sign up")
    start_game(page, "Three Thirteen", "Ann, Bob, Cid")
    enter_hand(page, "Ann", "5H 6H 7H", "Went out")
    enter_hand(page, "Bob", "KS QD 2C")
    check("round page")
    game_url = page.url.split("/rounds/")[0] + "/"
    for url in (game_url, "/nights/", "/group/", "/players/", "/account/password/", "/games/new/"):
        page.goto(url)
        expect(page.locator("h1")).to_be_visible()
        check(url)
    page.goto("/nights/")
    page.locator("main a[href^='/nights/']").first.click()
    expect(page.locator("figure.chart svg").first).to_be_visible()
    screenshot(page, "csp-night-with-chart", audit=False)
    check("night")
    assert not seen, seen
    assert not [text for text in console if "Content Security Policy" in text], console
