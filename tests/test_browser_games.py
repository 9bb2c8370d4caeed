"""One whole game of each kind on a phone-sized Chromium, totals checked against the rules. The
browser plays the first round and the last one (tapped; the last hand of a round typed, as a
player may type theirs), and the rounds between are saved on
the server as a phone's save is (the view tests cover every
hand's scoring; here the browser proves the flow from round to round and to the standings)."""

import re

import pytest
from playwright.sync_api import expect

from games.engine import CARDS, WENT_OUT
from games.engine.cards import parse_hand
from games.models import Entry, Game
from tests.browser import (
    PHONE,
    enter_hand,
    save_round,
    screenshot,
    signed_in_at_new_game,
    start_game,
    totals_on_table,
)

pytestmark = pytest.mark.browser

IN_THE_BROWSER = (1, 11)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def value(label: str) -> int:
    """Three Thirteen default costs: ace 1, faces 10, others face value."""
    return {"A": 1, "J": 10, "Q": 10, "K": 10}.get(label, 0) or int(label)


def three_thirteen_hands(round_number: int):
    """(went-out hand, two losing hands with their penalties) with no wild card but the
    went-out hand's: runs for the winner, a run of diamonds and unmeldable cards for the
    others (distinct ranks, clubs and spades taking turns, so no set and no run)."""
    size = round_number + 2
    wild = RANKS[size - 1]
    winner = " ".join(f"{RANKS[i]}H" for i in range(size))
    naturals = [label for label in RANKS if label != wild]
    run_start = 4 if wild not in RANKS[4:7] else 7
    run = [RANKS[run_start + i] for i in range(3)]
    # A rank of the run may come back in clubs or spades: two of a rank make no set.
    others = [label for label in naturals if label not in run]
    junk_ranks = (others + run)[: size - 3]
    junk_ranks_two = (others[::-1] + run)[: size - 3]
    losers = []
    for ranks in (junk_ranks, junk_ranks_two):
        ordered = sorted(ranks, key=RANKS.index)
        junk = [f"{label}{'CS'[i % 2]}" for i, label in enumerate(ordered)]
        cards = " ".join([f"{label}D" for label in run] + junk)
        losers.append((cards, sum(value(label) for label in ranks)))
    return winner, losers


# Where "More options" and "Start the game" may begin and end on a new-game page at 390x844:
# choosing a game, naming the players and starting take one screen and at most one scroll.
MORE_OPTIONS_BY = 1.5 * PHONE["height"]
START_BY = 2 * PHONE["height"]


def check_new_game_fits(page):
    """The new-game page, as a new group meets it: Three Thirteen chosen; then each game in
    turn, only its options shown, those rarely changed closed away, all in reach."""
    expect(page.get_by_label("Three Thirteen")).to_be_checked()
    for radio in page.locator("input[name=kind]").all():
        radio.check()
        kind = radio.get_attribute("value")
        shown = page.locator(".options[data-game]:visible")
        expect(shown).to_have_count(1)
        expect(shown).to_have_attribute("data-game", kind)
        more = shown.locator("details.more-options")
        if more.count():
            expect(more).not_to_have_attribute("open", "")
            top = more.evaluate("(e) => e.getBoundingClientRect().top + scrollY")
            assert top <= MORE_OPTIONS_BY, f"{kind}: More options begins at {top}px"
        start = page.get_by_role("button", name="Start the game")
        bottom = start.evaluate("(e) => e.getBoundingClientRect().bottom + scrollY")
        assert bottom <= START_BY, f"{kind}: Start the game ends at {bottom}px"


def test_a_whole_game_of_three_thirteen_for_three_players(phone, live_server, make_member):
    page = phone
    signed_in_at_new_game(page, live_server, make_member("table"))
    screenshot(page, "new-game", audit=False)
    check_new_game_fits(page)
    start_game(page, "Three Thirteen", "Ann, Bob, Cid")
    names = ["Ann", "Bob", "Cid"]
    expected = dict.fromkeys(names, 0)
    game = Game.objects.get()
    for round_number in range(1, 12):
        winner_cards, losers = three_thirteen_hands(round_number)
        out = names[round_number % 3]
        others = [name for name in names if name != out]
        for name, (_, penalty) in zip(others, losers, strict=True):
            expected[name] += penalty
        if round_number not in IN_THE_BROWSER:
            entries = {out: Entry(WENT_OUT, winner_cards)}
            for name, (cards, _) in zip(others, losers, strict=True):
                entries[name] = Entry(CARDS, cards)
            save_round(game, round_number, entries)
            continue
        if round_number == 11:
            page.goto(game.get_absolute_url())
            page.get_by_role("link", name=re.compile("Enter round 11")).click()
        expect(page.locator("h1")).to_have_text(f"Round {round_number} of 11")
        expect(page.locator(".round-facts")).to_contain_text(f"{round_number + 2} cards a hand")
        dealer = names[(round_number - 1) % 3]
        expect(page.locator(".round-facts")).to_contain_text(f"{dealer} deals")
        enter_hand(page, out, winner_cards, outcome="Went out")
        for name, (cards, _) in zip(others, losers, strict=True):
            enter_hand(page, name, cards, typed=name == others[-1])
        expect(page.locator("#round-status .done")).to_contain_text("Round complete")
        if round_number == 11:  # the last hand finished the game: the page is drawn again
            expect(page.locator("#round-notice .notice")).to_contain_text("finished")
        if round_number in (1, 11):
            screenshot(page, f"three-thirteen-round-{round_number}", audit=False)
        page.locator("#round-status a.button").click()
        expect(page.locator("table.scores")).to_be_visible()
        assert totals_on_table(page) == [expected[name] for name in names]
        if round_number == 1:
            screenshot(page, "three-thirteen-table", audit=False)
            expect(page.get_by_role("link", name=re.compile("Enter round 2"))).to_be_visible()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    screenshot(page, "three-thirteen-final", audit=False)
    best = min(expected.values())
    winners = page.locator(".standings-list li.winner .who").all_inner_texts()
    assert sorted(winners) == sorted(n for n in names if expected[n] == best)
    # Named by what it shows (the round's number, its wild rank), so a voice can say it.
    page.get_by_role("link", name=re.compile(r"^Round 1\s+3s wild$")).click()
    expect(page.locator(".shown-hand .meld").first).to_be_visible()
    screenshot(page, "three-thirteen-round-detail", audit=False)
    page.goto("/")
    expect(page.locator(".game-result").first).to_contain_text("Won by")
    screenshot(page, "home-with-nights", audit=False)


