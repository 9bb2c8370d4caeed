"""The Gin Rummy engine against the slow reference in tests/gin_reference.py, on generated
hands: random deals, meld-dense deals and knockers one card from a legal knock."""

import os
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine.cards import SUITS, Card, CardError
from games.engine.gin import (
    GinRules,
    arrangements,
    deadwood,
    deadwood_of_mask,
    defender_play,
    hand_mask,
    score_hand,
)
from tests import gin_reference as reference

# PROPERTY_EXAMPLES raises the count for a long bug hunt; CI uses the default.
PROPERTY = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)

DECK = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def cards_of(ranks) -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in ranks]


@st.composite
def hands(draw, size=10, dense=False):
    """A hand: random, or drawn from the cards of three or four neighbouring ranks."""
    if dense:
        width = draw(st.integers(3, 4))
        low = draw(st.integers(1, 14 - width))
        pool = cards_of(range(low, low + width))
    else:
        pool = DECK
    size = min(size, len(pool))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


@st.composite
def near_knocks(draw):
    """Melds laid first, then a few loose cards: a knocker at or near the knock limit."""
    size = draw(st.sampled_from([10, 10, 10, 11]))
    melded = draw(st.integers(7, size))
    cards: list[Card] = []
    while len(cards) < melded:
        if draw(st.booleans()):
            rank = draw(st.integers(1, 13))
            count = draw(st.integers(3, 4))
            meld = [Card(rank, suit) for suit in draw(st.permutations(SUITS))[:count]]
        else:
            suit = draw(st.sampled_from(SUITS))
            count = draw(st.integers(3, 5))
            start = draw(st.integers(1, 14 - count))
            meld = [Card(rank, suit) for rank in range(start, start + count)]
        cards += [card for card in meld if card not in cards]
    cards = cards[:melded]
    rest = [card for card in DECK if card not in cards]
    loose = size - melded
    return cards + draw(
        st.lists(st.sampled_from(rest), min_size=loose, max_size=loose, unique=True)
    )


@st.composite
def deals(draw, kind="random"):
    """(knocker, defender): two hands of one deck. Meld-dense: the knocker holds 10 of the 16
    cards of four neighbouring ranks, the defender the other 6 and those of the ranks beside."""
    if kind == "near":
        knocker = draw(near_knocks())
        pool = [card for card in DECK if card not in knocker]
    elif kind == "dense":
        low = draw(st.integers(1, 10))
        knocker = draw(
            st.lists(
                st.sampled_from(cards_of(range(low, low + 4))),
                min_size=10,
                max_size=10,
                unique=True,
            )
        )
        beside = cards_of(range(max(1, low - 1), min(13, low + 4) + 1))
        pool = [card for card in beside if card not in knocker]
    else:
        knocker = draw(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
        pool = [card for card in DECK if card not in knocker]
    defender = draw(st.lists(st.sampled_from(pool), min_size=10, max_size=10, unique=True))
    return knocker, defender


@st.composite
def table_rules(draw):
    rules = GinRules(
        gin_bonus=draw(st.sampled_from([20, 25])),
        undercut_bonus=draw(st.sampled_from([10, 20, 25])),
        big_gin_bonus=draw(st.sampled_from([31, 50, None])),
        variant=draw(st.sampled_from(["standard", "standard", "oklahoma", "straight"])),
    )
    return rules, draw(st.sampled_from(DECK))


def check_deadwood(hand):
    expected = reference.least_deadwood(hand)
    assert deadwood(hand) == expected
    assert deadwood_of_mask(hand_mask(hand)) == expected


def check_arrangements(hand):
    layouts = arrangements(hand)
    least = reference.least_deadwood(hand)
    for layout in layouts:
        assert layout.points == least
        laid = [card for meld in layout.melds for card in meld] + list(layout.unmelded)
        assert Counter(laid) == Counter(hand)
        assert all(reference.is_meld(meld) for meld in layout.melds)
        assert sum(reference.value(card) for card in layout.unmelded) == least
    ours = {frozenset(tuple(sorted(meld)) for meld in layout.melds) for layout in layouts}
    assert len(ours) == len(layouts)
    expected = {reference.merged(layout) for layout in reference.least_layouts(hand)}
    assert ours == expected


def check_defender(knocker, defender):
    for layout in arrangements(knocker):
        play = defender_play(defender, layout.melds)
        assert play.deadwood == reference.defender_deadwood(defender, layout.melds)
        # The play shown is a real one: layoffs in order onto the melds, then own melds.
        melds = [list(meld) for meld in layout.melds]
        for card, index in play.layoffs:
            assert reference.is_meld(melds[index] + [card])
            melds[index].append(card)
        laid = [card for card, _ in play.layoffs]
        shown = laid + [card for meld in play.melds for card in meld] + list(play.unmelded)
        assert Counter(shown) == Counter(defender)
        assert all(reference.is_meld(meld) for meld in play.melds)
        assert sum(reference.value(card) for card in play.unmelded) == play.deadwood


def check_hand(knocker, defender, rules, upcard):
    expected = reference.hand_result(knocker, defender, rules, upcard)
    event("refused" if expected is None else expected["result"])
    try:
        hand = score_hand(knocker, defender, rules, upcard)
    except CardError as error:
        assert expected is None, f"refused ({error}) but the reference scores {expected}"
        return
    assert expected is not None, f"scored {hand.result} but the reference refuses the knock"
    assert {
        "result": hand.result,
        "scorer": hand.scorer,
        "points": hand.points,
        "knocker_deadwood": hand.knocker.points,
        "defender_deadwood": hand.defender.deadwood,
    } == expected
    assert hand.defender.deadwood == max(c.defender.deadwood for c in hand.choices)


@PROPERTY
@given(st.one_of(hands(), hands(11), hands(dense=True), hands(11, dense=True)))
def test_deadwood_matches_the_reference(hand):
    check_deadwood(hand)


@PROPERTY
@given(st.one_of(hands(), hands(dense=True), hands(11, dense=True)))
def test_every_least_layout_is_found_and_no_other(hand):
    check_arrangements(hand)


@PROPERTY
@given(st.one_of(deals("near"), deals("dense")))
def test_the_defender_deadwood_after_layoffs_matches_every_layoff_order(deal):
    check_defender(*deal)


@PROPERTY
@given(deals("near"), table_rules())
def test_a_near_knock_scores_as_the_reference_does(deal, rules_and_upcard):
    check_hand(*deal, *rules_and_upcard)


@PROPERTY
@given(deals("dense"), table_rules())
def test_a_meld_dense_hand_scores_as_the_reference_does(deal, rules_and_upcard):
    check_hand(*deal, *rules_and_upcard)


@PROPERTY
@given(deals("random"), table_rules())
def test_a_random_deal_scores_or_is_refused_as_the_reference_says(deal, rules_and_upcard):
    check_hand(*deal, *rules_and_upcard)
