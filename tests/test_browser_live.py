"""Two phones at one table (two browser contexts, 390x844): what one saves shows on the
other's round page, score table and game night page within 3 seconds, and a hand being entered
on the other phone stays as it is."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Entry, Membership
from tests.browser import enter_hand, open_panel, panel_for, screenshot, signed_in_phone, tap

pytestmark = pytest.mark.browser

WITHIN = 3_000  # ms: the promise for another phone's save to show


def poll(page):
    """Let the page's next poll come now: its clock moves on by the polling interval."""
    page.clock.run_for(2_000)


@pytest.fixture
def table(browser, live_server, make_member, make_game, django_user_model):
    """Ann's phone and Bob's phone, both members of Ann's group, and a game of three."""
    ann = make_member("ann")
    bob = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=bob, group=ann.memberships.first().group)
    game = make_game(ann, names=("Ann", "Bob", "Cid"))
    contexts, pages = zip(
        *(signed_in_phone(browser, live_server, u) for u in (ann, bob)), strict=True
    )
    for page in pages:
        page.clock.install()  # time flows, and `poll` brings the next poll at once
    yield game, pages[0], pages[1]
    for context in contexts:
        context.close()


def test_a_hand_saved_on_one_phone_shows_on_the_other_without_disturbing_its_entry(table):
    game, ann_phone, bob_phone = table
    round_url = f"/games/{game.pk}/rounds/1/"
    ann_phone.goto(round_url)
    bob_phone.goto(round_url)
    assert bob_phone.evaluate("document.visibilityState") == "visible"

    # Bob is entering his own hand: two cards tapped, a third typed.
    tap(bob_phone, "Bob", "5H 6H")
    cards = panel_for(bob_phone, "Bob").get_by_label("Or type the cards")
    cards.press("End")
    cards.press_sequentially(" 9S")
    expect(cards).to_have_value("5H 6H 9S")

    enter_hand(ann_phone, "Cid", "KS QD 2C")  # 22 points, no meld
    poll(bob_phone)
    cid_on_bob = panel_for(bob_phone, "Cid")
    expect(bob_phone.locator("#round-status")).to_contain_text(
        "Still to enter: Ann, Bob.", timeout=WITHIN
    )
    expect(cid_on_bob.locator("summary")).to_contain_text("Cards left · 22", timeout=WITHIN)
    expect(cid_on_bob.locator(".saved-by")).to_have_text("Saved by ann")
    expect(cid_on_bob.locator("details")).not_to_have_attribute("open", "")
    expect(bob_phone.locator("#round-status .round-points")).to_contain_text("Cid 22")

    # Bob's entry is as he left it.
    bob_panel = panel_for(bob_phone, "Bob")
    expect(bob_panel.get_by_label("Or type the cards")).to_have_value("5H 6H 9S")
    expect(bob_panel.locator("details")).to_have_attribute("open", "")
    expect(bob_panel.locator(".chosen .chosen-card")).to_have_count(3)
    expect(bob_panel.locator(".saved-by")).to_have_count(0)
    # Ann's phone shows the line every phone shows.
    expect(panel_for(ann_phone, "Cid").locator(".hand-line .saved")).to_be_visible()
    screenshot(bob_phone, "live-round-other-phone")

    # Bob saves what he was entering: nothing of it was lost.
    bob_panel.get_by_role("button", name="Save Bob's hand").click()
    expect(panel_for(bob_phone, "Bob").locator(".hand-line .saved")).to_contain_text("20")
    poll(ann_phone)
    expect(panel_for(ann_phone, "Bob").locator("summary")).to_contain_text(
        "Cards left · 20", timeout=WITHIN
    )


def test_a_conflicting_save_still_gets_the_conflict_view(table):
    game, ann_phone, bob_phone = table
    round_url = f"/games/{game.pk}/rounds/1/"
    ann_phone.goto(round_url)
    bob_phone.goto(round_url)
    tap(bob_phone, "Ann", "7C")  # Bob starts entering Ann's hand too
    enter_hand(ann_phone, "Ann", "2S 3S 4S")  # Ann saves it first (3s wild: a run)
    poll(bob_phone)
    expect(bob_phone.locator("#round-status")).to_contain_text(
        "Still to enter: Bob, Cid.", timeout=WITHIN
    )
    panel = panel_for(bob_phone, "Ann")
    # The saved line is updated, and stays behind this phone's draft, which is untouched.
    expect(panel.locator(".hand-line")).to_contain_text("Cards left · 0", timeout=WITHIN)
    expect(panel.locator(".hand-line")).to_be_hidden()
    expect(panel.locator("summary [data-entry-state]")).to_have_text("not saved yet")
    expect(panel.locator(".chosen .chosen-card")).to_have_count(1)
    tap(bob_phone, "Ann", "8C 9C")
    panel.get_by_role("button", name="Save Ann's hand").click()
    conflict = panel_for(bob_phone, "Ann").locator(".conflict")
    expect(conflict).to_contain_text("Saved from another phone by ann")
    expect(panel_for(bob_phone, "Ann").get_by_label("Or type the cards")).to_have_value("7C 8C 9C")
    screenshot(bob_phone, "live-round-conflict")


