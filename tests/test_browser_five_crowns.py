"""A whole game of Five Crowns on a phone-sized Chromium: stars on the picker, no aces or twos,
the round's rank wild, totals checked against the rules (the browser plays rounds 1, 2 and 11)."""

import re

import pytest
from playwright.sync_api import expect

from games.engine import CARDS, WENT_OUT
from games.models import Entry, Game
from tests.browser import (
    enter_hand,
    panel_for,
    save_round,
    screenshot,
    signed_in_at_new_game,
    start_game,
    totals_on_table,
)

pytestmark = pytest.mark.browser

IN_THE_BROWSER = (1, 2, 11)  # the rounds between are saved on the server as a phone's save is
LABELS = {11: "J", 12: "Q", 13: "K"}


def label(rank: int) -> str:
    return LABELS.get(rank, str(rank))


def winning_hand(size: int) -> str:
    """Runs of stars and spades from 3 up that meld every card (a wild in a run stands for
    itself)."""
    lengths = [size] if size <= 11 else [size - 6, 6]
    runs = []
    for suit, length in zip("XS", lengths, strict=False):
        runs += [f"{label(rank)}{suit}" for rank in range(3, 3 + length)]
    return " ".join(runs)


def losing_hand(size: int, wild: int) -> tuple[str, int]:
    """Cards that meld nothing: no wild, each rank twice at most, a suit's ranks two apart."""
    cards = [(rank, suit) for rank in range(3, 14, 2) for suit in "CD"]
    cards += [(rank, suit) for rank in range(4, 13, 2) for suit in "HS"]
    chosen = [(rank, suit) for rank, suit in cards if rank != wild][:size]
    return " ".join(f"{label(r)}{s}" for r, s in chosen), sum(r for r, _ in chosen)


def test_a_whole_game_of_five_crowns_for_two_players(phone, live_server, make_member):
    page = phone
    signed_in_at_new_game(page, live_server, make_member("crowns"))
    start_game(page, "Five Crowns", "Ann, Bob")
    names = ["Ann", "Bob"]
    expected = dict.fromkeys(names, 0)
    game = Game.objects.get()
    for number in range(1, 12):
        size, wild = number + 2, number + 2
        out, other = names[number % 2], names[1 - number % 2]
        cards, penalty = losing_hand(size, wild)
        expected[other] += penalty
        if number not in IN_THE_BROWSER:
            entries = {out: Entry(WENT_OUT, winning_hand(size)), other: Entry(CARDS, cards)}
            save_round(game, number, entries)
            continue
        if number == 11:
            page.goto(game.get_absolute_url())
            page.get_by_role("link", name=re.compile("Enter round 11")).click()
        expect(page.locator("h1")).to_have_text(f"Round {number} of 11")
        expect(page.locator(".round-facts")).to_contain_text(f"{label(wild)}s wild")
        if number == 1:
            picker = panel_for(page, "Ann").locator(".picker")
            expect(picker.get_by_role("button", name="7 of stars")).to_be_visible()
            expect(picker.get_by_role("button", name="Ace of hearts")).to_have_count(0)
            expect(picker.get_by_role("button", name="2 of spades")).to_have_count(0)
            expect(picker.locator(".pick.wild")).to_have_count(6)  # five 3s and the joker
            screenshot(page, "five-crowns-round-1", audit=False)
        tapped = number in (1, 11)
        enter_hand(page, out, winning_hand(size), outcome="Went out", typed=not tapped)
        enter_hand(page, other, cards, typed=True)
        expect(page.locator("#round-status .done")).to_contain_text("Round complete")
        if number == 11:  # the last hand finished the game: the page is drawn again
            expect(page.locator("#round-notice .notice")).to_contain_text("finished")
            screenshot(page, "five-crowns-round-11", audit=False)
        page.locator("#round-status a.button").click()
        assert totals_on_table(page) == [expected[name] for name in names]
        if number == 1:
            page.get_by_role("link", name=re.compile("Enter round 2")).click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    screenshot(page, "five-crowns-final", audit=False)
    winner = min(names, key=expected.get)
    assert page.locator(".standings-list li.winner .who").all_inner_texts() == [winner]
