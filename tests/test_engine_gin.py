"""Gin Rummy hands checked by hand: knock, gin, Big Gin, undercut, layoffs, variants, bonuses."""

import pytest

from games.engine.cards import CardError, parse_hand
from games.engine.gin import (
    BIG_GIN,
    DRAWN,
    GIN,
    KNOCK,
    UNDERCUT,
    GinRules,
    arrangements,
    command_answer,
    deadwood,
    deadwood_of_mask,
    defender_play,
    final_lines,
    game_over,
    hand_mask,
    score_hand,
)
from games.engine.kinds import GIN as GIN_RUMMY
from games.engine.score_line import score_request as score_line

# Deadwood 4 (the 4D); melds A-3H, three 5s, 9-J of clubs.
KNOCKER_4 = "AH 2H 3H 5S 5D 5C 9C 10C JC 4D"
# Nothing of it can be laid off on KNOCKER_4's melds; 71 deadwood.
DEFENDER_71 = "KS QS 2S 3S 7D 8H 8S 6C 7C KH"
GIN_HAND = "AH 2H 3H 5S 5D 5C 9C 10C JC QC"
# 6-8H meld; 4H would go on A-3H, but not against gin: 44 deadwood.
DEFENDER_44 = "4H 6H 7H KS QS 2S 3S 7D 8H 8S"
# Two layouts of deadwood 6: three 3s (2H 4H left) or 2-4H (3S 3D left).
KNOCKER_TWO_WAYS = "2H 3H 4H 3S 3D 9C 10C JC QC KC"
DEFENDER_TWO_WAYS = "3C 5H 6H 8S 9S KD QD 2S 7D 8D"


def score_request(request):
    """A `"game": "gin"` line of score_hands, as the command reads it."""
    return score_line({"game": "gin", **request})


def texts(cards):
    return [str(card) for card in cards]


def meld_texts(melds):
    return [" ".join(texts(meld)) for meld in melds]


def layoff_texts(layoffs):
    return [(str(card), index) for card, index in layoffs]


# ---------------------------------------------------------------- deadwood


def test_deadwood_is_what_the_best_melds_leave():
    assert deadwood(parse_hand("AH 2H 3H 4H 7S 7D 7C 9D KS QS")) == 29


def test_face_cards_cost_ten_and_an_ace_one():
    assert deadwood(parse_hand("KS QH JD 10C AS 2D 4H 6C 8S 9D")) == 70


def test_queen_king_ace_is_not_a_run():
    assert deadwood(parse_hand("QH KH AH 2S 4S 6S 8S 10C 3D 5D")) == 21 + 20 + 18


def test_a_card_goes_to_the_set_or_the_run_that_leaves_less():
    # 7H in 5-7H leaves 7S 7D (14); in the three 7s it leaves 5H 6H (11).
    assert deadwood(parse_hand("5H 6H 7H 7S 7D 2C 4C 9C JC KC")) == 11 + 2 + 4 + 9 + 10 + 10


def test_four_of_a_rank_give_one_to_a_run():
    hand = parse_hand("5S 5D 5C 5H 6H 7H 2C 9D JS KD")
    assert deadwood(hand) == 2 + 9 + 10 + 10
    assert deadwood_of_mask(hand_mask(hand)) == deadwood(hand)


