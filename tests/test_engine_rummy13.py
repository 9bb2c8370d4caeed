import pytest

from games.engine.cards import CardError, parse_hand
from games.engine.rummy13 import (
    REASON_FOUR_CARD_SET,
    REASON_NO_PURE,
    REASON_NOT_FOUR_MELDS,
    REASON_TOO_FEW_SEQUENCES,
    RummyRules,
    declaration,
    final_count,
    loser_arrangement,
)


def count(hand, **options):
    return loser_arrangement(parse_hand(hand), RummyRules(**options))


def declare(hand, **options):
    return declaration(parse_hand(hand), RummyRules(**options))


def meld_texts(melds):
    return sorted(" ".join(str(c) for c in meld) for meld in melds)


def test_a_hand_must_hold_13_cards():
    with pytest.raises(CardError, match="holds 13 cards; this one has 12"):
        count("AH 2H 3H 4H 5S 6S 7S 8C 8D 8S 10D QD")


def test_a_valid_declaration_scores_zero_and_shows_four_melds():
    result = declare("AH 2H 3H 4H 5S 6S 7S 8C 8D 8S JK 10D QD")
    assert result.valid and not result.all_pure
    assert result.arrangement.points == 0
    assert sorted(len(m) for m in result.arrangement.melds) == [3, 3, 3, 4]


def test_four_pure_sequences_are_all_pure():
    result = declare("AH 2H 3H 4H 5S 6S 7S 8C 9C 10C JD QD KD")
    assert result.valid and result.all_pure
    assert meld_texts(result.arrangement.melds) == [
        "5S 6S 7S",
        "8C 9C 10C",
        "AH 2H 3H 4H",
        "JD QD KD",
    ]


def test_a_declaration_without_a_pure_sequence_is_refused():
    result = declare("AH JK 3H 4H 5S JK 7S 8C 8D 8S 9D 9H 9S")
    assert not result.valid
    assert result.reason == REASON_NO_PURE


def test_the_four_card_meld_must_be_a_sequence():
    result = declare("5H 6H 7H 5S 5D 5C 8C 8D 8S 9D 9H 9S 9C")
    assert not result.valid
    assert result.reason == REASON_FOUR_CARD_SET


def test_at_most_two_sets_in_a_declaration():
    result = declare("AH 2H 3H 4H 5S 5D 5C 8C 8D 8S 9D 9H 9S")
    assert not result.valid
    assert result.reason == REASON_TOO_FEW_SEQUENCES


def test_cards_that_do_not_meld_cannot_be_declared():
    result = declare("AH 2H 3H 4H 5S 6S 7S 8C 8D 8S 10D QD 2C")
    assert not result.valid
    assert result.reason == REASON_NOT_FOUR_MELDS
    # A failed declaration still shows what the hand counts as a loser's.
    assert result.arrangement.points == 10 + 10 + 2


def test_king_ace_two_is_not_a_sequence():
    result = declare("KH AH 2H 4S 5S 6S 7S 8C 9C 10C JD QD KD")
    assert not result.valid


def test_queen_king_ace_is_a_sequence():
    result = declare("QH KH AH 4S 5S 6S 7S 8C 9C 10C JD QD KD")
    assert result.valid and result.all_pure


def test_without_a_pure_sequence_every_card_counts():
    # Seed 000, counting rule 1: sets and an impure sequence do not help without a pure one.
    result = count("5S 5D 5C 8C 8D 8S 9D JK JH 2C 4H 6H KS")
    assert result.melds == ()
    assert result.points == 15 + 24 + 9 + 0 + 10 + 2 + 4 + 6 + 10


def test_with_a_pure_sequence_melds_are_left_out_of_the_count():
    result = count("5H 6H 7H 8C 8D 8S 2C 4D 9S JC QD KH AS")
    assert result.points == 2 + 4 + 9 + 10 + 10 + 10 + 10
    assert meld_texts(result.melds) == ["5H 6H 7H", "8C 8D 8S"]


def test_no_more_than_two_sets_are_left_out():
    result = count("5H 6H 7H 8C 8D 8S 10C 10D 10S QC QD QS 2H")
    # Two sets of the three may go; the cheapest set (8s) stays in the count, with the 2.
    assert result.points == 24 + 2


def test_at_most_three_three_card_melds_are_left_out():
    # Four 3-card pure sequences: only three fit beside the 4-card meld of a winning layout.
    result = count("5H 6H 7H 8C 9C 10C 8D 9D 10D 8S 9S 10S 2H")
    assert result.points == 5 + 6 + 7 + 2
    assert len(result.melds) == 3


def test_face_cards_and_aces_count_ten_and_jokers_count_nothing():
    result = count("AS KD QC JH 2C 4C 6C 8C 10H 3S 5S JK JK")
    assert result.points == 40 + 2 + 4 + 6 + 8 + 10 + 3 + 5


def test_wild_joker_rank_cards_count_nothing():
    result = count("AS KD QC JH 2C 4C 6C 8C 10H 3S 5S 7D 7H", wild_rank="7")
    assert result.points == 40 + 2 + 4 + 6 + 8 + 10 + 3 + 5


def test_a_wild_rank_card_in_its_own_place_keeps_a_sequence_pure():
    result = declare("5H 6H 7H 8H 2S 3S 4S 9C 10C JC QD KD AD", wild_rank="6")
    assert result.valid and result.all_pure


def test_a_wild_rank_card_can_stand_in_for_another_card():
    result = declare("5H 6H 7H 8H 2S 3S 4S 9C 6D JC QD KD AD", wild_rank="6")
    assert result.valid and not result.all_pure


def test_two_copies_of_a_card_never_share_a_set():
    result = count("8C 8C 8D AH 2H 3H 4S 6S 9S JD KD 2C 5C")
    assert "8C 8C 8D" not in meld_texts(result.melds)
    assert result.points == 8 + 8 + 8 + 4 + 6 + 9 + 10 + 10 + 2 + 5


def test_counts_double_when_the_winner_is_all_pure_and_the_cap_applies_after():
    rules = RummyRules(max_count=80)
    assert final_count(30, True, rules) == 60
    assert final_count(50, True, rules) == 80
    assert final_count(50, False, RummyRules()) == 50


def test_two_decks_let_the_same_set_be_laid_twice():
    result = count("AC 2C 3C 4C AC 2C 3C 5C 5D 5H 5C 5D 5H")
    assert result.points == 0
    assert meld_texts(result.melds).count("5C 5D 5H") == 2


def test_a_loser_may_leave_out_the_same_set_twice_beside_two_sequences():
    result = count("2C 3C 4C 5C AC 2C 3C 8C 8D 8H 8C 8D 8H", jokers=0)
    assert result.points == 0
    assert meld_texts(result.melds) == ["2C 3C 4C 5C", "8C 8D 8H", "8C 8D 8H", "AC 2C 3C"]
