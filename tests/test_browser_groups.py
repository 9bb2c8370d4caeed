"""Three phones at one table: the owner invites a friend by link, and a phone without an
account joins the game as a guest and saves a hand. Screenshots at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PHONE, screenshot

pytestmark = pytest.mark.browser
PASSWORD = "Shuffle-and-deal-9"


def new_phone(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, base_url=live_server.url
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


def fill_sign_up(page, username):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


def shared_link(page) -> str:
    """The link as the page offers it to copy or share, and as its QR code's title names it."""
    link = page.locator("[data-share-link]").input_value()
    assert link in page.locator("svg.qr title").text_content()
    return link


def test_owner_invites_a_friend_and_a_guest_phone_saves_a_hand(browser, live_server):
    owner_context, owner = new_phone(browser, live_server)
    friend_context, friend = new_phone(browser, live_server)
    guest_context, guest = new_phone(browser, live_server)
    try:
        owner.goto("/signup/")
        fill_sign_up(owner, "ann")
        owner.get_by_text("Three Thirteen", exact=True).click()
        owner.get_by_label("Players, starting with the first dealer and going left").fill(
            "Ann, Bob, Cid"
        )
        owner.get_by_role("button", name="Start the game").click()
        expect(owner.locator("h1")).to_contain_text("Round 1")
        game_url = owner.url.split("/rounds/")[0] + "/"

        # The owner makes an invitation on the group page.
        owner.goto("/group/members/")
        expect(owner.locator(".groupbar")).to_contain_text("ann's table")
        screenshot(owner, "group-members")
        owner.get_by_role("button", name="Make an invitation link").click()
        expect(owner.locator("svg.qr")).to_be_visible()
        screenshot(owner, "group-invitation")
        invite = shared_link(owner)
        assert re.search(r"/invite/[\w-]+/$", invite)

        # A friend opens it, signs up from there and joins.
        friend.goto(invite)
        expect(friend.get_by_role("heading", name="Join ann's table")).to_be_visible()
        screenshot(friend, "invitation-logged-out")
        friend.get_by_role("link", name="Sign up to join").click()
        fill_sign_up(friend, "bob")
        friend.get_by_role("button", name="Join ann's table").click()
        expect(friend.locator(".messages")).to_contain_text("Welcome to ann's table")
        expect(friend.locator("#current-group")).to_have_value(re.compile(r"\d+"))
        expect(friend.locator("#current-group option:checked")).to_have_text("ann's table")
        friend.goto(game_url)
        expect(friend.locator("h1")).to_have_text("Three Thirteen")
        screenshot(friend, "group-switcher")

        # The owner shows the game's guest QR code; a third phone joins with its link.
        owner.goto(game_url)
        owner.get_by_role("button", name=re.compile("Join this game")).click()
        guest_link = shared_link(owner)
        screenshot(owner, "game-guest-code")
        guest.goto(guest_link)
        expect(guest.get_by_role("heading", name="Join the game")).to_be_visible()
        screenshot(guest, "guest-join")
        guest.get_by_label("Name this phone").fill("Cid's phone")
        guest.get_by_role("button", name="Join as a guest").click()
        expect(guest.locator("h1")).to_contain_text("Round 1")
        guest.get_by_label("I'm entering for").select_option(label="Cid")
        panel = guest.locator("section.hand-panel").first
        expect(panel.locator("summary .who")).to_have_text("Cid")
        panel.get_by_role("textbox", name="Cards").fill("5H 9S KD")
        panel.get_by_role("button", name="Save Cid's hand").click()
        expect(guest.locator("body")).to_contain_text("Saved by guest on Cid's phone")
        screenshot(guest, "guest-round")

        # Everyone at the table sees who saved it; the guest sees nothing else.
        owner.goto(game_url.rstrip("/") + "/rounds/1/")
        expect(owner.locator("body")).to_contain_text("Saved by guest on Cid's phone")
        assert guest.goto(live_server.url + "/nights/").url.startswith(live_server.url + "/login/")
    finally:
        for context in (owner_context, friend_context, guest_context):
            context.close()