RUMMY_VALUE = {"A": 10, "J": 10, "Q": 10, "K": 10}


def rummy_count(cards: str) -> int:
    return sum(
        0 if c.is_joker else RUMMY_VALUE.get(c.label, 0) or c.rank for c in parse_hand(cards)
    )


def test_three_deals_of_13_card_rummy(phone, live_server, make_member):
    page = phone
    signed_in_at_new_game(page, live_server, make_member("rummy"))
    start_game(page, "13-card Rummy", "Ann, Bob, Cid")
    deals = [
        # winner, winner's hand (valid, one joker), losers with the cards they count
        (
            "Ann",
            "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JK QH KH",
            {
                "Bob": (
                    "5H 6H 7H 2C 4D 9S JC QD KS AD 3C 8D 10S",
                    "2C 4D 9S JC QD KS AD 3C 8D 10S",
                ),
                "Cid": ("8H 8S 8D 2H 3S 5C 7C 9D JD QS KC AC 4H", None),  # no pure sequence
            },
        ),
        (
            "Bob",
            "2H 3H 4H 5H 6C 7C 8C 9D 9S 9H QD QS QC",
            {
                "Cid": (
                    "AC 2C 3C 5S 7D 9C JH KD 4S 6D 8S 10H JS",
                    "5S 7D 9C JH KD 4S 6D 8S 10H JS",
                ),
                "Ann": ("KH KD 2D 4C 6H 8H 10D QH AS 3D 5C 7S 9H", None),
            },
        ),
        (
            "Cid",
            "AH 2H 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC",
            {  # all pure: others double
                "Ann": ("9C 10C JC 2D 4S 6H 8S QD KS AD 3C 5H 7D", "2D 4S 6H 8S QD KS AD 3C 5H 7D"),
                "Bob": ("2S 2C 2D 4D 6C 8H 10S QS KD AC 3S 5D 7H", None),
            },
        ),
    ]
    names = ["Ann", "Bob", "Cid"]
    expected = dict.fromkeys(names, 0)
    game = Game.objects.get()
    for number, (winner, winner_cards, losers) in enumerate(deals, start=1):
        expect(page.locator("h1")).to_have_text(f"Deal {number}")
        doubled = number == 3
        for name, (cards, counted) in losers.items():
            points = rummy_count(counted if counted else cards)
            expected[name] += points * 2 if doubled else points
        if number > 1:
            # Deals 2 and 3 are saved on the server (the view tests score them; the page's
            # words for a doubled deal are checked below).
            entries = {winner: Entry(WENT_OUT, winner_cards)}
            entries |= {name: Entry(CARDS, cards) for name, (cards, _) in losers.items()}
            save_round(game, number, entries)
            page.reload()
        else:
            enter_hand(page, winner, winner_cards, outcome="Declared and won")
            for name, (cards, _) in losers.items():
                enter_hand(page, name, cards, typed=name == list(losers)[-1])
        expect(page.locator("#round-status .done")).to_contain_text("Deal complete")
        if doubled:
            expect(page.locator("#round-status .notice")).to_contain_text("doubled")
        screenshot(page, f"rummy-deal-{number}", audit=False)
        page.locator("#round-status a.button").click()
        assert totals_on_table(page) == [expected[name] for name in names]
        if number < 3:
            page.get_by_role("link", name=re.compile(f"Enter deal {number + 1}")).click()
    screenshot(page, "rummy-table", audit=False)
    page.get_by_role("link", name="Finish the game now…").click()
    expect(page.get_by_role("heading", name="Finish the game now?")).to_be_visible()
    expect(page.locator("main")).to_contain_text(
        "Deal 4 has no hand entered yet: it is left out of the game."
    )
    screenshot(page, "rummy-finish-confirm", audit=False)
    page.get_by_role("button", name="Yes, finish the game").click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    screenshot(page, "rummy-final", audit=False)
