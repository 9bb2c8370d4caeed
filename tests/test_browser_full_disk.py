"""A save tapped while the server's disk is full (SQLite on a filled tmpfs): the panel shows
the server's words, keeps the entry waiting, and sends it once there is room."""

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser import open_panel, panel_for, screenshot, sign_up, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_save_on_a_full_disk_keeps_the_entry_says_why_and_goes_once_there_is_room(
    phone, small_disk
):
    page = phone
    sign_up(page)
    start_game(page, "Three Thirteen", "Ann, Bob, Cid")
    small_disk.hold_database()
    page.reload()
    ann = open_panel(page, "Ann")
    cards = ann.get_by_label("Or type the cards")
    cards.fill("KS QD 2C")
    expect(ann.locator(".count")).to_have_text("3 of 3 cards")
    small_disk.fill()
    assert small_disk.free() == 0
    ann.get_by_role("button", name="Save Ann's hand").click()
    expect(ann.get_by_role("alert")).to_contain_text(
        "The server's disk is full; your hand is kept on this phone"
    )
    expect(ann.locator("summary")).to_contain_text("waiting to send")
    expect(ann.locator("[data-send-state]")).to_contain_text("the server could not take it")
    expect(ann.locator("[data-send-state]")).not_to_contain_text("no connection")
    expect(cards).to_have_value("KS QD 2C")
    screenshot(page, "save-on-a-full-disk")
    assert not Hand.objects.exists()

    small_disk.make_room()
    ann.get_by_role("button", name="Try again").click()
    expect(panel_for(page, "Ann").locator("summary")).to_contain_text("22")
    expect(panel_for(page, "Ann").get_by_text("disk is full")).to_have_count(0)
    assert Hand.objects.get().points == 22
