from collections import Counter

import pytest

from games.engine.cards import (
    JOKER,
    Card,
    CardError,
    check_hand_supply,
    check_round_supply,
    format_cards,
    parse_hand,
)


def test_notation_reads_ranks_suits_jokers_case_and_separators():
    cards = parse_hand("as, 10h qd  jk\tTc 2♠ k♥")
    assert cards == [
        Card(1, "S"),
        Card(10, "H"),
        Card(12, "D"),
        JOKER,
        Card(10, "C"),
        Card(2, "S"),
        Card(13, "H"),
    ]


def test_canonical_output_uses_10_not_t():
    assert format_cards(parse_hand("AS TH QD JK")) == "AS 10H QD JK"


def test_empty_text_is_an_empty_hand():
    assert parse_hand("  ") == []


@pytest.mark.parametrize(
    ("token", "fragment"),
    [("1H", "rank"), ("7Z", "suit"), ("Z", "write a rank and a suit"), ("H7", "rank before")],
)
def test_a_bad_card_is_named_in_the_message(token, fragment):
    with pytest.raises(CardError) as error:
        parse_hand(f"2C {token} 3D")
    assert f'"{token}"' in str(error.value)
    assert fragment in str(error.value)


def test_card_names_read_aloud():
    assert Card(7, "H").name == "7 of hearts"
    assert Card(12, "S").name == "Queen of spades"
    assert JOKER.name == "Joker"


def test_two_decks_allow_two_copies_but_not_three():
    check_hand_supply(parse_hand("7H 7H"), decks=2, jokers=0)
    held = r"7H \(7 of hearts\) is held 3 times in this hand, but 2 decks have only 2"
    with pytest.raises(CardError, match=held):
        check_hand_supply(parse_hand("7H 7H 7H"), decks=2, jokers=0)


def test_jokers_are_limited_to_the_jokers_in_play():
    with pytest.raises(CardError, match="no jokers are in play"):
        check_hand_supply([JOKER], decks=2, jokers=0)
    with pytest.raises(CardError, match="3 jokers in this hand, but only 2 jokers"):
        check_hand_supply([JOKER] * 3, decks=2, jokers=2)


def test_the_round_supply_counts_every_hand_together_and_names_the_card():
    hands = [parse_hand("QS 2C"), parse_hand("QS 3C")]
    check_round_supply(hands, decks=2, jokers=0)
    with pytest.raises(CardError, match=r"QS \(Queen of spades\) is held twice across"):
        check_round_supply(hands, decks=1, jokers=0)
    assert Counter(str(c) for h in hands for c in h)["QS"] == 2
