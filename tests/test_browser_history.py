"""The history pages on a phone, with the demo data a newcomer would see."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser import SAVE_SCREENSHOTS, screenshot

pytestmark = pytest.mark.browser


def test_history_pages_on_a_phone(phone, live_server):
    from games.management.commands.seed_demo import PASSWORD, USERNAME
    from games.models import Game

    call_command("seed_demo", nights=4, stdout=open("/dev/null", "w"))  # noqa: SIM115
    page = phone
    page.goto("/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Game nights")).to_be_visible()
    screenshot(page, "history-home", audit=False)

    page.get_by_role("link", name="History").click()
    expect(page.locator(".night").first).to_be_visible()
    screenshot(page, "history-nights", audit=False)
    played = Game.objects.values_list("kind", flat=True).first()  # one the demo holds
    page.get_by_label("Game", exact=True).select_option(played)
    page.get_by_role("button", name="Search").click()
    # The search is a page of its own: its address holds the game asked for once it has come
    # (read before, the old page may be going away under the read, on a busy machine).
    expect(page).to_have_url(re.compile(rf"[?&]kind={played}(&|$)"))
    expect(page.get_by_label("Game", exact=True)).to_have_value(played)
    screenshot(page, "history-nights-rummy", audit=False)

    page.locator(".night h2 a").first.click()
    expect(page.locator("figure.chart svg").first).to_be_visible()
    screenshot(page, "history-night")

    page.get_by_role("link", name="Group").click()
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    screenshot(page, "history-leaderboard", audit=False)

    page.locator("table.data a").first.click()
    expect(page.get_by_text("games played").first).to_be_visible()
    screenshot(page, "history-player")

    if SAVE_SCREENSHOTS:  # to look at (its targets and overflow: the every-page check)
        page.goto("/group/import/")
        screenshot(page, "history-import", audit=False)
