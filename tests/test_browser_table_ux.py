"""At the table on a phone: undo the last save, finish only after asking, a rematch, the dark
theme that follows the phone, and times in the phone's own time zone."""

import re

import pytest
from playwright.sync_api import expect

from games.engine import CARDS, POINTS, WENT_OUT
from games.models import Entry, Hand, HandChange
from tests.browser import (
    PHONE,
    RECORD_VIOLATIONS,
    SAVE_SCREENSHOTS,
    panel_for,
    phone_context,
    saved_line,
    screenshot,
)
from tests.factories import PASSWORD

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 780}


def log_in(page, username="ann"):
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("link", name="New game")).to_be_visible()


def played_round(member, make_game, kind="three-thirteen"):
    game = make_game(member, kind=kind)
    ann, bob, cid = game.seats.all()
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H" if kind != "rummy13" else ""), member)
    first.save_hand(bob, Entry(POINTS, "", 12), member)
    return game, first, (ann, bob, cid)


def test_undo_answers_where_it_was_tapped_and_gives_the_hand_back_to_correct(
    browser, live_server, member, make_game
):
    game = make_game(member)
    ann, bob, cid = game.seats.all()
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H"), member)
    first.save_hand(bob, Entry(CARDS, "KS QD 2C"), member)
    context = phone_context(browser, live_server)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    logged = []
    page.on("console", lambda message: message.type == "error" and logged.append(message.text))
    page.clock.install()  # time flows; run_for brings the page's next live ask at once
    log_in(page)
    page.goto(f"/games/{game.pk}/rounds/1/")
    page.evaluate("window.__samePage = true")
    undo = page.get_by_role("button", name="Undo last save: Bob's hand")
    undo.scroll_into_view_if_needed()
    tapped = undo.bounding_box()["y"]
    screenshot(page, "undo-offered", audit=False)
    undo.click()
    # The answer is where the thumb was, on the same page (no reload to its top), and says it
    # was this phone; kept so once the page's next live answer (which alone counts the undo
    # among the round's changes) has drawn the round as every phone has it.
    note = page.locator("#undone-note")
    expect(note).to_contain_text("You undid the last save of Bob's hand: not entered now.")
    page.clock.run_for(2_000)  # the live server holds no stream: the page asks every 2 s
    expect(page.locator("#round-changes-count")).to_have_text("3")
    expect(note).to_contain_text("You undid the last save of Bob's hand: not entered now.")
    expect(note.get_by_role("link", name="Bob's panel")).to_be_visible()
    expect(note).to_be_in_viewport(ratio=1)
    assert abs(note.bounding_box()["y"] - tapped) < 80, (note.bounding_box(), tapped)
    assert page.evaluate("window.__samePage") is True
    # Bob's hand is open again with the cards that were undone, kept until saved.
    bob_panel = panel_for(page, "Bob")
    expect(bob_panel.locator("details")).to_have_attribute("open", "")
    expect(bob_panel.locator(".count")).to_have_text("3 of 3 cards")
    expect(bob_panel.locator("summary")).to_contain_text("not saved yet")
    expect(page.locator("#round-status .todo")).to_contain_text("Still to enter: Bob, Cid.")
    # The save before it is a second tap away, not where the thumb just was.
    expect(page.get_by_role("button", name="Undo last save: Ann's hand")).to_be_hidden()
    expect(page.get_by_text("Undo an earlier save too")).to_be_visible()
    screenshot(page, "undo-done")
    assert not Hand.objects.filter(seat=bob).exists()
    assert HandChange.objects.filter(undo=True).count() == 1
    # Corrected and saved again from the panel: no conflict with the undo.
    bob_panel.get_by_role("button", name="Remove 2 of clubs").click()
    bob_panel.locator('button.pick[value="3C"]').click()
    bob_panel.get_by_role("button", name="Save Bob's hand").click()
    expect(saved_line(page, "Bob")).to_contain_text("points")
    assert sorted(Hand.objects.get(seat=bob).cards.split()) == ["3C", "KS", "QD"]
    expect(page.locator("#undone-note")).to_have_count(0)
    assert logged == [] and page.evaluate("window.__violations") == []
    context.close()


