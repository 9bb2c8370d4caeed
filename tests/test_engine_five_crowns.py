"""Five Crowns by its rules in RULES.md: five suits, 3 to K, the round's rank and jokers wild."""

import pytest

from games.engine import WENT_OUT, kind_of
from games.engine.cards import CardError, parse_card, parse_hand
from games.engine.five_crowns import FiveCrownsRules, arrange
from games.engine.kinds import FIVE_CROWNS
from games.engine.score_line import score_request

RULES = FiveCrownsRules()


def points(hand: str, round_number: int) -> int:
    return arrange(parse_hand(hand), round_number, RULES).points


@pytest.mark.parametrize("written", ["7X", "7x", "7★", "7*", "7☆"])
def test_stars_are_written_x_or_with_a_star(written):
    card = parse_card(written)
    assert str(card) == "7X"
    assert card.name == "7 of stars"


def test_a_round_of_five_crowns_holds_round_plus_two_cards():
    with pytest.raises(CardError, match="a hand in round 2 holds 4 cards; this one has 3"):
        arrange(parse_hand("5X 6X 7X"), 2, RULES)


@pytest.mark.parametrize("card", ["AH", "2S"])
def test_there_are_no_aces_or_twos(card):
    with pytest.raises(CardError, match="is not a card of Five Crowns"):
        arrange(parse_hand(f"5X 6X {card}"), 1, RULES)


def test_two_decks_hold_two_copies_of_a_card_and_six_jokers():
    assert RULES.jokers == 6
    with pytest.raises(CardError, match="7X \\(7 of stars\\) is held 3 times"):
        arrange(parse_hand("7X 7X 7X"), 1, RULES)
    with pytest.raises(CardError, match="7 jokers"):
        arrange(parse_hand("JK JK JK JK JK JK JK 5H 6H"), 7, RULES)


def test_a_book_may_repeat_suits_and_a_run_is_one_suit_in_a_row():
    assert points("9H 9H 9S", 1) == 0  # a book of nines, two of hearts
    assert points("9X 10X JX", 1) == 0
    assert points("9X 10H JX", 1) == 9 + 10 + 11


def test_runs_do_not_wrap_from_king_to_three():
    # Round 3: 5s are wild; Q K 3 4 of spades would be a run only by wrapping.
    assert points("QS KS 3S 4S 9H", 3) == 12 + 13 + 3 + 4 + 9
    # Round 2: 4s are wild, so the 4 of spades stands for the jack below Q K.
    assert points("QS KS 3S 4S", 2) == 3


def test_left_over_cards_cost_face_value():
    # Round 3 (5s wild): J 11, Q 12, K 13, others their number.
    assert points("JS QH KD 8X 9C", 3) == 11 + 12 + 13 + 8 + 9


def test_wild_cards_stand_for_any_card_and_may_meld_alone():
    assert points("JK 5C JK", 1) == 0  # two jokers make a book with the five
    assert points("3S 3H 3X", 1) == 0  # round 1: every 3 is wild, a meld of wilds only
    assert points("KS JK QS 8X", 2) == 8  # the joker stands for the jack of spades
    assert points("KS JK QD 8X", 2) == 13 + 50 + 12 + 8  # nothing to stand beside


def test_a_lone_wild_costs_twenty_and_a_lone_joker_fifty():
    assert points("5C 8X 10S 3H 6D", 3) == 20 + 8 + 10 + 3 + 6
    assert points("JK 8X 10S", 1) == 50 + 8 + 10


def test_going_out_needs_every_card_in_a_meld():
    kind = kind_of("five-crowns")
    scored = kind.score(WENT_OUT, "9X 10X JX", 1, RULES)
    assert scored.points == 0 and scored.error is None
    refused = kind.score(WENT_OUT, "9X 10H JX", 1, RULES)
    assert "does not meld completely" in refused.error


def test_score_hands_takes_five_crowns():
    answer = score_request({"game": "five-crowns", "round": 1, "hand": "9X 10X JX"})
    assert answer == {"ok": True, "points": 0, "melds": [["9X", "10X", "JX"]], "unmelded": []}
    missing = score_request({"game": "five-crowns", "hand": "9X 10X JX"})
    assert missing == {
        "ok": False,
        "error": '"round" is missing: Five Crowns needs the round, 1 to 11',
    }
    decks = score_request(
        {"game": "five-crowns", "round": 1, "hand": "9X 9X 9X", "rules": {"decks": 3}}
    )
    assert decks["ok"] and decks["points"] == 0


def test_the_picker_of_five_crowns_shows_five_suits_and_no_ace_or_two():
    deck = FIVE_CROWNS.deck(RULES)
    assert {card.suit for card in deck if not card.is_joker} == {"C", "D", "H", "S", "X"}
    assert {card.rank for card in deck if not card.is_joker} == set(range(3, 14))
    assert deck[-1].is_joker