@pytest.mark.waits
def test_the_score_table_and_the_game_night_follow_the_other_phone(table):
    game, ann_phone, bob_phone = table
    seen = []
    bob_phone.on("response", lambda r: "/live/" in r.url and seen.append(r.status))
    ann_phone.goto(f"/games/{game.pk}/rounds/1/")
    enter_hand(ann_phone, "Ann", "2S 3S 4S", outcome="Went out")
    # A phone's first page tells the server its time zone (a cookie); from then on the
    # score table is drawn in it, so the first poll after that page has no change to send.
    bob_phone.goto("/")
    with bob_phone.expect_response(lambda r: "/live/" in r.url):  # a poll of an unchanged table
        bob_phone.goto(f"/games/{game.pk}/")
    totals = bob_phone.locator("table.scores tfoot td")
    expect(totals).to_have_text(["0", "0", "0"])
    assert seen == [304]

    enter_hand(ann_phone, "Bob", "KS QD 2C")
    poll(bob_phone)
    expect(totals).to_have_text(["0", "22", "0"], timeout=WITHIN)
    enter_hand(ann_phone, "Cid", "5D 7C 9H")
    poll(bob_phone)
    expect(totals).to_have_text(["0", "22", "21"], timeout=WITHIN)
    expect(bob_phone.get_by_role("link", name=re.compile("Enter round 2"))).to_be_visible()
    screenshot(bob_phone, "live-score-table", audit=False)

    bob_phone.goto(f"/nights/{game.night_id}/")
    expect(bob_phone.locator("table.scores tfoot td")).to_have_text(["0", "22", "21"])
    ann_phone.goto(f"/games/{game.pk}/rounds/2/")
    winner = bob_phone.locator(".standings-list li.winner .who")
    expect(winner).to_have_text("Ann")
    enter_hand(ann_phone, "Ann", "KH QC JD 9S")  # 39, in a round half entered: Ann still leads
    poll(bob_phone)
    expect(bob_phone.locator("table.scores tfoot td")).to_have_text(
        ["39", "22", "21"], timeout=WITHIN
    )
    expect(winner).to_have_text("Ann")
    expect(bob_phone.locator(".legend").first).to_contain_text("“leads” counts the complete")
    screenshot(bob_phone, "live-game-night-half-entered")  # a state of its own: audited
    enter_hand(ann_phone, "Bob", "KS QD JC 10D")  # 40
    enter_hand(ann_phone, "Cid", "5H 6H 7H 8H", outcome="Went out")  # complete: Cid leads
    poll(bob_phone)
    expect(bob_phone.locator("table.scores tfoot td")).to_have_text(
        ["39", "62", "21"], timeout=WITHIN
    )
    expect(winner).to_have_text("Cid")
    screenshot(bob_phone, "live-game-night", audit=False)


