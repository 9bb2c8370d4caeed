"""Three phones at one table, served as production serves the site (the ASGI application, its
streams held open): a save on one shows on the other two from their streams, without a reload
and without polling; a phone whose network goes off and on again shows what it missed; a phone
with no EventSource falls back to asking every 2 seconds by itself."""

import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import CARDS, WENT_OUT
from games.models import Entry, Game, GuestPass, Membership
from tests.browser import (
    enter_hand,
    panel_for,
    phone_context,
    save_round,
    server_requests,
    signed_in_phone,
    tap,
)

pytestmark = pytest.mark.browser

WITHIN = 3_000  # ms: a phone back online shows what it missed


@pytest.fixture
def table(browser, push_server, make_member, make_game, django_user_model):
    """Ann's, Bob's and Cid's phones, all members of Ann's group, and a game of the three."""
    ann = make_member("ann")
    group = ann.memberships.first().group
    users = [ann]
    for name in ("bob", "cid"):
        user = django_user_model.objects.create_user(username=name, password="x")
        Membership.objects.create(user=user, group=group)
        users.append(user)
    game = make_game(ann, names=("Ann", "Bob", "Cid"))
    phones = [signed_in_phone(browser, push_server, user) for user in users]
    yield game, [page for _, page in phones]
    for context, _ in phones:
        context.close()


def save_from_another_phone(game, name, entry):
    round_ = game.rounds.get(number=1)
    round_.save_hand(game.seats.get(player__name=name), entry)


