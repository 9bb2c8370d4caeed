"""A save tapped while the database is out of reach: the panel says so and keeps the entry."""

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser import open_panel, panel_for, screenshot, sign_up, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_save_while_the_database_is_away_keeps_the_entry_and_says_why(phone, database_switch):
    page = phone
    sign_up(page)
    start_game(page, "Three Thirteen", "Ann, Bob, Cid")
    ann = open_panel(page, "Ann")
    cards = ann.get_by_label("Or type the cards")
    cards.fill("KS QD 2C")
    expect(ann.locator(".count")).to_have_text("3 of 3 cards")
    database_switch.cut()
    ann.get_by_role("button", name="Save Ann's hand").click()
    message = ann.get_by_role("alert")
    expect(message).to_contain_text("Can't reach the scores right now")
    expect(cards).to_have_value("KS QD 2C")
    screenshot(page, "save-while-database-away")
    database_switch.restore()
    ann.get_by_role("button", name="Save Ann's hand").click()
    expect(panel_for(page, "Ann").locator("summary")).to_contain_text("22")
    expect(panel_for(page, "Ann").get_by_text("Can't reach the scores")).to_have_count(0)
    assert Hand.objects.get().points == 22
