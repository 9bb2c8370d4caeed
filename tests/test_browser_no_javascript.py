"""The forms post normally when JavaScript is off; htmx only makes them live."""

import pytest
from playwright.sync_api import expect

from games.engine import KINDS
from tests.browser import PHONE, screenshot, watch_policy

pytestmark = pytest.mark.browser


@pytest.fixture
def plain_phone(browser, live_server):
    context = watch_policy(
        browser.new_context(viewport=PHONE, java_script_enabled=False, base_url=live_server.url)
    )
    page = context.new_page()
    yield page
    context.close()


def test_a_game_is_started_and_a_hand_saved_without_javascript(plain_phone, member):
    from games.models import Game, Player
    from tests.factories import PASSWORD

    Player.objects.create(group=member.memberships.get().group, name="Ann")
    page = plain_phone
    page.goto("/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # Every game's options stay (no script shows the chosen one's), the first game chosen.
    page.goto("/games/new/")
    expect(page.locator(".options[data-game]:visible")).to_have_count(len(KINDS))
    expect(page.get_by_role("button", name="Ann", exact=True)).to_be_hidden()  # a chip needs it
    page.get_by_label("Players, starting with the first dealer and going left").fill("Ann, Bob")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_have_text("Round 1 of 11")
    game = Game.objects.get()
    ann = page.locator("section.hand-panel").first
    for name in ("5 of hearts", "6 of hearts", "7 of hearts"):
        ann.get_by_role("button", name=name, exact=True).click()
        ann = page.locator("section.hand-panel").first
    expect(ann.get_by_label("Or type the cards")).to_have_value("5H 6H 7H")
    expect(ann.locator(".points-line")).to_contain_text("0 points")
    # Enter in the field counts what is typed (the form's first button), never taps a card.
    ann.get_by_label("Or type the cards").fill("5H 6H 7H")
    ann.get_by_label("Or type the cards").press("Enter")
    ann = page.locator("section.hand-panel").first
    expect(ann.get_by_label("Or type the cards")).to_have_value("5H 6H 7H")
    screenshot(page, "no-javascript-round", audit=False)
    ann.get_by_text("Went out", exact=True).click()
    ann.get_by_role("button", name="Save Ann's hand").click()
    expect(page.locator(".message")).to_contain_text("Ann's hand saved.")
    assert game.rounds.get().hands.get().outcome == "went_out"
