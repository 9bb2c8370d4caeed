"""Why a hand counts what it does, as the engine says it in the rules' words: the limits of a
Rummy loser's count, what each wild card stands for, what a wild card left over costs."""

from games.engine import KINDS, HandInRound
from games.engine.arrangement import Arrangement
from games.engine.cards import parse_hand
from games.engine.wilds import roles, wild_reasons

RUMMY = KINDS["rummy13"]
THREE_THIRTEEN = KINDS["three-thirteen"]
FIVE_CROWNS = KINDS["five-crowns"]
GIN = KINDS["gin"]


def reasons(kind, cards, number=1, outcome="cards", **rules):
    scored = kind.score(outcome, cards, number, kind.rules_class(**rules))
    assert scored.error is None, scored.error
    return scored.reasons


def test_a_rummy_loser_without_a_pure_sequence_counts_every_card():
    assert reasons(RUMMY, "7C 7H 7S KC KD KS 2H 5D 9S 10C JD 4S 6H") == [
        "No pure sequence: every card counts"
    ]


def test_a_third_set_stays_in_the_count():
    assert reasons(RUMMY, "2H 3H 4H 7C 7H 7S KC KD KS 5C 5D 5S 9D") == ["Only two sets come off"]


def test_a_fourth_three_card_meld_stays_in_the_count():
    assert reasons(RUMMY, "2H 3H 4H 5C 6C 7C 8D 9D 10D JS QS KS 9H") == [
        "Only four melds come off: one sequence of 4 cards and three melds of 3"
    ]


def test_a_count_with_nothing_held_back_has_no_reason():
    assert reasons(RUMMY, "2H 3H 4H 5H 7C 7D 7S KC KD KS 9D 4S 6H") == []


def test_a_rummy_joker_left_over_counts_nothing_and_one_in_a_meld_stands_for_its_card():
    said = reasons(RUMMY, "2H 3H JK 7C 7H KC KD KS 5C 9D 10S QH 4S")
    assert said == ["No pure sequence: every card counts", "JK is wild but left over: it counts 0"]
    declared = reasons(RUMMY, "2H 3H 4H 5H 6C 7C JK 9D 10D JD QS QD QC", outcome="went_out")
    assert declared == ["JK stands for 5C"]


def test_the_doubled_and_capped_counts_name_the_winner_and_the_cap():
    rules = RUMMY.rules_class(max_count=80)
    assert RUMMY.hand_reasons("cards", 50, "Maya", rules) == [
        "Doubled: Maya's melds are all pure",
        "Capped at 80: the most one deal counts",
    ]
    assert RUMMY.hand_reasons("cards", 30, None, rules) == []
    assert RUMMY.hand_reasons("went_out", 0, "Maya", rules) == []
    assert THREE_THIRTEEN.hand_reasons("cards", 30, "Maya", THREE_THIRTEEN.rules_class()) == []


def test_a_wild_card_stands_for_the_card_of_its_place_in_a_run_and_the_rank_of_a_set():
    wild = lambda card: card.is_joker or card.rank == 7  # noqa: E731
    run = parse_hand("JK 5H 6H 7C")
    assert [(str(w), str(s)) for w, s in roles(run, True, wild)] == [("JK", "4H"), ("7C", "7H")]
    high = parse_hand("QS JK AS")  # an ace after the Queen is the high one
    assert [(str(w), str(s)) for w, s in roles(high, True, wild)] == [("JK", "KS")]
    assert roles(parse_hand("9C 9D JK"), False, wild) == [(parse_hand("JK")[0], 9)]
    laid = Arrangement(0, (tuple(parse_hand("JK 7D 7S")),), (), (False,))
    assert wild_reasons(laid, wild, lambda card: 0) == ["JK 7D 7S: a meld of wild cards only"]


def test_three_thirteen_and_five_crowns_price_a_wild_card_left_over():
    assert reasons(THREE_THIRTEEN, "7C 2D 9S KH 4C QD 5H", number=5) == [
        "7C is wild but left over: it counts 7"
    ]
    assert reasons(FIVE_CROWNS, "3C 5H 8X", number=1) == ["3C is wild but left over: it counts 20"]
    # One natural card and two wild ones: a set of Fives, each wild card a Five.
    assert sorted(reasons(FIVE_CROWNS, "3C 5H JK", number=1)) == [
        "3C stands for a 5",
        "JK stands for a 5",
    ]


def test_gin_says_the_layoffs_and_the_sum_of_a_knock():
    scored = GIN.settle(
        [
            HandInRound("went_out", "5H 6H 7H JS JD JC 2C 3C 4C AS"),
            HandInRound("cards", "3H 4H 8H 9H KS QS KD 2D 9S 7C"),
        ],
        GIN.rules_class(),
    )
    assert scored.report.notes[1:] == [
        "{1} laid off 4H 3H 8H 9H onto {0}'s melds: they do not count",
        "{0} knocked with 1 deadwood and {1} has 48: 48 − 1 = 47",
    ]