def wait_until(condition, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def session_of(page) -> str:
    (cookie,) = [c for c in page.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME]
    return f"{cookie['name']}={cookie['value']}"


def following_by_stream(page):
    expect(page.locator("[data-live-url]")).to_have_attribute("data-live-state", "stream")


def test_a_save_shows_on_the_other_two_phones_from_their_streams_without_polling(
    table, push_server
):
    game, (ann, bob, cid) = table
    phones = {"Ann": ann, "Bob": bob, "Cid": cid}.items()  # which phone asked, should one
    round_url = f"/games/{game.pk}/rounds/1/"
    with server_requests() as first_asks:
        for page in (ann, bob, cid):
            page.clock.install()  # the page's own timers (a fallback poll) move only when told
            page.goto(round_url)
            page.evaluate("window.notReloaded = true")
            following_by_stream(page)
        assert push_server.holding(3)
        # Each phone asks once on its stream's first word (the state it catches up from).
        assert wait_until(lambda: first_asks.count("GET", "/live/") == 3)

    with server_requests() as requests:
        for page in (bob, cid):
            page.clock.run_for(20_000)  # ten polling intervals: a polling page would ask ten times
        assert requests.count("GET", "/live/") == 0

        enter_hand(ann, "Cid", "KS QD 2C")  # 22 points, no meld
        # The saving phone's summary comes with its own stream, not asked a second time.
        expect(ann.locator("#round-status")).to_contain_text("Still to enter: Ann, Bob.")
        for page in (bob, cid):
            line = panel_for(page, "Cid").locator("summary")
            expect(line).to_contain_text("Cards left · 22")
            expect(page.locator("#round-status")).to_contain_text("Still to enter: Ann, Bob.")
            assert page.evaluate("window.notReloaded") is True
        # The save's change came drawn in each phone's stream: no phone asked its live URL.
        asked = {name: requests.count("GET", "/live/", session_of(page)) for name, page in phones}
        assert asked == {"Ann": 0, "Bob": 0, "Cid": 0}

    # The score table and the night page follow their streams too.
    bob.goto(f"/games/{game.pk}/")
    cid.goto(f"/nights/{game.night_id}/")
    following_by_stream(bob)
    following_by_stream(cid)
    save_round(game, 1, {"Ann": Entry(WENT_OUT, "5H 6H 7H"), "Bob": Entry(CARDS, "9S 9D 8C")})
    expect(bob.get_by_role("table").first).to_contain_text("26")
    expect(cid.get_by_role("table").first).to_contain_text("26")


def test_a_save_heard_on_the_phones_own_stream_before_its_answer_is_not_asked_about(
    table, push_server
):
    """The stream tells of a save at its commit, often before the saving phone has the answer
    (PostgreSQL's notice is that quick; here the answer is held back until the word is in).
    The change is held while the save is under way and swapped in after: no ask."""
    game, (ann, bob, _) = table
    round_url = f"/games/{game.pk}/rounds/1/"
    ann.clock.install()  # the page's timers move on when told (the summary's fallback below)
    for page in (ann, bob):
        page.goto(round_url)
        following_by_stream(page)
    ann.evaluate(
        """() => document.querySelector("[data-live-url]").addEventListener(
          "htmx:sseMessage", (event) => (window.heard ??= []).push(event.detail.type))"""
    )
    answers = []  # the save's answer, fetched from the server and held here

    def hold_the_save(route):
        if "save=" not in (route.request.post_data or ""):
            route.continue_()
            return
        answers.append((route, route.fetch()))

    ann.route("**/seats/**", hold_the_save)
    with server_requests() as requests:
        panel = panel_for(ann, "Cid")
        tap(ann, "Cid", "KS QD 2C")  # 22 points, no meld
        panel.get_by_role("button", name="Save Cid's hand").click()
        # Saved on the server: the word of it is on both streams, the answer still held back.
        expect(panel_for(bob, "Cid").locator("summary")).to_contain_text("Cards left · 22")
        ann.wait_for_function("() => (window.heard ?? []).includes('change')")
        assert len(answers) == 1
        route, answer = answers[0]
        route.fulfill(response=answer)
        expect(ann.locator("#save-said")).to_contain_text("Cid's hand saved")
        expect(panel_for(ann, "Cid").locator("summary")).to_contain_text("Cards left · 22")
        expect(ann.locator("#round-status")).to_contain_text("Still to enter: Ann, Bob.")
        # Past the 2 s in which the page would ask for a summary whose word never came.
        ann.clock.run_for(3_000)
        assert requests.count("GET", "/live/", session_of(ann)) == 0
        # The held change was taken up: the page shows the save's version, so the next save's
        # change (Bob's, from his phone) is carried by the stream too, still without an ask.
        ann.unroute("**/seats/**")
        enter_hand(bob, "Bob", "9S 9D 8C")
        expect(panel_for(ann, "Bob").locator("summary")).to_contain_text("· 26")
        assert requests.count("GET", "/live/", session_of(ann)) == 0


def test_a_phone_back_online_shows_every_save_it_missed(table, push_server):
    game, (ann, bob, _) = table
    round_url = f"/games/{game.pk}/rounds/1/"
    ann.goto(round_url)
    bob.goto(round_url)
    following_by_stream(bob)

    bob.context.set_offline(True)
    enter_hand(ann, "Cid", "KS QD 2C")
    enter_hand(ann, "Ann", "5H 6H 7H")
    bob.context.set_offline(False)
    expect(panel_for(bob, "Cid").locator("summary")).to_contain_text(
        "Cards left · 22", timeout=WITHIN
    )
    expect(panel_for(bob, "Ann").locator("summary")).to_contain_text("· 0", timeout=WITHIN)
    following_by_stream(bob)  # its stream is open again
    save_from_another_phone(game, "Bob", Entry(CARDS, "9S 9D 8C"))
    expect(panel_for(bob, "Bob").locator("summary")).to_contain_text("· 26", timeout=WITHIN)


def test_a_phone_without_eventsource_asks_every_two_seconds_instead(table, push_server):
    game, (ann, _, cid) = table
    cid.add_init_script("delete window.EventSource")
    round_url = f"/games/{game.pk}/rounds/1/"
    ann.goto(round_url)
    cid.clock.install()
    cid.goto(round_url)
    expect(cid.locator("[data-live-url]")).to_have_attribute("data-live-state", "polling")
    enter_hand(ann, "Cid", "KS QD 2C")
    cid.clock.run_for(2_000)
    expect(panel_for(cid, "Cid").locator("summary")).to_contain_text("Cards left · 22")
    assert push_server.holding(1)  # Ann's phone's, not Cid's


def test_changes_of_a_three_thirteen_round_are_counted_on_both_phones(table, push_server):
    game, (ann, bob, _) = table
    assert game.kind == "three-thirteen"
    round_url = f"/games/{game.pk}/rounds/1/"
    ann.goto(round_url)
    bob.goto(round_url)
    following_by_stream(bob)
    for page in (ann, bob):
        expect(page.locator("#round-history")).to_be_hidden()  # nothing saved yet

    enter_hand(ann, "Cid", "KS QD 2C")
    for page in (ann, bob):
        expect(page.get_by_text("Changes (1)")).to_be_visible()
    bob.locator("#round-changes summary").click()  # Bob reads the changes as they come
    expect(bob.locator("#round-changes-list li")).to_have_count(1)

    enter_hand(ann, "Ann", "5H 6H 7H")
    save_from_another_phone(game, "Bob", Entry(CARDS, "9S 9D 8C"))
    for page in (ann, bob):
        expect(page.get_by_text("Changes (3)")).to_be_visible()
    expect(bob.locator("#round-changes-list li")).to_have_count(3)


TWELVE_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"


def test_the_last_hands_saved_line_stays_in_view_as_the_stream_draws_the_summary(
    browser, push_server, make_member, make_game
):
    """The round's last hand, asked about and answered where Save was tapped: the page comes to
    the hand's saved line, and the round's summary that the stream then draws under it (taller:
    the doubled counts, Undo) leaves it there. Before, each part of the summary was put in
    before the old one was taken out and the browser's scroll anchoring followed the old one
    to the page's end: the saved line above the screen."""
    ann = make_member("ann")
    game = make_game(ann, kind="rummy13", names=("Maya", "Priya", "Sam", "Theo"))
    context, page = signed_in_phone(browser, push_server, ann)
    logged = []
    page.on("console", lambda message: message.type == "error" and logged.append(message.text))
    try:
        page.goto(f"/games/{game.pk}/rounds/1/")
        following_by_stream(page)
        panel = panel_for(page, "Theo")
        tap(page, "Theo", f"{TWELVE_HEARTS} AH")
        expect(panel.locator(".bar-points")).to_have_text("0 points")
        panel.locator(".chosen").evaluate(
            "(tray) => window.scrollTo(0, tray.getBoundingClientRect().top + scrollY - 450)"
        )
        panel.get_by_role("button", name="Save Theo's hand").click()
        question = panel_for(page, "Theo").locator(".question")
        expect(question).to_contain_text("Did Theo declare?")
        question.get_by_role("button", name="Yes, Theo declared").click()
        line = panel_for(page, "Theo").locator(".hand-line .saved")
        expect(line).to_have_text("Declared and won · 0 points")
        # The summary as the save left it, from the stream: the doubled counts, Undo.
        expect(page.locator("#round-status .notice")).to_contain_text("count is doubled")
        expect(page.locator("#round-changes-count")).to_have_text("1")
        page.wait_for_timeout(300)  # anything the summary moves has moved
        expect(line).to_be_in_viewport(ratio=1)
        assert line.bounding_box()["y"] >= 52, "under the pinned top bar"
        assert logged == []
    finally:
        context.close()


def test_a_finished_games_guest_hears_of_the_next_game_within_seconds_from_the_stream(
    browser, push_server, member, make_game
):
    """A guest's stream of a finished game ends at its finish (tests/test_live_streams.py): the
    score table then asks its live URL, which still shows a guest its finished game, every 2 s,
    so the night's next game is told within seconds, not after the 40 s a silent stream is
    given before the page falls back to asking."""
    game = make_game(member)
    link = GuestPass.objects.create(game=game, created_by=member).get_absolute_url()
    context = phone_context(browser, push_server)
    page = context.new_page()
    try:
        page.goto(link)
        page.get_by_label("Name this phone").fill("Bob's phone")
        page.get_by_role("button", name="Join as a guest").click()
        expect(page.locator("h1")).to_have_text("Round 1 of 11")
        page.get_by_role("link", name="Score table").first.click()
        expect(page.locator("h1")).to_have_text("Three Thirteen")
        following_by_stream(page)
        # The table finishes the game while the guest looks at its score table: told at once,
        # its stream then ended (a finished game's guest is told nothing more on it).
        game.finish()
        expect(page.locator("main")).to_contain_text("This game is finished")
        assert wait_until(lambda: push_server.streams() == 0)  # told "end", closed
        # The organiser takes a moment to start the next game: the page's ask on the stream's
        # last word (within 150 ms of it) has been answered by then.
        page.wait_for_timeout(1_500)
        # The table goes on to the next game of the night after that.
        ann, bob, cid = (seat.player for seat in game.seats.order_by("position"))
        Game.objects.start(
            group=game.group, kind=game.kind, players=[cid, ann, bob], rules=game.rules, user=member
        )
        going_on = page.locator(".next-game")
        expect(going_on).to_contain_text("Three Thirteen has started", timeout=6_000)
        expect(going_on).to_be_in_viewport()
    finally:
        context.close()
