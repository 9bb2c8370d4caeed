"""A hand's score is kept once worked out (a save scores again what its phone's scoring request
just scored): the same entry gives an equal score, never the kept object itself, so what one
caller does with its score never reaches the next."""

from games.engine.kinds import KINDS, _scored
from games.engine.outcomes import CARDS, WENT_OUT
from games.engine.rummy13 import RummyRules

HAND = "AH 2H 3H 4S 5S 6S 7D 8D 9D TC JC QC KS"


def test_the_same_entry_scored_again_is_equal_and_a_copy():
    rummy, rules = KINDS["rummy13"], RummyRules()
    first = rummy.score(CARDS, HAND, 1, rules)
    hits = _scored.cache_info().hits
    second = rummy.score(CARDS, HAND, 1, rules)
    assert _scored.cache_info().hits == hits + 1
    assert second == first and second is not first
    assert second == rummy.score_afresh(CARDS, HAND, 1, rules)
    first.points = 999
    first.melds[0].append("XX")
    first.reasons.append("changed by a caller")
    first.cards.clear()
    third = rummy.score(CARDS, HAND, 1, rules)
    assert third == second and third.points != 999 and third.cards


def test_entries_that_differ_in_any_part_are_scored_each_on_its_own():
    rummy, rules = KINDS["rummy13"], RummyRules()
    counted = rummy.score(CARDS, HAND, 1, rules)
    other_cards = HAND.replace("KS", "KC")
    assert rummy.score(CARDS, other_cards, 1, rules).points != counted.points
    assert rummy.score(WENT_OUT, HAND, 1, rules).error != counted.error
    no_jokers = RummyRules(jokers=0)
    assert rummy.score(CARDS, HAND, 1, no_jokers) == rummy.score_afresh(CARDS, HAND, 1, no_jokers)


def test_an_entry_with_a_value_that_cannot_be_kept_is_still_scored():
    gin = KINDS["three-thirteen"]
    rules = gin.rules_from({})
    assert gin.score(CARDS, "3H 4H 5H", 1, rules, None, {"odd": ["a", "list"]}) == gin.score_afresh(
        CARDS, "3H 4H 5H", 1, rules
    )