def test_a_hand_with_a_card_twice_is_refused():
    with pytest.raises(CardError, match=r"7H \(7 of hearts\) appears twice"):
        deadwood(parse_hand("7H 7H 8H"))


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("AH 2H 3H 5S 5D 5C 9C 10C JC 9C", r"9C \(9 of clubs\) appears twice in this hand"),
        ("KS KS KS KS KS KS KS KS KS KS", r"KS \(King of spades\) appears twice in this hand"),
        ("AH 2H 3H 5S 5D 5C 9C 10C JC JK", r"JK \(Joker\) is not in a Gin Rummy deck"),
        ("AH 2H 3H 5S 5D 5C 9C 10C JC 7X", r"7X \(7 of stars\) is not in a Gin Rummy deck"),
    ],
)
def test_a_hand_of_ten_names_the_card_it_refuses(hand, message):
    with pytest.raises(CardError, match=message):
        deadwood(parse_hand(hand))


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # Three 9s and three Ks, none of them in a run: both sets, 1 + 2 + 4 + 6 left.
        ("9C 9D 9H KS KD KH AC 2D 4H 6S", 13),
        # Three 5s and three 8s; 5H could sit in 4-6H instead: the 5s as a set leave 4H 6H,
        # the run leaves 5S 5D (10 either way); the 8s are a set; 2C QD are left.
        ("5S 5D 5H 4H 6H 8C 8D 8S 2C QD", 10 + 2 + 10),
        # Four 7s with 8-9H: the run takes 7H, the other three 7s are a set.
        ("7S 7D 7C 7H 8H 9H AC 2C KD QS", 1 + 2 + 10 + 10),
        # Eleven cards take the general path.
        ("AH 2H 3H 5S 5D 5C 9C 10C JC 4D KS", 4 + 10),
    ],
)
def test_deadwood_weighs_ranks_held_three_or_four_times(hand, expected):
    cards = parse_hand(hand)
    assert deadwood(cards) == expected
    assert deadwood_of_mask(hand_mask(cards)) == expected


def test_a_long_run_is_laid_as_one_meld():
    (layout,) = arrangements(parse_hand("2S 3S 4S 5S 6S 7S 8S 9S KD QD"))
    assert meld_texts(layout.melds) == ["2S 3S 4S 5S 6S 7S 8S 9S"]
    assert layout.points == 20


def test_layouts_of_equal_deadwood_are_all_listed():
    layouts = arrangements(parse_hand(KNOCKER_TWO_WAYS))
    assert [a.points for a in layouts] == [6, 6]
    assert [meld_texts(a.melds) for a in layouts] == [
        ["3D 3H 3S", "9C 10C JC QC KC"],
        ["2H 3H 4H", "9C 10C JC QC KC"],
    ]


def test_four_of_a_rank_may_be_a_set_of_four_or_give_one_to_a_run():
    layouts = arrangements(parse_hand("5H 6H 7H 8H 8S 8D 8C 2C 3D AS"))
    assert sorted(meld_texts(a.melds) for a in layouts) == [
        ["5H 6H 7H", "8C 8D 8H 8S"],
        ["5H 6H 7H 8H", "8C 8D 8S"],
    ]


# ---------------------------------------------------------------- results


def test_a_knock_scores_the_difference():
    hand = score_hand(KNOCKER_4, DEFENDER_71)
    assert (hand.result, hand.scorer, hand.points) == (KNOCK, "knocker", 67)
    assert hand.knocker.points == 4 and hand.defender.deadwood == 71
    assert texts(hand.knocker.unmelded) == ["4D"]
    assert hand.knock_limit == 10 and not hand.doubled


def test_gin_scores_the_defenders_deadwood_and_the_gin_bonus():
    hand = score_hand(GIN_HAND, DEFENDER_44)
    assert (hand.result, hand.scorer, hand.points) == (GIN, "knocker", 44 + 25)


def test_nothing_is_laid_off_against_gin():
    hand = score_hand(GIN_HAND, DEFENDER_44)
    assert hand.defender.layoffs == ()
    assert "4H" in texts(hand.defender.unmelded)
    assert meld_texts(hand.defender.melds) == ["6H 7H 8H"]


def test_the_gin_bonus_can_be_twenty():
    assert score_hand(GIN_HAND, DEFENDER_44, GinRules(gin_bonus=20)).points == 44 + 20


def test_big_gin_melds_all_eleven_cards():
    hand = score_hand(GIN_HAND + " KC", DEFENDER_44)
    assert (hand.result, hand.points) == (BIG_GIN, 44 + 31)
    assert hand.defender.layoffs == ()


def test_big_gin_bonus_fifty():
    assert score_hand(GIN_HAND + " KC", DEFENDER_44, GinRules(big_gin_bonus=50)).points == 94


def test_big_gin_off_scores_as_gin():
    hand = score_hand(GIN_HAND + " KC", DEFENDER_44, GinRules(big_gin_bonus=None))
    assert (hand.result, hand.points) == (GIN, 44 + 25)


def test_eleven_cards_that_do_not_all_meld_are_refused():
    with pytest.raises(CardError, match=r"only for Big Gin.*\(14 deadwood\)"):
        score_hand(KNOCKER_4 + " KC", DEFENDER_44)