# The tab's visibility, as the phone would report it, switched by the test.
VISIBILITY = """
let hidden = false;
Object.defineProperty(Document.prototype, "hidden", { get: () => hidden, configurable: true });
Object.defineProperty(Document.prototype, "visibilityState", {
  get: () => (hidden ? "hidden" : "visible"), configurable: true });
window.setTabHidden = (value) => {
  hidden = value;
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


def test_a_hidden_or_offline_phone_stops_asking_and_catches_up_when_back(table):
    game, _, bob_phone = table
    ann = game.created_by
    seats = list(game.seats.all())
    bob_phone.context.add_init_script(VISIBILITY)
    asked = []
    bob_phone.on("request", lambda r: "/live/" in r.url and asked.append(r.url))
    bob_phone.goto(f"/games/{game.pk}/")
    totals = bob_phone.locator("table.scores tfoot td")
    with bob_phone.expect_response(lambda r: "/live/" in r.url):
        bob_phone.clock.run_for(2_000)  # polling, every 2 s
    assert len(asked) == 1

    bob_phone.evaluate("setTabHidden(true)")
    asked.clear()
    game.rounds.get().save_hand(seats[1], Entry("points", "", 30), ann)
    bob_phone.clock.run_for(10_000)
    assert asked == []
    expect(totals).to_have_text(["0", "0", "0"])
    bob_phone.evaluate("setTabHidden(false)")  # asks at once
    expect(totals).to_have_text(["0", "30", "0"])

    bob_phone.context.set_offline(True)
    asked.clear()
    game.rounds.get().save_hand(seats[2], Entry("points", "", 12), ann)
    bob_phone.clock.run_for(10_000)
    assert asked == []
    bob_phone.context.set_offline(False)  # asks at once
    expect(totals).to_have_text(["0", "30", "12"])


def test_a_phone_offline_through_several_saves_ends_up_exactly_right(
    table, browser, live_server, django_user_model
):
    game, ann_phone, bob_phone = table
    cid = django_user_model.objects.create_user(username="cid", password="x")
    Membership.objects.create(user=cid, group=game.group)
    cid_context, cid_phone = signed_in_phone(browser, live_server, cid)
    cid_phone.clock.install()
    round_url = f"/games/{game.pk}/rounds/1/"
    try:
        for page in (ann_phone, bob_phone, cid_phone):
            page.goto(round_url)
        tap(cid_phone, "Cid", "9C")  # Cid's own entry, which must stay as it is
        cid_phone.context.set_offline(True)
        # Ten seconds offline, while the others save, change and save again.
        enter_hand(ann_phone, "Ann", "2S 3S 4S", outcome="Went out")
        enter_hand(bob_phone, "Bob", "KS QD 2C")
        bob_panel = open_panel(bob_phone, "Bob")
        bob_panel.get_by_role("button", name="Remove 2 of clubs").click()
        tap(bob_phone, "Bob", "5C")
        bob_panel.get_by_role("button", name="Save Bob's hand").click()
        expect(panel_for(bob_phone, "Bob").locator(".hand-line .saved")).to_contain_text("25")
        cid_phone.clock.run_for(10_000)
        expect(panel_for(cid_phone, "Ann").locator(".hand-line")).to_have_text("not entered")
        with cid_phone.expect_response(lambda r: "/live/" in r.url and r.status == 200):
            cid_phone.context.set_offline(False)  # asks at once
        for name, line in (("Ann", "Went out · 0 points"), ("Bob", "Cards left · 25 points")):
            expect(panel_for(cid_phone, name).locator(".hand-line .saved")).to_have_text(line)
        expect(panel_for(cid_phone, "Bob").locator(".saved-by")).to_have_text("Saved by bob")
        expect(cid_phone.locator("#round-status .todo")).to_have_text("Still to enter: Cid.")
        expect(cid_phone.locator("#round-status .round-points")).to_contain_text("Bob 25")
        expect(panel_for(cid_phone, "Cid").locator(".chosen-card")).to_have_count(1)
        expect(panel_for(cid_phone, "Cid").get_by_label("Or type the cards")).to_have_value("9C")
        screenshot(cid_phone, "live-caught-up-after-offline")
    finally:
        cid_context.close()


# The page's live asks answered by a stand-in for the server, as the test says (`window.server`):
# at once, on the page's own clock, so that the clock alone decides when the page asks.
SERVER = """
window.server = "answer";
window.asks = 0;
const realFetch = window.fetch;
window.fetch = (url, options) => {
  if (!String(url).includes("/live/")) return realFetch(url, options);
  window.asks += 1;
  switch (window.server) {
    case "hold":
      return new Promise((resolve) => {
        window.release = () => resolve(new Response(null, { status: 304 }));
      });
    case "fail":
      return Promise.reject(new TypeError("Failed to fetch"));
    case "busy":
      return Promise.resolve(new Response("", { status: 503, headers: { "Retry-After": "25" } }));
    default:
      return Promise.resolve(new Response(null, { status: 304 }));
  }
};
"""


def test_a_phone_backs_off_while_the_server_is_behind_and_says_so_after_10_s(table):
    game, _, bob_phone = table
    bob_phone.context.add_init_script(SERVER)
    bob_phone.goto(f"/games/{game.pk}/rounds/1/")
    bob_phone.clock.pause_at(bob_phone.evaluate("Date.now()") + 100)  # time moves when run
    status = bob_phone.locator("[data-live-status]")
    expect(status).to_have_role("status")
    expect(status).to_have_text("")

    def server(does):
        bob_phone.evaluate(f"window.server = {does!r}; window.asks = 0")

    def asks_in(seconds):  # how many asks the page makes in this many seconds of its clock
        bob_phone.evaluate("window.asks = 0")
        for _ in range(seconds):
            bob_phone.clock.run_for(1_000)
        return bob_phone.evaluate("window.asks")

    # The server answers nothing at all for a while: the page waits, then says so plainly.
    server("hold")
    assert asks_in(9) == 1  # the next poll goes, and hangs
    expect(status).to_have_text("")
    asks_in(3)
    expect(status).to_have_text(re.compile(r"^Waiting for the server: the table may be behind"))
    expect(status).not_to_have_class(re.compile("problem"))
    server("answer")
    bob_phone.evaluate("window.release()")  # answered at last: the line clears
    expect(status).to_have_text("")

    # It fails: each ask waits longer than the last (4, 8, 16 s...), not one every 2 s, and the
    # status line says the server does not answer, as a problem.
    server("fail")
    assert 2 <= asks_in(60) <= 5  # polling every 2 s would have been 30
    expect(status).to_have_text(re.compile(r"has not answered for 10 seconds \(no connection\)"))
    expect(status).to_have_class(re.compile("problem"))

    # Busy: a 503's Retry-After is waited out.
    server("busy")
    asks_in(30)
    assert asks_in(20) <= 1
    expect(status).to_have_text(re.compile(r"\(error 503\)"))

    # The server answers again: the next ask clears the line, and the asks come back to every
    # 2 s, the wait halved at each quick answer (30, 15, 7.5, 3.75 s), not all at once.
    server("answer")
    asks_in(30)
    expect(status).to_have_text("")
    expect(status).not_to_have_class(re.compile("problem"))
    assert 2 <= asks_in(14) <= 3
    assert 4 <= asks_in(10) <= 6
