"""Gin Rummy on two phones at one table (two browser contexts, 390x844): each phone enters
only its own player's hand (tapped, or typed as a player may), the other phone's save shows
without a reload, the round is scored once both hands are in (the report with its layoffs), the
game ends by itself at 100 and its final standings, bonuses included, are the engine's; and an
Oklahoma hand with a spade upcard."""

import re

import pytest
from playwright.sync_api import expect

from games.engine import KINDS
from games.models import Game, Membership
from tests.browser import open_panel, panel_for, screenshot, signed_in_phone, start_game, tap

pytestmark = pytest.mark.browser

# The hands of tests/test_views_gin.py (checked by hand there).
UNDERCUT = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"  # Ann knocks with 10 (the KC)
UNDERCUT_DEFENDER = "AC 2C 3C 4D 5D 6D 7H 8H 9H KS"  # Bob has 10 too: 0 + 25 to Bob
KNOCK = "5H 6H 7H JS JD JC 2C 3C 4C AS"  # Ann knocks with 1
KNOCK_DEFENDER = "3H 4H 8H 9H KS QS KD 2D 9S 7C"  # lays 3H 4H 8H 9H off: 48 - 1 = 47 to Ann
GIN = "AH 2H 3H 5S 5D 5C 9C 10C JC QC"
GIN_DEFENDER = "4H 6H 7H KS QS 2S 3S 7D 8H 8S"  # 44 + 25 to Ann

KNOCKED, DID_NOT_KNOCK = "Knocked", "Did not knock"
OKLAHOMA = "Oklahoma: the upcard sets the knock limit, spades double"


def poll(page):
    """Let the page's next poll of the live URL come now (it polls every 2 s)."""
    page.clock.run_for(2_000)


@pytest.fixture
def phones(browser, live_server, make_member, django_user_model):
    """Ann's phone and Bob's phone, both members of Ann's group."""
    ann = make_member("ann")
    bob = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=bob, group=ann.memberships.first().group)
    contexts, pages = zip(
        *(signed_in_phone(browser, live_server, user) for user in (ann, bob)), strict=True
    )
    for page in pages:
        page.clock.install()  # time flows, and `poll` brings the next poll at once
    yield pages
    for context in contexts:
        context.close()


def start(page, choices=()) -> Game:
    start_game(page, "Gin Rummy", "Ann, Bob", choices)
    return Game.objects.get(pk=int(re.search(r"/games/(\d+)/", page.url)[1]))


def open_hand(pages, game, number, dealer):
    for page in pages:
        page.goto(f"/games/{game.pk}/rounds/{number}/")
        expect(page.locator("h1")).to_have_text(f"Hand {number}")
        expect(page.locator(".round-facts")).to_contain_text(f"{dealer} deals")


def all_tapped(page, name, cards):
    expect(panel_for(page, name).locator(".count")).to_have_text(
        re.compile(rf"^{len(cards.split())} of \d+ cards$")
    )


def save_own(page, name, outcome, upcard=None):
    """Choose the outcome (and the first upcard), save, and wait for the saved line."""
    panel = open_panel(page, name)
    panel.get_by_text(outcome, exact=True).click()
    if upcard is not None:
        field = panel.get_by_label("First upcard")
        expect(field).to_be_visible()  # shown with "Knocked" only
        field.fill(upcard)
    panel.get_by_role("button", name=f"Save {name}'s hand").click()
    saved = panel_for(page, name)
    expect(saved.locator(".hand-line .saved")).to_be_visible()
    expect(page.locator(".htmx-settling")).to_have_count(0)
    errors = saved.locator(".field-error").all_inner_texts()
    assert not errors, f"{name}: {errors}"


def sees(page, name, line):
    """This phone shows the other phone's save of `name`'s hand, without a reload."""
    poll(page)
    expect(panel_for(page, name).locator(".hand-line .saved")).to_have_text(line)


def play_hand(phones, name_cards_outcome, upcard=None, bob_types=False):
    """Both phones enter their own hand at once (Bob's taps it, or types it where
    `bob_types`); Ann's phone saves first, then Bob's."""
    (ann_phone, bob_phone), (ann, bob) = phones, name_cards_outcome
    tap(ann_phone, "Ann", ann[0])
    if bob_types:
        open_panel(bob_phone, "Bob").get_by_label("Or type the cards").fill(bob[0])
    else:
        tap(bob_phone, "Bob", bob[0])
    all_tapped(ann_phone, "Ann", ann[0])
    all_tapped(bob_phone, "Bob", bob[0])
    save_own(ann_phone, "Ann", ann[1], upcard)
    sees(bob_phone, "Ann", re.compile(rf"^{ann[1]} · \d+ points?$"))
    expect(bob_phone.locator("#round-status .todo")).to_have_text("Still to enter: Bob.")
    save_own(bob_phone, "Bob", bob[1])
    for page in (ann_phone, bob_phone):
        poll(page)
        expect(page.locator("#round-status .done")).to_contain_text("Hand complete")


