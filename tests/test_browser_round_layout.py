"""The round page on a 390x844 phone: the hand being entered starts on the first screen (whose
hand, how it ended, the first row of cards), Save is in reach while cards are tapped, and a hand
opened after a save is never under the sticky top bar."""

import pytest
from playwright.sync_api import expect

from games.engine import POINTS, WENT_OUT
from games.models import Entry
from tests.browser import PHONE, enter_hand, panel_for, save_round, screenshot, signed_in_phone

pytestmark = pytest.mark.browser


@pytest.fixture
def ann_phone(browser, live_server, member):
    context, page = signed_in_phone(browser, live_server, member)
    yield page
    context.close()


def box(locator):
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def test_a_new_deal_starts_on_the_first_screen_with_save_in_reach(ann_phone, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob", "Cid", "Dee"))
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    panel = panel_for(page, "Ann")
    first_row = panel.locator(".suit-row").first
    for part in (panel.locator("summary .who"), panel.locator(".outcome"), first_row):
        found = box(part)
        assert found["y"] >= 0 and found["y"] + found["height"] <= PHONE["height"], found
    save = panel.get_by_role("button", name="Save Ann's hand")
    assert box(save)["y"] + box(save)["height"] <= PHONE["height"]
    # The chosen cards are a tray of their own, well apart from the picker.
    picker, chosen = box(panel.locator(".picker")), box(panel.locator(".chosen"))
    assert chosen["y"] - (picker["y"] + picker["height"]) >= 12
    screenshot(page, "round-first-screen", audit=False)
    # Scrolled to the picker's last row, Save is still on the screen, below the top bar.
    panel.locator(".suit-row").last.scroll_into_view_if_needed()
    save_box, bar = box(save), box(page.locator(".topbar"))
    assert bar["y"] + bar["height"] <= save_box["y"]
    assert save_box["y"] + save_box["height"] <= PHONE["height"]


def test_the_next_hand_opens_below_the_top_bar(ann_phone, member, make_game):
    game = make_game(member, names=("Ann", "Bob", "Cid"))
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    enter_hand(page, "Ann", "5H 6H 9S")
    bob = panel_for(page, "Bob")
    expect(bob.locator("details")).to_have_attribute("open", "")
    bar = box(page.locator(".topbar"))
    name = box(bob.locator("summary .who"))
    assert name["y"] >= bar["y"] + bar["height"], (name, bar)
    assert name["y"] + name["height"] <= PHONE["height"]


def test_a_finished_games_hands_are_shown_not_offered_nor_its_dropped_round(
    ann_phone, member, make_game
):
    game = make_game(member)
    entries = {"Ann": Entry(WENT_OUT, "5H 6H 7H"), "Bob": Entry(POINTS, "", 9)}
    save_round(game, 1, entries | {"Cid": Entry(POINTS, "", 4)})
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/2/")
    panel_for(page, "Ann").get_by_role("button", name="5 of hearts", exact=True).click()
    game.finish()  # round 2 has no hand entered: the finish leaves it out
    page.reload()
    expect(page.locator(".picker")).to_have_count(0)
    expect(page.get_by_role("button", name="Save Ann's hand")).to_have_count(0)
    expect(panel_for(page, "Ann").locator("[data-entry-state]")).to_be_hidden()
    # The dropped round says what the finish said of it, never what is still to enter.
    expect(page.locator("#round-status")).to_contain_text(
        "The game was finished before this round was played: it is left out of the game."
    )
    expect(page.locator("#round-status .todo")).to_have_count(0)
    screenshot(page, "round-finished-game")
    # The last round played leads nowhere further.
    page.goto(f"/games/{game.pk}/rounds/1/")
    expect(page.get_by_role("link", name="← Score table")).to_be_visible()
    expect(page.get_by_role("link", name="Next ›")).to_have_count(0)