def test_the_defender_undercuts_with_less_deadwood():
    # Knocker 8 (the 8D); the defender melds all but the 7S.
    hand = score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC 8D", "2S 3S 4S 6C 6H 6D KD QD JD 7S")
    assert (hand.result, hand.scorer, hand.points) == (UNDERCUT, "defender", 1 + 25)


def test_equal_deadwood_is_an_undercut():
    hand = score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC 8D", "2S 3S 4S 6C 6H 6D KD QD JD 8S")
    assert (hand.result, hand.scorer, hand.points) == (UNDERCUT, "defender", 25)


def test_the_undercut_bonus_is_an_option():
    rules = GinRules(undercut_bonus=10)
    hand = score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC 8D", "2S 3S 4S 6C 6H 6D KD QD JD 8S", rules)
    assert hand.points == 10


def test_a_drawn_hand_scores_nothing():
    hand = score_hand(None, "")
    assert (hand.result, hand.scorer, hand.points) == (DRAWN, None, 0)


def test_a_knock_without_the_knockers_cards_is_refused():
    with pytest.raises(CardError, match="knocker's cards are missing"):
        score_hand("", DEFENDER_44)


# ---------------------------------------------------------------- layoffs


def test_cards_are_laid_off_one_after_another_at_both_ends_of_a_run():
    hand = score_hand("5H 6H 7H JS JD JC 2C 3C 4C AS", "3H 4H 8H 9H KS QS KD 2D 9S 7C")
    assert meld_texts(hand.knocker.melds) == ["2C 3C 4C", "5H 6H 7H", "JC JD JS"]
    assert layoff_texts(hand.defender.layoffs) == [("4H", 1), ("3H", 1), ("8H", 1), ("9H", 1)]
    assert hand.defender.deadwood == 48
    assert (hand.result, hand.points) == (KNOCK, 47)


def test_a_fourth_card_is_laid_off_on_a_set_of_three():
    hand = score_hand("JS JD JC 2C 3C 4C 5H 6H 7H AS", "JH KS QS KD 2D 9S 7C 8D 3S 5S")
    assert layoff_texts(hand.defender.layoffs) == [("JH", 2)]
    assert hand.defender.deadwood == 64
    assert hand.points == 63


def test_a_card_may_be_better_laid_off_than_melded():
    # 8H in 8-10H leaves 10S 10D; laid on the 8s it lets 10H 10S 10D meld and leaves the 9H.
    hand = score_hand("8S 8D 8C AC 2C 3C 4C 5C 6C AH", "8H 9H 10H 10S 10D 2H 3S 4D 6D 7D")
    assert layoff_texts(hand.defender.layoffs) == [("8H", 1)]
    assert meld_texts(hand.defender.melds) == ["10D 10H 10S"]
    assert hand.defender.deadwood == 9 + 2 + 3 + 4 + 6 + 7
    assert hand.points == 31 - 1


def test_a_card_may_be_better_melded_than_laid_off():
    # 4H fits the knocker's A-3H, but 4H 4S 4D as a set saves more than the 4H alone.
    play = defender_play(parse_hand("4H 4S 4D 5H 6S 9C"), [parse_hand("3H AH 2H")])
    assert play.layoffs == ()
    assert play.deadwood == 5 + 6 + 9


def test_the_knocker_lays_down_the_layout_that_leaves_the_defender_most():
    hand = score_hand(KNOCKER_TWO_WAYS, DEFENDER_TWO_WAYS)
    # Three 3s take only the 3C; 2-4H would take the 5H and 6H.
    assert hand.chosen == 0
    assert meld_texts(hand.knocker.melds) == ["3D 3H 3S", "9C 10C JC QC KC"]
    assert layoff_texts(hand.defender.layoffs) == [("3C", 0)]
    assert (hand.defender.deadwood, hand.points) == (65, 59)


