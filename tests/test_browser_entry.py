"""Entry at a real table (Debian's Chromium, 390x844): a network that answers in 300 ms, taps
that do not wait for it, a connection that drops mid-hand, and two phones on one hand."""

import re
import time

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games.engine.cards import parse_hand
from games.models import Entry, HandChange
from tests.browser import (
    LATENCY,
    PHONE,
    SETTLED,
    open_panel,
    panel_for,
    screenshot,
    server_requests,
    signed_in_phone,
    slow_network,
)
from tests.browser import tap as tap_without_waiting

pytestmark = pytest.mark.browser

BETWEEN_TAPS = 0.15  # s: a normal pace


def tap_at_pace(page, name, cards: str):
    """Tap each card like a person: one every 150 ms, never waiting for the server."""
    panel = open_panel(page, name)
    for card in parse_hand(cards):
        started = time.monotonic()
        # Found by its value, not its name (which other tests check): looking a button up by
        # name among 53 costs more than the gap between taps on a loaded machine.
        panel.locator(f'button.pick[value="{card}"]').click(no_wait_after=True)
        time.sleep(max(0.0, BETWEEN_TAPS - (time.monotonic() - started)))


def engine_points(round_, cards: str, outcome="cards") -> int:
    scored = round_.score(Entry(outcome, cards))
    assert scored.error is None, scored.error
    return scored.points


@pytest.fixture
def ann(make_member):
    return make_member("ann")


@pytest.fixture
def ann_phone(browser, live_server, ann):
    context, page = signed_in_phone(browser, live_server, ann)
    yield page
    context.close()


RUMMY_HAND = "AH 2H 3H 7S 7S 8S JK 9D 9C KD QC 4D 10H"  # two decks: 7S twice


@pytest.mark.waits
def test_a_whole_rummy_hand_tapped_at_pace_over_a_slow_network(ann, ann_phone, make_game):
    game = make_game(ann, kind="rummy13", names=("Ann", "Bob", "Cid"))
    round_ = game.rounds.get(number=1)
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    slow_network(page)
    seat = game.seats.get(position=0)
    with server_requests() as reached:
        tap_at_pace(page, "Ann", RUMMY_HAND)
        last_tap = time.monotonic()
        panel = panel_for(page, "Ann")
        # Every tap counted at once, before any answer could have come back.
        expect(panel.locator(".count")).to_have_text("13 of 13 cards", timeout=200)
        expect(panel.locator(".chosen-card")).to_have_count(13)
        both = panel.get_by_role("button", name="7 of spades: all 2 chosen", exact=True)
        expect(both).to_be_disabled()
        expect(panel.locator(".pick.held", has_text="7").locator(".badge")).to_contain_text(["2"])
        points = engine_points(round_, RUMMY_HAND)
        expect(panel.locator(".points-line strong")).to_have_text(str(points), timeout=SETTLED)
        shown_after = time.monotonic() - last_tap
        scoring = reached.count("POST", f"/seats/{seat.pk}/")
    # One scoring request once the taps pause, not one a tap (an aborted one still costs the
    # server): at most two reach it. The points come within the wait for the pause (250 ms),
    # the network both ways and the server, with room for this loaded machine.
    assert scoring <= 2, scoring
    assert shown_after < (250 + 2 * LATENCY + 300) / 1000 + 0.5, shown_after
    # The typed field holds the same cards, so the form without JavaScript would send them.
    typed = panel.get_by_label("Or type the cards").input_value()
    assert sorted(typed.split()) == sorted(RUMMY_HAND.split())
    screenshot(page, "entry-rummy-slow-network")

    # Untap two cards (instant), and the points follow the new hand.
    panel.get_by_role("button", name="Remove King of diamonds").click(no_wait_after=True)
    panel.get_by_role("button", name="Remove Queen of clubs").click(no_wait_after=True)
    expect(panel.locator(".count")).to_have_text("11 of 13 cards", timeout=200)
    tap_at_pace(page, "Ann", "KD QC")
    expect(panel.locator(".count")).to_have_text("13 of 13 cards", timeout=200)
    expect(panel.locator(".points-line strong")).to_have_text(str(points), timeout=SETTLED)


def three_thirteen_at_round_eleven(ann, make_game):
    from games.engine import POINTS, WENT_OUT

    game = make_game(ann, names=("Ann", "Bob", "Cid"))
    for number in range(1, 11):
        round_ = game.rounds.get(number=number)
        for k, seat in enumerate(game.seats.order_by("position")):
            round_.save_hand(seat, Entry(WENT_OUT) if k == 0 else Entry(POINTS, "", 5))
    return game, game.rounds.get(number=11)


