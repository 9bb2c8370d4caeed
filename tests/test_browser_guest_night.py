"""A guest's phone stays for the evening: once its game is finished it shows the final scores
(never a login form), and it opens the next game of the same night with no new link."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Entry, Game, GuestPass
from tests.browser import (
    RECORD_VIOLATIONS,
    assert_accessible,
    both_themes,
    enter_hand,
    panel_for,
    phone_context,
    screenshot,
)

pytestmark = pytest.mark.browser


def test_a_guest_finishes_a_game_and_opens_the_next_of_the_night_without_a_new_link(
    browser, live_server, member, make_game
):
    game = make_game(member)
    ann, bob, cid = game.seats.order_by("position")
    link = GuestPass.objects.create(game=game, created_by=member).get_absolute_url()
    context = phone_context(browser, live_server)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    logged = []
    page.on("console", lambda message: message.type == "error" and logged.append(message.text))
    try:
        page.clock.install()  # time flows; run_for brings the page's next live ask at once
        page.goto(link)
        page.get_by_label("Name this phone").fill("Bob's phone")
        page.get_by_role("button", name="Join as a guest").click()
        expect(page.locator("h1")).to_have_text("Round 1 of 11")
        # "Pick whose hand you enter" points at the first screen: whose hand is chosen there,
        # the phone named for Bob starting on Bob's hand, open, the others closed.
        expect(page.locator(".messages")).to_contain_text("pick whose hand you enter")
        chooser = page.get_by_label("I'm entering for")
        expect(chooser).to_be_in_viewport(ratio=1)
        expect(chooser.locator("option:checked")).to_have_text("Bob")
        expect(panel_for(page, "Bob").locator("summary .who")).to_be_in_viewport(ratio=1)
        expect(panel_for(page, "Bob").locator("details")).to_have_attribute("open", "")
        expect(panel_for(page, "Ann").locator("details")).not_to_have_attribute("open", "")
        screenshot(page, "guest-first-screen")
        enter_hand(page, "Bob", "KS QD 2C")

        # The table finishes the game: the guest sees that it is over, with the final scores.
        first = game.rounds.get(number=1)
        first.save_hand(ann, Entry("went_out", "5H 6H 7H"), member)
        first.save_hand(cid, Entry("points", "", 7), member)
        game.finish()
        # The round page hears of it and is drawn again as finished (its live answer reloads
        # it): only then is the score table opened, or the reload would take the click's place.
        page.clock.run_for(2_000)  # the live server holds no stream: the page asks every 2 s
        expect(page.locator("main")).to_contain_text("This game is finished", timeout=12_000)
        page.get_by_role("link", name="Score table").first.click()
        expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
        expect(page.locator("main")).to_contain_text("This game is finished")
        expect(page.locator(".standings")).to_contain_text("Final standings")
        expect(page.get_by_label("Password")).to_have_count(0)
        both_themes(page, "guest-ended-game")

        # The rematch starts on a member's phone: the guest opens it from the same page.
        rematch = Game.objects.start(
            group=game.group,
            kind=game.kind,
            players=[cid.player, ann.player, bob.player],
            rules=game.rules,
            user=member,
        )
        assert rematch.night_id == game.night_id
        # The finished game's page says so without a reload, at the top, and leads there.
        going_on = page.locator(".next-game")
        # The live server holds no streams: the page hears of it on its next ask, every 2 s
        # (brought at once here), later where answers come slowly (live.js backs off): more
        # than expect's 5 s on a machine busy with the rest of the suite.
        page.clock.run_for(2_000)
        expect(going_on).to_contain_text("Three Thirteen has started", timeout=12_000)
        expect(going_on).to_be_in_viewport()
        both_themes(page, "guest-next-game")
        assert_accessible(page, "a guest's finished game, the next one started")
        going_on.get_by_role("link", name="Go to Three Thirteen, round 1").click()
        expect(page.locator("h1")).to_have_text("Round 1 of 11")
        assert page.url.endswith(f"/games/{rematch.pk}/rounds/1/")
        # The top bar's score table is this game's; the site's home is the night's game.
        score_table = page.locator(".topbar").get_by_role("link", name="Score table")
        expect(score_table).to_have_attribute("href", f"/games/{rematch.pk}/")
        enter_hand(page, "Bob", "KC QH 2D")
        expect(page.locator(".hand-line .saved-by").first).to_have_text(
            "Saved by guest on Bob's phone"
        )
        assert rematch.rounds.get().hands.get().updated_by_name == "guest on Bob's phone"
        page.goto("/")
        expect(page.locator("h1")).to_have_text("Round 1 of 11")
        assert page.url.endswith(f"/games/{rematch.pk}/rounds/1/")
        assert logged == [] and page.evaluate("window.__violations") == []
    finally:
        context.close()