def test_the_table_can_score_the_layout_actually_laid_down():
    best = score_hand(KNOCKER_TWO_WAYS, DEFENDER_TWO_WAYS)
    assert best.choice_matters
    assert [(c.defender.deadwood, c.points) for c in best.choices] == [(65, 59), (57, 51)]
    laid = score_hand(KNOCKER_TWO_WAYS, DEFENDER_TWO_WAYS, laid_down=1)
    assert laid.chosen == 1
    assert meld_texts(laid.knocker.melds) == ["2H 3H 4H", "9C 10C JC QC KC"]
    assert layoff_texts(laid.defender.layoffs) == [("5H", 0), ("6H", 0)]
    assert laid.points == 51


def test_a_layout_that_is_not_listed_cannot_be_laid_down():
    with pytest.raises(CardError, match="laid_down must be from 0 to 1, not 2"):
        score_hand(KNOCKER_TWO_WAYS, DEFENDER_TWO_WAYS, laid_down=2)


def test_layouts_that_end_the_same_do_not_ask_the_table():
    assert not score_hand(GIN_HAND, DEFENDER_44).choice_matters


# ---------------------------------------------------------------- variants


def test_a_knock_over_ten_is_refused_naming_the_deadwood_and_the_limit():
    with pytest.raises(
        CardError, match="not a legal knock: 14 deadwood, and the knock limit is 10"
    ):
        score_hand("AH 2H 3H 4H 9C 10C JC QC 4D KD", DEFENDER_71)


def test_oklahoma_upcard_sets_the_knock_limit():
    rules = GinRules(variant="oklahoma")
    assert score_hand(KNOCKER_4, DEFENDER_71, rules, upcard="7H").knock_limit == 7
    with pytest.raises(CardError, match="4 deadwood, and the knock limit is 3"):
        score_hand(KNOCKER_4, DEFENDER_71, rules, upcard="3D")


def test_oklahoma_face_card_upcard_allows_ten():
    rules = GinRules(variant="oklahoma")
    assert score_hand(KNOCKER_4, DEFENDER_71, rules, upcard="QH").knock_limit == 10


def test_oklahoma_ace_upcard_means_gin_only():
    rules = GinRules(variant="oklahoma")
    with pytest.raises(CardError, match=r"4 deadwood, and the knock limit is 0 \(gin only\)"):
        score_hand(KNOCKER_4, DEFENDER_71, rules, upcard="AD")
    assert score_hand(GIN_HAND, DEFENDER_44, rules, upcard="AD").result == GIN


def test_oklahoma_spade_upcard_doubles_the_score_bonuses_included():
    rules = GinRules(variant="oklahoma")
    hand = score_hand(GIN_HAND, DEFENDER_44, rules, upcard="9S")
    assert hand.doubled and hand.points == (44 + 25) * 2
    undercut = score_hand(
        "AH 2H 3H 5S 5D 5C 9C 10C JC 8D", "2S 3S 4S 6C 6H 6D KD QD JD 8S", rules, upcard="10S"
    )
    assert (undercut.result, undercut.points) == (UNDERCUT, 50)


def test_oklahoma_upcard_may_be_in_a_hand():
    rules = GinRules(variant="oklahoma")
    assert score_hand(KNOCKER_4, DEFENDER_71, rules, upcard="5S").points == 67 * 2


def test_oklahoma_needs_the_upcard():
    with pytest.raises(CardError, match="Oklahoma needs the upcard"):
        score_hand(KNOCKER_4, DEFENDER_71, GinRules(variant="oklahoma"))


def test_oklahoma_upcard_must_be_a_card_of_the_deck():
    with pytest.raises(CardError, match=r"JK \(Joker\) is not in a Gin Rummy deck"):
        score_hand(KNOCKER_4, DEFENDER_71, GinRules(variant="oklahoma"), upcard="JK")


def test_the_upcard_is_ignored_outside_oklahoma():
    hand = score_hand(KNOCKER_4, DEFENDER_71, upcard="AS")
    assert (hand.knock_limit, hand.doubled, hand.points) == (10, False, 67)


def test_straight_gin_refuses_a_knock():
    with pytest.raises(CardError, match=r"4 deadwood, and the knock limit is 0 \(gin only\)"):
        score_hand(KNOCKER_4, DEFENDER_71, GinRules(variant="straight"))


def test_straight_gin_accepts_gin():
    hand = score_hand(GIN_HAND, DEFENDER_44, GinRules(variant="straight"))
    assert (hand.result, hand.points) == (GIN, 69)


