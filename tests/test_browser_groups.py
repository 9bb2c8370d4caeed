"""Three phones at one table: the owner invites a friend by link, and a phone without an
account joins the game as a guest; all three enter their hands at once and every phone shows
the three hands live, with the engine's totals. Screenshots at 390x844."""

import re

import pytest
from playwright.sync_api import expect

from games import engine
from tests.browser import phone_context, screenshot

pytestmark = pytest.mark.browser
PASSWORD = "Shuffle-and-deal-9"


def new_phone(browser, live_server):
    context = phone_context(browser, live_server)
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


def test_three_phones_join_and_enter_their_hands_at_once(browser, live_server):
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
        screenshot(owner, "group-members", audit=False)
        owner.get_by_role("button", name="Make an invitation link").click()
        expect(owner.locator("svg.qr")).to_be_visible()
        screenshot(owner, "group-invitation", audit=False)
        invite = shared_link(owner)
        assert re.search(r"/invite/[\w-]+/$", invite)

        # A friend opens it, signs up from there and joins.
        friend.goto(invite)
        expect(friend.get_by_role("heading", name="Join ann's table")).to_be_visible()
        screenshot(friend, "invitation-logged-out", audit=False)
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
        screenshot(owner, "game-guest-code", audit=False)
        guest.goto(guest_link)
        expect(guest.get_by_role("heading", name="Join the game")).to_be_visible()
        screenshot(guest, "guest-join", audit=False)
        guest.get_by_label("Name this phone").fill("Cid's phone")
        guest.get_by_role("button", name="Join as a guest").click()
        expect(guest.locator("h1")).to_contain_text("Round 1")
        guest.wait_for_load_state()  # the page's scripts have started
        guest.get_by_label("I'm entering for").select_option(label="Cid")
        panel = guest.locator("section.hand-panel").first
        expect(panel.locator("summary .who")).to_have_text("Cid")

        # All three phones enter their own hand at the same time, without waiting.
        round_url = game_url.rstrip("/") + "/rounds/1/"
        owner.goto(round_url)
        friend.goto(round_url)
        hands = {
            "Ann": ("went_out", "5H 6H 7H"),
            "Bob": ("cards", "KS QD 2C"),
            "Cid": ("cards", "4C 9S KD"),
        }
        kind = engine.KINDS["three-thirteen"]
        rules = kind.default_rules(3)
        expected = {
            name: kind.score(outcome, cards, 1, rules).points
            for name, (outcome, cards) in hands.items()
        }
        phones = {"Ann": owner, "Bob": friend, "Cid": guest}
        for name, phone in phones.items():
            mine = phone.locator("section.hand-panel").filter(
                has=phone.locator("summary .who", has_text=re.compile(f"^{name}$"))
            )
            if mine.locator("details").get_attribute("open") is None:
                mine.locator("summary").click()
            outcome, cards = hands[name]
            if outcome == "went_out":
                mine.get_by_text("Went out", exact=True).click()
            mine.get_by_label("Or type the cards").fill(cards)
        for name, phone in phones.items():
            phone.get_by_role("button", name=f"Save {name}'s hand").click(no_wait_after=True)
        for phone in phones.values():
            for name, points in expected.items():
                line = phone.locator(".round-points li").filter(has_text=name)
                expect(line).to_contain_text(str(points), timeout=3_000 + 2_000)
        expect(guest.locator("body")).to_contain_text("Saved by guest on Cid's phone")
        screenshot(guest, "guest-round")
        # Each phone's score table has the three hands, and the totals are the engine's.
        for phone in (owner, friend):
            phone.goto(game_url)
            totals = phone.locator("table.scores tfoot td").all_inner_texts()
            assert [int(t) for t in totals] == [expected[n] for n in ("Ann", "Bob", "Cid")]
        guest.goto(game_url)
        expect(guest.locator("table.scores tfoot")).to_contain_text(str(expected["Bob"]))

        # Everyone at the table sees who saved it; the guest sees nothing else.
        owner.goto(round_url)
        expect(owner.locator("body")).to_contain_text("Saved by guest on Cid's phone")
        assert guest.goto(live_server.url + "/nights/").url.startswith(live_server.url + "/login/")
    finally:
        for context in (owner_context, friend_context, guest_context):
            context.close()