@pytest.mark.waits
def test_a_three_thirteen_round_eleven_hand_tapped_at_pace(ann, ann_phone, make_game):
    game, round_ = three_thirteen_at_round_eleven(ann, make_game)
    hand = "KH KS 5C 6C 7C 2D 9D 9H 10S JD QD 4S 3H"  # kings wild in round 11
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/11/")
    slow_network(page)
    tap_at_pace(page, "Bob", hand)
    panel = panel_for(page, "Bob")
    expect(panel.locator(".count")).to_have_text("13 of 13 cards", timeout=200)
    points = engine_points(round_, hand)
    expect(panel.locator(".points-line strong")).to_have_text(str(points), timeout=SETTLED)
    # The panel shows the melds the engine found for the last cards, not an older answer.
    expect(panel.locator(".preview .meld").first).to_be_visible()


@pytest.mark.waits
def test_save_tapped_while_the_count_is_on_its_way_waits_for_it_and_logs_nothing(
    ann, ann_phone, make_game
):
    game, round_ = three_thirteen_at_round_eleven(ann, make_game)
    hand = "KH KS 5C 6C 7C 2D 9D 9H 10S JD QD 4S 3H"
    page = ann_phone
    logged = []
    page.on("console", lambda message: message.type == "error" and logged.append(message.text))
    page.goto(f"/games/{game.pk}/rounds/11/")
    slow_network(page)
    tap_without_waiting(page, "Bob", hand)
    panel = panel_for(page, "Bob")
    form = panel.locator("form.hand-form")
    # The count is asked for once the taps pause, and is on its way (300 ms each way) when the
    # thumb reaches Save: it is not cut off, the save goes once it is answered.
    expect(form).to_have_class(re.compile(r"\bhtmx-request\b"))
    panel.get_by_role("button", name="Save Bob's hand").click(no_wait_after=True)
    points = engine_points(round_, hand)
    expect(panel.locator(".hand-line .saved")).to_contain_text(f"{points} points", timeout=SETTLED)
    # The count it waited for was of the cards as saved, but not drawn (the save's answer came
    # instead): the panel's breakdown is not left marked busy, and its bar says saved.
    expect(panel.locator(".preview")).not_to_have_attribute("aria-busy", "true")
    expect(panel.locator("[data-bar-points]")).to_have_text("saved")
    assert HandChange.objects.filter(round=round_, seat__player__name="Bob").count() == 1
    assert logged == []


def test_offline_mid_hand_the_draft_and_the_save_survive(ann, ann_phone, make_game):
    game = make_game(ann, kind="rummy13", names=("Ann", "Bob", "Cid"))
    round_ = game.rounds.get(number=1)
    page = ann_phone
    url = f"/games/{game.pk}/rounds/1/"
    page.goto(url)
    first, rest = " ".join(RUMMY_HAND.split()[:5]), " ".join(RUMMY_HAND.split()[5:])
    tap_without_waiting(page, "Ann", first)
    page.context.set_offline(True)
    tap_without_waiting(page, "Ann", rest)
    panel = panel_for(page, "Ann")
    expect(panel.locator(".count")).to_have_text("13 of 13 cards")
    # The breakdown shown is of the cards before: marked busy (and greyed) until counted.
    expect(panel.locator(".preview")).to_have_attribute("aria-busy", "true")
    expect(panel.locator("[data-bar-points]")).to_have_text("counted once online")
    panel.get_by_role("button", name="Save Ann's hand").click()
    expect(panel.locator("summary")).to_contain_text("waiting to send")
    expect(panel.locator("[data-send-state]")).to_contain_text("no connection")
    # Said where Save was tapped: in the pinned bar, on the screen.
    waiting = panel.locator(".save-bar [data-bar-waiting]")
    expect(waiting).to_have_text(
        re.compile("^Not sent yet: no connection. It is kept on this phone")
    )
    expect(waiting).to_be_in_viewport()
    expect(panel.get_by_role("button", name="Try again")).to_be_visible()
    screenshot(page, "entry-offline-waiting")
    assert not HandChange.objects.filter(round=round_).exists()

    # The phone is put away (the page closes) while still offline; the connection comes back
    # and the page is opened again: the draft is there and is sent, once.
    context = page.context
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.goto(url)
    panel = panel_for(page, "Ann")
    points = engine_points(round_, RUMMY_HAND)
    expect(panel.locator("summary")).to_contain_text(f"· {points}", timeout=SETTLED)
    expect(panel.locator("summary")).not_to_contain_text(re.compile("waiting|not saved"))
    expect(page.locator(".htmx-request")).to_have_count(0)
    assert HandChange.objects.filter(round=round_).count() == 1
    hand = round_.hands.get()
    assert sorted(hand.cards.split()) == sorted(RUMMY_HAND.split())
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('draft'))") == []
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("table.scores tfoot td").first).to_have_text(str(hand.points))

    # Offline again on the next hand, without pressing Save: back online, a reload shows the
    # kept draft as not saved yet, and Save sends it.
    page.clock.install()  # time flows; run_for brings the count's delay at once
    page.goto(url)
    page.context.set_offline(True)
    tap_without_waiting(page, "Bob", "5H 6H 7H")
    page.clock.run_for(1_000)  # the count comes due once the taps pause, and is held back
    bob = panel_for(page, "Bob")
    expect(bob.locator("[data-bar-points]")).to_have_text("counted once online")
    page.context.set_offline(False)
    # Counted once the connection is back, without a tap (3 of 13 cards: no points yet).
    expect(bob.locator("[data-bar-points]")).to_have_text("not counted yet")
    expect(bob.locator(".preview")).not_to_have_attribute("aria-busy", "true")
    page.reload()
    panel = panel_for(page, "Bob")
    expect(panel.locator("summary")).to_contain_text("not saved yet")
    expect(panel.locator(".count")).to_have_text("3 of 13 cards")
    expect(panel.locator("[data-send-state]")).to_contain_text("Not saved yet")
    # Counted once back (3 of 13 cards: no points yet): the breakdown, of these cards, is no
    # longer marked busy.
    expect(panel.locator("[data-bar-points]")).to_have_text("not counted yet")
    expect(panel.locator(".preview")).not_to_have_attribute("aria-busy", "true")
    screenshot(page, "entry-draft-after-reload")
    assert not round_.hands.filter(seat__player__name="Bob").exists()