# ---------------------------------------------------------------- refusals


def test_a_joker_is_refused():
    with pytest.raises(CardError, match=r"JK \(Joker\) is not in a Gin Rummy deck"):
        score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC JK", DEFENDER_71)


def test_a_five_crowns_star_is_refused():
    with pytest.raises(CardError, match=r"7X \(7 of stars\) is not in a Gin Rummy deck"):
        score_hand(KNOCKER_4, "KS QS 2S 3S 7D 8H 8S 6C 7C 7X")


def test_a_card_in_both_hands_is_refused():
    with pytest.raises(CardError, match=r"7D \(7 of diamonds\) is in both hands"):
        score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC 7D", DEFENDER_71)


def test_a_card_twice_in_one_hand_is_refused():
    with pytest.raises(CardError, match=r"KS \(King of spades\) appears twice in the defender"):
        score_hand(KNOCKER_4, "KS KS 2S 3S 7D 8H 8S 6C 7C KH")


def test_a_knocker_with_nine_cards_is_refused():
    with pytest.raises(CardError, match="knocker holds 10 cards .11 for Big Gin.; this hand has 9"):
        score_hand("AH 2H 3H 5S 5D 5C 9C 10C JC", DEFENDER_71)


def test_a_defender_with_twelve_cards_is_refused():
    with pytest.raises(CardError, match="defender holds 10 cards; this hand has 12"):
        score_hand(KNOCKER_4, DEFENDER_71 + " 4S 9S")


def test_rules_outside_their_choices_are_refused():
    with pytest.raises(CardError, match="gin_bonus"):
        GinRules(gin_bonus=30)
    with pytest.raises(CardError, match="target must be between 50 and 1000"):
        GinRules(target=40)
    with pytest.raises(CardError, match="variant"):
        GinRules(variant="hollywood")
    assert GinRules(big_gin_bonus=None, target=250).target == 250


# ---------------------------------------------------------------- score_hands answers


def test_score_request_answers_in_the_rules_md_shape():
    answer = score_request(
        {
            "game": "gin",
            "knocker": "5H 6H 7H JS JD JC 2C 3C 4C AS",
            "defender": "3H 4H 8H 9H KS QS KD 2D 9S 7C",
        }
    )
    assert answer == {
        "ok": True,
        "result": "knock",
        "scorer": "knocker",
        "points": 47,
        "knocker": {
            "melds": [["2C", "3C", "4C"], ["5H", "6H", "7H"], ["JC", "JD", "JS"]],
            "deadwood": 1,
            "unmelded": ["AS"],
        },
        "defender": {
            "melds": [],
            "layoffs": [["4H", 1], ["3H", 1], ["8H", 1], ["9H", 1]],
            "deadwood": 48,
            "unmelded": ["7C", "2D", "KD", "9S", "QS", "KS"],
        },
    }


def test_score_request_reads_the_rules_and_the_upcard():
    answer = score_request(
        {
            "knocker": GIN_HAND + " KC",
            "defender": DEFENDER_44,
            "upcard": "2S",
            "rules": {"variant": "oklahoma", "big_gin_bonus": None},
        }
    )
    assert (answer["result"], answer["points"]) == ("gin", 138)


def test_score_request_refuses_an_illegal_knock_with_numbers():
    answer = score_request({"knocker": "AH 2H 3H 4H 9C 10C JC QC 4D KD", "defender": DEFENDER_71})
    assert answer == {
        "ok": False,
        "error": "not a legal knock: 14 deadwood, and the knock limit is 10",
    }


@pytest.mark.parametrize(
    "request_",
    [
        {"drawn": True},
        {"result": "drawn", "knocker": KNOCKER_4, "defender": DEFENDER_71},
        {"knocker": None, "defender": ""},
        {},
    ],
)
def test_score_request_answers_a_drawn_hand(request_):
    assert score_request(request_) == {"ok": True, "result": "drawn", "scorer": None, "points": 0}


def test_score_request_names_a_missing_knocker():
    answer = score_request({"defender": DEFENDER_71})
    assert not answer["ok"] and answer["error"].startswith('"knocker" is missing')


