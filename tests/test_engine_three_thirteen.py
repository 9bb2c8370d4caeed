import pytest

from games.engine.cards import CardError, parse_hand
from games.engine.three_thirteen import (
    ThreeThirteenRules,
    arrange,
    cards_in_round,
    default_decks,
    went_out_error,
    wild_rank,
)

DEFAULT = ThreeThirteenRules()


def score(hand, round_number, **options):
    return arrange(parse_hand(hand), round_number, ThreeThirteenRules(**options))


def meld_texts(arrangement):
    return sorted(" ".join(str(c) for c in meld) for meld in arrangement.melds)


def test_round_r_deals_r_plus_2_cards_and_that_rank_is_wild():
    assert [cards_in_round(r) for r in (1, 8, 11)] == [3, 10, 13]
    assert [wild_rank(r) for r in (1, 8, 9, 10, 11)] == [3, 10, 11, 12, 13]


def test_decks_default_from_the_number_of_players():
    assert [default_decks(n) for n in (2, 3, 4, 5, 6, 7, 8)] == [1, 2, 2, 3, 3, 4, 4]


def test_a_hand_of_the_wrong_size_is_refused():
    with pytest.raises(CardError, match="round 2 holds 4 cards; this one has 3"):
        score("5H 6H 7H", 2)


def test_a_run_of_three_melds_completely():
    result = score("5H 6H 7H", 1)
    assert result.points == 0
    assert meld_texts(result) == ["5H 6H 7H"]


def test_a_card_belongs_to_only_one_meld():
    # Seed 003: 5S 6S 7S 6H 6C is a set of sixes or a run of spades, never both.
    result = score("5S 6S 7S 6H 6C 2D 9C KH", 6)
    assert result.points == 12 + 2 + 9 + 10


def test_ace_cannot_sit_between_king_and_two():
    assert score("KH AH 2H 9C 7D 5S", 4).melds == ()
    high = score("KH AH 2H 9C 7D 5S", 4, aces="high_or_low")
    assert high.melds == ()
    assert high.points == 10 + 15 + 2 + 9 + 7 + 5


def test_queen_king_ace_is_a_run_only_when_aces_may_be_high():
    assert score("QH KH AH", 1).points == 21
    high = score("QH KH AH", 1, aces="high_or_low")
    assert high.points == 0
    assert meld_texts(high) == ["QH KH AH"]


def test_an_unmelded_ace_costs_1_or_15():
    assert score("AH 5C 9D", 1).points == 15
    assert score("AH 5C 9D", 1, aces="high_or_low").points == 29


def test_face_cards_cost_ten_or_their_rank():
    assert score("JH QC KD", 1).points == 30
    assert score("JH QC KD", 1, faces="rank").points == 36


def test_two_copies_of_a_card_both_count_in_a_set_with_two_decks():
    result = score("7H 7H 7S", 1)
    assert result.points == 0
    assert meld_texts(result) == ["7H 7H 7S"]


def test_two_copies_of_a_card_are_not_collapsed_into_one():
    # Two runs of the same three cards, two decks; eights are wild in round 6.
    result = score("5H 6H 7H 5H 6H 7H 2C KD", 6, decks=2)
    assert result.points == 12
    assert meld_texts(result) == ["5H 6H 7H", "5H 6H 7H"]


def test_two_identical_runs_both_meld():
    result = score("4H 5H 7H 4H 5H 7H", 4)  # round 4: sixes are wild, none here
    assert result.points == 32
    result = score("4H 5H 6H 4H 5H 6H", 4)  # the sixes are wild: two melds, nothing left
    assert result.points == 0
    assert len(result.melds) == 2


def test_a_wild_fills_a_gap_in_a_run():
    result = score("5H 3S 7H", 1)
    assert result.points == 0
    assert meld_texts(result) == ["5H 3S 7H"]


def test_a_wild_card_used_as_itself_keeps_its_place():
    result = score("2H 3H 4H", 1)
    assert result.points == 0
    assert meld_texts(result) == ["2H 3H 4H"]


def test_an_unmelded_wild_counts_its_own_face_value():
    hand = "AH 4H 7H 10H 2S 5S 8S JS 3D 6D 9D QD KC"  # nothing melds, Kings wild
    assert score(hand, 11).points == 55 + 10 + 10 + 10
    assert score(hand, 11, faces="rank").points == 55 + 11 + 12 + 13


def test_melds_of_wild_cards_only_follow_the_option():
    assert score("3H 3S 3D", 1).points == 0
    refused = score("3H 3S 3D", 1, all_wild_melds=False)
    assert refused.points == 9
    assert refused.melds == ()


def test_a_wild_with_one_natural_is_not_a_meld():
    assert score("3H 9C KD", 1).points == 3 + 9 + 10


def test_two_wilds_make_a_meld_with_any_one_card():
    result = score("4H 4S KD AC", 2)  # fours wild: they meld with the King, the ace is left
    assert result.points == 1
    assert result.unmelded[0].rank == 1


def test_an_unmelded_joker_costs_20():
    result = score("JK AH 5S", 1, jokers=1)
    assert result.points == 20 + 1 + 5


def test_jokers_are_wild():
    result = score("JK 9H 10H", 1, jokers=1)
    assert result.points == 0


def test_a_hand_can_hold_four_melds():
    hand = "AS 2S 3S 4S 5C 5D 5H 8D 9D 10D QC QH QS"
    result = score(hand, 11)  # Kings wild, none held
    assert result.points == 0
    assert len(result.melds) == 4


def test_a_run_may_be_longer_than_three():
    result = score("6C 7C 8C 9C 10C JC", 4)
    assert result.points == 0


def test_went_out_must_meld_completely():
    good = score("5H 6H 7H", 1)
    assert went_out_error(good) is None
    bad = score("5H 6H 8C", 1)
    assert "8C" in went_out_error(bad)


def test_jokers_beyond_those_in_play_are_refused():
    with pytest.raises(CardError, match="no jokers are in play"):
        score("JK 5H 6H", 1)