def test_the_theme_follows_the_phones_setting(browser, live_server, member, make_game):
    game, first, _ = played_round(member, make_game)
    context = phone_context(browser, live_server)
    page = context.new_page()
    log_in(page)

    def lightness(rgb: str) -> float:
        red, green, blue = (int(n) for n in re.findall(r"\d+", rgb)[:3])
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255

    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for viewport in (PHONE, SMALL_PHONE):
            size = viewport["width"]
            page.set_viewport_size(viewport)
            page.goto(f"/games/{game.pk}/rounds/1/")
            if viewport == PHONE:
                screenshot(page, f"theme-{scheme}-{size}-round", audit=False)
            background = page.evaluate("getComputedStyle(document.body).backgroundColor")
            ink = page.evaluate("getComputedStyle(document.body).color")
            panel = page.evaluate(
                "getComputedStyle(document.querySelector('.hand-panel')).backgroundColor"
            )
            if scheme == "dark":
                assert lightness(background) < 0.15 and lightness(panel) < 0.2
                assert lightness(ink) > 0.8
            else:
                assert lightness(background) > 0.9 and lightness(panel) > 0.95
                assert lightness(ink) < 0.2
            if viewport == PHONE and SAVE_SCREENSHOTS:  # the other pages to look at, each theme
                for name, url in (("game", f"/games/{game.pk}/"), ("group", "/group/")):
                    page.goto(url)
                    screenshot(page, f"theme-{scheme}-{size}-{name}", audit=False)
    context.close()


def test_finish_asks_then_rematch_seats_the_next_dealer(browser, live_server, member, make_game):
    game, first, _ = played_round(member, make_game)
    context = phone_context(browser, live_server)
    page = context.new_page()
    log_in(page)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("link", name="Finish the game now…").click()
    expect(page.locator("main")).to_contain_text("Round 1 of 11 is not complete: 2 of 3 hands")
    screenshot(page, "finish-confirm-three-thirteen", audit=False)
    page.get_by_role("link", name="No, keep playing").click()
    game.refresh_from_db()
    assert game.finished_at is None
    page.get_by_role("link", name="Finish the game now…").click()
    page.get_by_role("button", name="Yes, finish the game").click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.locator("table.scores .leader")).to_have_count(0)
    screenshot(page, "finished-game", audit=False)
    page.goto(f"/games/{game.pk}/rounds/1/")
    expect(page.get_by_role("button", name=re.compile("^Save "))).to_have_count(0)
    page.goto(f"/games/{game.pk}/")
    page.get_by_role("link", name="Rematch").click()
    expect(
        page.get_by_label("Players, starting with the first dealer and going left")
    ).to_have_value("Bob, Cid, Ann")
    expect(page.get_by_label("Three Thirteen")).to_be_checked()
    screenshot(page, "rematch", audit=False)
    # The group's players, one tap each: shown as picked, taken out, put back at the end.
    players = page.get_by_label("Players, starting with the first dealer and going left")
    for name in ("Ann", "Bob", "Cid"):
        expect(page.get_by_role("button", name=name)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Bob").click()
    expect(players).to_have_value("Cid, Ann")
    expect(page.get_by_role("button", name="Bob")).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Bob").click()
    expect(players).to_have_value("Cid, Ann, Bob")
    players.fill("Bob, Cid, Ann")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".round-facts")).to_contain_text("Bob deals")
    context.close()


def test_times_are_in_the_phones_time_zone(browser, live_server, member, make_game):
    from datetime import UTC, datetime

    game, first, (ann, bob, cid) = played_round(member, make_game)
    HandChange.objects.update(changed_at=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    context = phone_context(browser, live_server, timezone_id="Asia/Tokyo")
    page = context.new_page()
    log_in(page)
    page.goto(f"/games/{game.pk}/rounds/1/")  # the browser's zone is now known to the server
    page.reload()
    expect(page.locator(".history .when").first).to_have_text("21:00")
    page.goto("/group/")
    expect(page.get_by_label("Show times in")).to_contain_text("this one: Asia/Tokyo")
    page.get_by_label("Show times in").select_option("America/Los_Angeles")
    page.get_by_role("button", name="Save the time zone").click()
    expect(page.locator(".messages")).to_contain_text("Times are now shown in America/Los Angeles.")
    screenshot(page, "group-time-zone", audit=False)
    page.goto(f"/games/{game.pk}/rounds/1/")
    expect(page.locator(".history .when").first).to_have_text("04:00")
    context.close()