def test_a_draft_is_not_shown_on_another_groups_page(
    ann, ann_phone, live_server, make_game, make_member
):
    game = make_game(ann, kind="rummy13")
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    tap_without_waiting(page, "Ann", "5H 6H")
    keys = page.evaluate("Object.keys(localStorage)")
    assert any(f"/games/{game.pk}/rounds/1/" in k for k in keys)
    # Another group's game with the same seat names, on the same phone after a new login.
    other = make_member("zed")
    theirs = make_game(other, kind="rummy13")
    page.context.clear_cookies()
    client = Client()
    client.force_login(other)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page.goto(f"/games/{theirs.pk}/rounds/1/")
    expect(panel_for(page, "Ann").locator(".count")).to_have_text("0 of 13 cards")
    expect(panel_for(page, "Ann").locator("summary")).not_to_contain_text("not saved yet")


def test_two_phones_one_hand_one_through_a_dropped_connection(
    ann, ann_phone, browser, live_server, make_game, django_user_model
):
    from games.models import Membership

    bob = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=bob, group=ann.memberships.first().group)
    game = make_game(ann)
    round_ = game.rounds.get(number=1)
    url = f"/games/{game.pk}/rounds/1/"
    bob_context, bob_phone = signed_in_phone(browser, live_server, bob)
    try:
        ann_phone.goto(url)
        bob_phone.goto(url)
        # Ann's phone loses the connection as she saves Cid's hand.
        tap_without_waiting(ann_phone, "Cid", "5H 6H 7H")
        ann_phone.context.set_offline(True)
        panel_for(ann_phone, "Cid").get_by_role("button", name="Save Cid's hand").click()
        expect(panel_for(ann_phone, "Cid").locator("summary")).to_contain_text("waiting to send")
        # Bob saves Cid's hand with other cards meanwhile.
        tap_without_waiting(bob_phone, "Cid", "KS QS JD")
        bob_panel = panel_for(bob_phone, "Cid")
        bob_panel.get_by_role("button", name="Save Cid's hand").click()
        expect(bob_panel.locator(".hand-line .saved")).to_be_visible()
        # Ann's connection comes back: her waiting save goes, and is refused as a conflict.
        ann_phone.context.set_offline(False)
        ann_panel = panel_for(ann_phone, "Cid")
        expect(ann_panel.locator(".conflict")).to_contain_text(
            "Saved from another phone", timeout=SETTLED
        )
        expect(ann_panel.locator(".count")).to_have_text("3 of 3 cards")
        screenshot(ann_phone, "entry-conflict-after-dropped-connection")
        assert HandChange.objects.filter(round=round_).count() == 1
        hand = round_.hands.get()
        assert sorted(hand.cards.split()) == ["JD", "KS", "QS"]
        assert hand.version == 1
    finally:
        bob_context.close()


