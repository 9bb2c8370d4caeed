"""What a phone says where the thumb is: a refused save seen at once from the pinned Save, a
hand that melds completely asked about before it is saved, taps that do what they say, and
every penalty with its reason; in the light and the dark theme, with no console error and no
policy violation."""

import re

import pytest
from playwright.sync_api import expect

from games.engine import WENT_OUT
from games.models import Entry, Hand
from tests.browser import (
    RECORD_VIOLATIONS,
    assert_accessible,
    both_themes,
    open_panel,
    panel_for,
    phone_context,
    saved_line,
    tap,
)
from tests.factories import PASSWORD

pytestmark = pytest.mark.browser

# What a browser's autofill leaves on the fields it touched: a style attribute, set through
# the CSSOM (which the policy allows), that a swap must not copy as an inline style.
AUTOFILLED = """() => {
  for (const field of document.querySelectorAll(".hand-form input")) {
    field.style.setProperty("--autofilled", "1");
  }
}"""
TWELVE = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def in_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844


@pytest.fixture
def maya_phone(browser, live_server, member, make_game):
    """A phone signed in as Ann's group, on deal 1 of a four-player 13-card Rummy game."""
    game = make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam", "Theo"))
    context = phone_context(browser, live_server)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    logged = []
    page.on("console", lambda message: message.type == "error" and logged.append(message.text))
    page.on("pageerror", lambda error: logged.append(str(error)))
    page.goto("/login/")
    page.get_by_label("Username").fill(member.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/games/{game.pk}/rounds/1/")
    yield game, page, logged
    context.close()


@pytest.mark.waits
def test_a_refused_save_is_read_at_once_from_the_pinned_bar_and_a_complete_hand_is_asked_about(
    maya_phone,
):
    game, page, logged = maya_phone
    panel = open_panel(page, "Maya")
    tap(page, "Maya", TWELVE)
    bar = panel.locator(".save-bar")
    expect(bar.locator(".bar-count")).to_have_text("12 of 13 cards")
    page.evaluate(AUTOFILLED)
    # The tray on screen, halfway down the phone, Save pinned under the top bar.
    panel.locator(".chosen").evaluate(
        "(tray) => window.scrollTo(0, tray.getBoundingClientRect().top + scrollY - 400)"
    )
    page.wait_for_function(
        "(bar) => Math.abs(bar.getBoundingClientRect().top - 52) < 1", arg=bar.element_handle()
    )
    assert panel.locator(".chosen").bounding_box()["y"] < 844, "the tray is on screen"
    scrolled = page.evaluate("scrollY")
    bar.get_by_role("button", name="Save Maya's hand").click()
    refusal = panel_for(page, "Maya").locator(".save-bar [role=alert]")
    expect(refusal).to_be_in_viewport(timeout=1000)
    expect(refusal).to_have_text("Not saved: 12 cards chosen; this hand holds 13")
    assert in_viewport(page, refusal)
    # The answer came where the thumb was: the page did not move (Save had the focus as the
    # panel was drawn again), the tray still on screen.
    assert page.evaluate("scrollY") == scrolled
    assert panel_for(page, "Maya").locator(".chosen").bounding_box()["y"] < 844
    summary = panel_for(page, "Maya").locator("summary")
    expect(summary).not_to_contain_text("Saved by")
    both_themes(page, "refusal-from-the-pinned-bar")
    assert_accessible(page, "refusal from the pinned bar")

    # A chosen card's button says a tap adds a second copy; a long press takes one out.
    panel = panel_for(page, "Maya")
    ace = panel.locator('button.pick[value="AH"]')
    ace.click()
    expect(ace).to_have_accessible_name("Add a second Ace of hearts")
    ace.click()
    expect(panel.locator(".count")).to_have_text("14 of 13 cards")
    expect(ace).to_have_accessible_name("Ace of hearts: all 2 chosen")
    # Fourteen cards refused: the page stays where it is for that too. (Saved once they are
    # counted: a save sent while they are cancels the count, which htmx logs as an error.)
    expect(panel.locator(".bar-points")).not_to_have_text("counting…")
    scrolled = page.evaluate("scrollY")
    panel.get_by_role("button", name="Save Maya's hand").click()
    expect(refusal).to_have_text("Not saved: 14 cards chosen; this hand holds 13")
    assert page.evaluate("scrollY") == scrolled
    ace.dispatch_event("pointerdown")
    expect(panel.locator(".count")).to_have_text("13 of 13 cards")  # held long enough
    ace.dispatch_event("pointerup")
    ace.dispatch_event("click")  # the end of the press adds nothing
    expect(panel.locator(".count")).to_have_text("13 of 13 cards")
    # The hand is fixed: the refusal, about the hand as it was, is gone from the pinned bar.
    expect(refusal).to_have_count(0)
    # A long press whose ending click lands on another card (taking a card out may move the
    # picker under the finger) adds nothing there, and the next tap on the card is a tap.
    king = panel.locator('button.pick[value="KS"]')
    ace.dispatch_event("pointerdown")
    expect(panel.locator(".count")).to_have_text("12 of 13 cards")
    ace.dispatch_event("pointerup")
    king.dispatch_event("click")
    expect(panel.locator(".count")).to_have_text("12 of 13 cards")
    expect(panel.locator('.chosen-card[value="KS"]')).to_have_count(0)
    for event in ("pointerdown", "pointerup", "click"):
        ace.dispatch_event(event)
    expect(panel.locator(".count")).to_have_text("13 of 13 cards")
    expect(ace).to_have_accessible_name("Add a second Ace of hearts")
    # Choosing an outcome moves nothing.
    where = "(picker) => picker.getBoundingClientRect().top + window.scrollY"
    picker = panel.locator(".picker").evaluate(where)
    panel.get_by_text("Declared and won", exact=True).click()
    assert panel.locator(".picker").evaluate(where) == picker
    panel.get_by_text("Cards left", exact=True).click()
    expect(panel.locator(".bar-points")).to_have_text("0 points")

    # Thirteen hearts, saved as cards left: the page asks first, where Save was tapped, and
    # does not move.
    scrolled = page.evaluate("scrollY")
    panel.get_by_role("button", name="Save Maya's hand").click()
    question = panel_for(page, "Maya").locator(".question")
    expect(question).to_contain_text("Did Maya declare?")
    assert in_viewport(page, question)
    assert page.evaluate("scrollY") == scrolled
    assert not Hand.objects.exists()
    both_themes(page, "declare-question")
    assert_accessible(page, "the declare question")
    question.get_by_role("button", name="Yes, Maya declared").click()
    # The save's answer, its line, is on the screen, with the next hand opened under it.
    expect(saved_line(page, "Maya")).to_have_text("Declared and won · 0 points")
    expect(saved_line(page, "Maya")).to_be_in_viewport(ratio=1)
    expect(panel_for(page, "Priya").locator("details")).to_have_attribute("open", "")
    expect(panel_for(page, "Priya").locator("summary .who")).to_be_in_viewport(ratio=1)
    both_themes(page, "saved-line-in-view")
    assert Hand.objects.get().outcome == WENT_OUT

    # Nothing logged, the refusals included (answered 200 to the page's script, their status in
    # X-Refused: a 4xx answer would be written into the console as an error); no policy met.
    assert logged == []
    assert page.evaluate("window.__violations") == []


def test_every_penalty_says_why_on_the_round_and_the_table_shows_it_all(maya_phone):
    game, page, logged = maya_phone
    maya, priya, sam, theo = game.seats.select_related("player")
    deal = game.rounds.get()
    deal.save_hand(priya, Entry("cards", "7C 7H 7S KC KD KS 2H 5D 9S 10C JD 4S 6H"))
    deal.save_hand(sam, Entry("cards", "2D 3D 4D 7C 7H 7D KC KD KH 5C 5H 5S 9D"))
    deal.save_hand(theo, Entry("cards", "5H 6H JK 8C 8D 8S AC 2C 9H 10H JH QS KS"))
    deal.save_hand(maya, Entry(WENT_OUT, "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"))
    page.reload()
    priya_panel = panel_for(page, "Priya")
    expect(priya_panel.locator(".shown-hand .reasons")).to_contain_text(
        "No pure sequence: every card counts"
    )
    expect(priya_panel.locator(".shown-hand .reasons")).to_contain_text(
        "Doubled: Maya's melds are all pure"
    )
    expect(panel_for(page, "Sam").locator(".shown-hand .reasons")).to_contain_text(
        "Only two sets come off"
    )
    expect(panel_for(page, "Theo").locator(".shown-hand .reasons")).to_contain_text(
        re.compile("stands for")
    )
    priya_panel.scroll_into_view_if_needed()
    both_themes(page, "penalty-with-its-reason")
    assert_accessible(page, "penalties with their reasons")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("table.scores")).to_be_visible()
    both_themes(page, "score-table", full_page=True)
    assert_accessible(page, "the score table")
    assert logged == [] and page.evaluate("window.__violations") == []