def test_a_whole_game_of_gin_to_100_on_two_phones(phones):
    ann_phone, bob_phone = phones
    game = start(ann_phone)

    # Hand 1: drawn. One phone says so; the hand is over, and the same dealer deals again.
    open_hand(phones, game, 1, "Ann")
    save_own(bob_phone, "Bob", "Drawn hand")
    for page in phones:
        poll(page)
        expect(page.locator("#round-status .done")).to_contain_text("Hand complete")
        expect(page.locator("#round-status")).to_contain_text(
            "Drawn hand: nobody knocked, nobody scores."
        )

    # Hand 2: Ann knocks with 10, Bob has 10 too: Bob undercuts, 25.
    open_hand(phones, game, 2, "Ann")
    play_hand(phones, [(UNDERCUT, KNOCKED), (UNDERCUT_DEFENDER, DID_NOT_KNOCK)])
    for page in phones:
        expect(page.locator("#round-status h2")).to_have_text("Undercut: Bob scores 25")
        expect(page.locator("#round-status .round-points li")).to_have_text(["Ann 0", "Bob 25"])
    expect(panel_for(ann_phone, "Bob").locator(".hand-line .saved")).to_have_text(
        "Did not knock · 25 points"
    )

    # Hand 3, dealt by Bob who won hand 2: Ann knocks, Bob lays four cards off onto meld 2.
    open_hand(phones, game, 3, "Bob")
    play_hand(phones, [(KNOCK, KNOCKED), (KNOCK_DEFENDER, DID_NOT_KNOCK)], bob_types=True)
    for page in phones:
        report = page.locator("#round-status .round-report")
        expect(report.locator("h2")).to_have_text("Knock: Ann scores 47")
        expect(report.locator(".layoffs li")).to_have_count(4)
        # 4♥ before 3♥: the 3 only fits once the 4 is laid off (a chain).
        expect(report.locator(".layoffs li")).to_have_text(
            [f"{card} laid off onto meld 2" for card in ("4♥", "3♥", "8♥", "9♥")]
        )
        expect(page.locator("#round-status .round-points li")).to_have_text(["Ann 47", "Bob 0"])
        # Bob's save gave Ann her 47: her line follows on both phones, without a reload.
        expect(panel_for(page, "Ann").locator(".hand-line .saved")).to_have_text(
            "Knocked · 47 points"
        )
    # Bob's hand, opened next on Ann's phone after her save, closes once his phone saved it.
    expect(panel_for(ann_phone, "Bob").locator("details")).not_to_have_attribute("open", "")
    ann_phone.evaluate("window.scrollTo(0, 0)")  # the sticky bar at the top of the picture
    screenshot(ann_phone, "gin-knock-with-layoffs")
    ann_phone.locator("#round-status a.button").click()
    expect(ann_phone.locator("table.scores tfoot td")).to_have_text(["47", "25"])
    ann_phone.get_by_role("link", name=re.compile("Enter hand 4")).click()
    expect(ann_phone.locator("h1")).to_have_text("Hand 4")

    # Hand 4, dealt by Ann: she goes gin, 69, and 116 ends the game by itself.
    open_hand([bob_phone], game, 4, "Ann")
    play_hand(phones, [(GIN, KNOCKED), (GIN_DEFENDER, DID_NOT_KNOCK)], bob_types=True)
    for page in phones:  # the round page is drawn again on both phones
        poll(page)
        expect(page.locator("#round-notice .notice")).to_contain_text("finished")
        expect(page.locator("#round-status h2")).to_have_text("Gin: Ann scores 69")
    game.refresh_from_db()
    assert game.finished_at and not game.rounds.filter(number=5).exists()

    # The final standings, with their bonus lines, are the engine's.
    ann_phone.get_by_role("link", name="See the final standings").click()
    expect(ann_phone.get_by_role("heading", name="Final standings")).to_be_visible()
    seats = list(game.seats.select_related("player").order_by("position"))
    names = {seat.pk: seat.player.name for seat in seats}
    expected = [
        (
            names[standing.key],
            str(standing.points),
            [
                f"{standing.seating.total} from the hands",
                *(f"{what}: +{points}" for what, points in standing.lines),
            ],
        )
        for standing in KINDS["gin"].standings(game.seatings(seats), game.engine_rules)
    ]
    ann_lines = ["116 from the hands", "Game bonus: +100", "Box bonus: 2 hands won × 25: +50"]
    bob_lines = ["25 from the hands", "Box bonus: 1 hand won × 25: +25"]
    assert expected == [("Ann", "266", ann_lines), ("Bob", "50", bob_lines)]
    rows = ann_phone.locator(".standings-list > li")
    expect(rows).to_have_count(len(expected))
    shown = [
        (
            row.locator(".who").inner_text(),
            row.locator(".pts").inner_text(),
            row.locator(".bonus-lines li").all_inner_texts(),
        )
        for row in rows.all()
    ]
    assert shown == expected
    expect(ann_phone.locator(".standings-list li.winner .who")).to_have_text("Ann")
    screenshot(ann_phone, "gin-final-standings", audit=False)

    # A second game, Oklahoma: a spade as the first upcard doubles the hand.
    game = start(ann_phone, choices=[OKLAHOMA])
    assert game.rules["variant"] == "oklahoma"
    open_hand(phones, game, 1, "Ann")
    panel = open_panel(ann_phone, "Ann")
    expect(panel.get_by_label("First upcard")).to_be_hidden()  # until "Knocked" is chosen
    play_hand(
        phones, [(KNOCK, KNOCKED), (KNOCK_DEFENDER, DID_NOT_KNOCK)], upcard="3S", bob_types=True
    )
    for page in phones:
        status = page.locator("#round-status")
        expect(status.locator("h2")).to_have_text("Knock: Ann scores 94 (doubled: a spade upcard)")
        expect(status).to_contain_text("Knock limit 3.")
        expect(status.locator(".round-points li")).to_have_text(["Ann 94", "Bob 0"])