def test_the_next_players_panel_opens_after_a_save(ann, ann_phone, make_game):
    game = make_game(ann, names=("Ann", "Bob", "Cid"))
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    # One hand at a time: Ann's is open, the others wait as one line each.
    expect(panel_for(page, "Ann").locator("details")).to_have_attribute("open", "")
    expect(panel_for(page, "Cid").locator("details")).not_to_have_attribute("open", "")
    expect(panel_for(page, "Bob").locator("details")).not_to_have_attribute("open", "")
    tap_without_waiting(page, "Ann", "5H 6H 9S")
    panel_for(page, "Ann").get_by_role("button", name="Save Ann's hand").click()
    expect(panel_for(page, "Ann").locator(".hand-line .saved")).to_be_visible()
    expect(panel_for(page, "Bob").locator("details")).to_have_attribute("open", "")
    box = panel_for(page, "Bob").bounding_box()
    assert -1 <= box["y"] < PHONE["height"], box


def test_the_picker_does_not_move_while_a_hand_is_tapped(ann, ann_phone, make_game):
    game = make_game(ann, kind="rummy13")
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    panel = panel_for(page, "Ann")
    picker = panel.locator(".picker")

    def top():  # on the page, whatever the scrolling
        return picker.evaluate("e => e.getBoundingClientRect().top + window.scrollY")

    before = top()
    for card in parse_hand(RUMMY_HAND):
        # A second copy's button says so: "Add a second 7 of spades".
        name = re.compile(rf"^(Add an? \w+ )?{card.name}$")
        panel.get_by_role("button", name=name).click(no_wait_after=True)
        assert top() == pytest.approx(before, abs=1), card
    expect(panel.locator(".points-line")).to_be_visible()
    assert top() == pytest.approx(before, abs=1)
    # The chosen faces are large enough to read at arm's length.
    face = panel.locator(".chosen-card .face").first.bounding_box()
    assert face["height"] >= 44 and face["width"] >= 40, face


def test_a_refusal_keeps_the_draft_and_says_why(ann, ann_phone, make_game):
    game = make_game(ann)
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    tap_without_waiting(page, "Ann", "5H 6H")
    panel = panel_for(page, "Ann")
    panel.get_by_role("button", name="Save Ann's hand").click()
    expect(panel.locator(".field-error")).to_contain_text(re.compile("3 cards|2 of 3|cards"))
    expect(panel.locator(".count")).to_have_text("2 of 3 cards")
    expect(panel.locator("summary")).to_contain_text("not saved yet")
    assert not HandChange.objects.exists()


def test_an_answer_lost_on_the_way_back_is_no_conflict_with_the_phone_itself(
    ann, ann_phone, make_game
):
    """The save reaches the server and is stored, but its answer never comes back; the player
    changes a card while the page says "waiting to send"; the resend, from the version the page
    started from, is the hand's next change, not "saved on another phone"."""
    game = make_game(ann)
    round_ = game.rounds.get(number=1)
    page = ann_phone
    page.goto(f"/games/{game.pk}/rounds/1/")
    lost = []

    def lose_the_first_answer(route):
        if "save=1" in (route.request.post_data or "") and not lost:
            lost.append(route.fetch().status)  # served by the server...
            route.abort("connectionreset")  # ...and the answer lost on the way back
        else:
            route.continue_()

    page.route("**/seats/**", lose_the_first_answer)
    tap_without_waiting(page, "Ann", "5H 6H 9C")
    panel = panel_for(page, "Ann")
    panel.get_by_role("button", name="Save Ann's hand").click()
    expect(panel.locator("summary")).to_contain_text("waiting to send")
    assert lost == [200] and HandChange.objects.filter(round=round_).count() == 1
    # One card changed while the save waits (the page keeps it as not saved yet), then saved.
    panel.get_by_role("button", name="Remove 9 of clubs").click()
    tap_without_waiting(page, "Ann", "8H")
    expect(panel.locator("summary")).to_contain_text("not saved yet")
    panel.get_by_role("button", name="Save Ann's hand").click()
    expect(panel.locator("summary")).to_contain_text("Saved by", timeout=SETTLED)
    expect(panel.locator(".conflict")).to_have_count(0)
    hand = round_.hands.get()
    assert sorted(hand.cards.split()) == ["5H", "6H", "8H"] and hand.version == 2
    keys = set(HandChange.objects.filter(round=round_).values_list("save_key", flat=True))
    assert len(keys) == 1 and keys != {""}