def test_score_request_refuses_unknown_rules():
    answer = score_request({"knocker": KNOCKER_4, "defender": DEFENDER_71, "rules": {"x": 1}})
    assert answer == {"ok": False, "error": "unknown Gin Rummy rule: x"}


def test_command_answer_is_score_requests_answer_without_ok():
    request = {"knocker": KNOCKER_4, "defender": DEFENDER_71, "rules": {"undercut_bonus": 10}}
    answer = score_request(request)
    assert answer.pop("ok") is True
    assert command_answer(request, GinRules(undercut_bonus=10)) == answer
    drawn = command_answer({"drawn": True}, GinRules())
    assert drawn == {"result": "drawn", "scorer": None, "points": 0}


def test_command_answer_scores_under_the_rules_it_is_given():
    # The request's own "rules" (gin bonus 20) are the caller's to read, not command_answer's.
    request = {"knocker": GIN_HAND, "defender": DEFENDER_44, "rules": {"gin_bonus": 20}}
    assert command_answer(request, GinRules())["points"] == 44 + 25
    assert score_request(request)["points"] == 44 + 20


def test_command_answer_raises_what_score_request_reports():
    request = {"knocker": "AH 2H 3H 4H 9C 10C JC QC 4D KD", "defender": DEFENDER_71}
    with pytest.raises(CardError, match="^not a legal knock: 14 deadwood, and the knock limit"):
        command_answer(request, GinRules())
    with pytest.raises(CardError, match='^"defender" is missing'):
        command_answer({"knocker": KNOCKER_4}, GinRules())


def test_score_request_needs_the_upcard_in_oklahoma():
    answer = score_request(
        {"knocker": KNOCKER_4, "defender": DEFENDER_71, "rules": {"variant": "oklahoma"}}
    )
    assert not answer["ok"] and "upcard" in answer["error"]


# ---------------------------------------------------------------- the game


def test_the_game_ends_when_a_player_reaches_the_target():
    rules = GinRules()
    assert not game_over([99, 60], rules)
    assert game_over([100, 60], rules)
    assert game_over([60, 131], rules)
    assert not game_over([120, 60], GinRules(target=150))


def test_equal_totals_at_the_top_play_on():
    assert not game_over([105, 105], GinRules())


def test_the_winner_takes_the_game_bonus_and_each_player_a_box_per_hand_won():
    lines = final_lines([112, 70], [4, 3], GinRules())
    assert lines == [
        [("Game bonus", 100), ("Box bonus: 4 hands won × 25", 100)],
        [("Box bonus: 3 hands won × 25", 75)],
    ]


def test_a_shutout_doubles_the_game_bonus():
    lines = final_lines([40, 104], [0, 3], GinRules(box_bonus=20))
    assert lines == [
        [],
        [
            ("Game bonus", 100),
            ("Shutout: game bonus doubled", 100),
            ("Box bonus: 3 hands won × 20", 60),
        ],
    ]


def test_a_shutout_need_not_double():
    lines = final_lines([0, 104], [0, 1], GinRules(shutout_doubles=False, box_bonus=0))
    assert lines == [[], [("Game bonus", 100)]]


def test_a_shutout_counts_hands_won_not_points():
    # The loser scored by an undercut, so this is no shutout.
    lines = final_lines([26, 101], [1, 4], GinRules())
    assert ("Shutout: game bonus doubled", 100) not in lines[1]
    assert lines[0] == [("Box bonus: 1 hand won × 25", 25)]


def test_equal_totals_give_no_game_bonus():
    assert final_lines([100, 100], [2, 3], GinRules()) == [
        [("Box bonus: 2 hands won × 25", 50)],
        [("Box bonus: 3 hands won × 25", 75)],
    ]


def test_the_winner_of_a_hand_deals_the_next_and_a_drawn_hand_is_dealt_again():
    # Seat 0 dealt; seat 1 won 25: seat 1 deals. Seat 0 won: seat 0 again. Drawn: the same.
    assert GIN_RUMMY.next_dealer([0, 1], 0, {0, 1}, {0: 0, 1: 25}) == 1
    assert GIN_RUMMY.next_dealer([0, 1], 0, {0, 1}, {0: 31, 1: 0}) == 0
    assert GIN_RUMMY.next_dealer([0, 1], 1, {0, 1}, {0: 0, 1: 0}) == 1
