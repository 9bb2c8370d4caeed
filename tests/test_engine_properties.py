"""The solver against the slow reference in tests/reference.py, on generated hands."""

import os
from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import five_crowns
from games.engine.cards import FIVE_SUITS, JOKER, SUITS, Card, supply_error
from games.engine.rummy13 import RummyRules, card_value, declaration, loser_arrangement
from games.engine.three_thirteen import ThreeThirteenRules, arrange
from games.engine.three_thirteen import card_value as tt_card_value
from tests import reference

# PROPERTY_EXAMPLES raises the count for a long bug hunt; CI uses the default. The Rummy
# reference tries every exact cover of 13 cards and is slow: its tests take half as many
# (50 of each shape), which keeps the suite under two minutes.
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "100"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
RUMMY_PROPERTY = settings(PROPERTY, max_examples=max(1, EXAMPLES // 2))


def deck(decks: int, jokers: int, ranks=range(1, 14), suits=SUITS) -> list[Card]:
    return [Card(r, s) for s in suits for r in ranks] * decks + [JOKER] * jokers


@st.composite
def three_thirteen_cases(draw, shape="random"):
    round_number = draw(st.integers(1, 8))
    size = round_number + 2
    wild = round_number + 2
    rules = ThreeThirteenRules(
        decks=draw(st.integers(1, 2)),
        aces=draw(st.sampled_from(["low", "high_or_low"])),
        faces=draw(st.sampled_from(["ten", "rank"])),
        jokers=draw(st.integers(0, 2)),
        all_wild_melds=draw(st.booleans()),
    )
    if shape == "dense":
        low = draw(st.integers(1, 11))
        ranks = range(low, low + 3)
        pool = deck(rules.decks, rules.jokers, ranks)
    elif shape == "wild-heavy":
        pool = deck(rules.decks, rules.jokers)
        wilds = [c for c in pool if c.rank == wild or c.is_joker]
        pool = pool + wilds * 3  # drawn more often; supply is checked below
    else:
        pool = deck(rules.decks, rules.jokers)
    assume(len(pool) >= size)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    hand = [pool[i] for i in picks]
    assume(supply_error(Counter(hand), rules.decks, rules.jokers, "") is None)
    return hand, round_number, rules


def check_three_thirteen(hand, round_number, rules):
    result = arrange(hand, round_number, rules)
    expected = reference.tt_penalty(
        hand, round_number + 2, rules.aces, rules.faces, rules.all_wild_melds
    )
    assert result.points == expected
    laid = [card for meld in result.melds for card in meld] + list(result.unmelded)
    assert Counter(laid) == Counter(hand)
    for meld in result.melds:
        assert reference.tt_is_meld(meld, round_number + 2, rules.aces, rules.all_wild_melds)
    assert result.points == sum(tt_card_value(card, rules) for card in result.unmelded)


@PROPERTY
@given(three_thirteen_cases())
def test_three_thirteen_matches_the_reference_on_random_hands(case):
    check_three_thirteen(*case)


@PROPERTY
@given(three_thirteen_cases("dense"))
def test_three_thirteen_matches_the_reference_on_meld_dense_hands(case):
    check_three_thirteen(*case)


@PROPERTY
@given(three_thirteen_cases("wild-heavy"))
def test_three_thirteen_matches_the_reference_on_wild_heavy_hands(case):
    check_three_thirteen(*case)


def _rummy_rules(draw) -> RummyRules:
    return RummyRules(
        decks=2,
        jokers=draw(st.integers(0, 2)),
        wild_rank=draw(st.one_of(st.none(), st.integers(1, 13))),
        all_joker_melds=draw(st.booleans()),
    )


@st.composite
def rummy_cases(draw, shape="random"):
    rules = _rummy_rules(draw)
    if shape == "dense":
        low = draw(st.integers(1, 9))
        pool = deck(2, rules.jokers, range(low, low + 4))
    else:
        pool = deck(2, rules.jokers)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=13, max_size=13, unique=True))
    return [pool[i] for i in picks], rules


@st.composite
def near_winning_rummy_cases(draw):
    """A hand built as a winning layout, then some cards swapped for random ones."""
    rules = _rummy_rules(draw)
    hand = []
    for size in (4, 3, 3, 3):
        suit = draw(st.sampled_from(SUITS))
        if size == 3 and draw(st.booleans()):
            rank = draw(st.integers(1, 13))
            suits = draw(st.permutations(SUITS))[:3]
            hand += [Card(rank, s) for s in suits]
        else:
            start = draw(st.integers(1, 15 - size))
            hand += [Card(1 if p == 14 else p, suit) for p in range(start, start + size)]
    for _ in range(draw(st.integers(0, 3))):
        spot = draw(st.integers(0, 12))
        hand[spot] = draw(
            st.sampled_from(deck(1, 1 if rules.jokers else 0))
            if rules.jokers
            else st.sampled_from(deck(1, 0))
        )
    assume(supply_error(Counter(hand), rules.decks, rules.jokers, "") is None)
    return hand, rules


def check_rummy(hand, rules):
    wild = rules.wild_rank
    loser = loser_arrangement(hand, rules)
    assert loser.points == reference.rummy_loser_count(hand, wild, rules.all_joker_melds)
    laid = [card for meld in loser.melds for card in meld] + list(loser.unmelded)
    assert Counter(laid) == Counter(hand)
    assert loser.points == sum(card_value(card, rules) for card in loser.unmelded)
    for meld in loser.melds:
        assert reference.rummy_kinds(tuple(sorted(meld)), wild, rules.all_joker_melds)

    judged = declaration(hand, rules)
    valid, all_pure = reference.rummy_declaration(hand, wild, rules.all_joker_melds)
    assert (judged.valid, judged.all_pure) == (valid, all_pure)
    if judged.valid:
        melds = judged.arrangement.melds
        assert sorted(len(m) for m in melds) == [3, 3, 3, 4]
        assert Counter(card for meld in melds for card in meld) == Counter(hand)
        for meld in melds:
            kinds = reference.rummy_kinds(tuple(sorted(meld)), wild, rules.all_joker_melds)
            assert kinds
            if judged.all_pure:
                assert ("sequence", True) in kinds
    else:
        assert judged.reason
        assert judged.arrangement.points == loser.points


@RUMMY_PROPERTY
@given(rummy_cases())
def test_rummy_matches_the_reference_on_random_hands(case):
    check_rummy(*case)


@RUMMY_PROPERTY
@given(rummy_cases("dense"))
def test_rummy_matches_the_reference_on_meld_dense_hands(case):
    check_rummy(*case)


@RUMMY_PROPERTY
@given(near_winning_rummy_cases())
def test_rummy_matches_the_reference_on_nearly_winning_hands(case):
    check_rummy(*case)


@st.composite
def five_crowns_cases(draw, shape="random"):
    round_number = draw(st.integers(1, 7))
    size = round_number + 2
    wild = round_number + 2
    rules = five_crowns.FiveCrownsRules(decks=draw(st.integers(1, 2)))
    if shape == "dense":
        low = draw(st.integers(3, 11))
        pool = deck(rules.decks, rules.jokers, range(low, low + 3), FIVE_SUITS)
    elif shape == "wild-heavy":
        pool = deck(rules.decks, rules.jokers, range(3, 14), FIVE_SUITS)
        pool = pool + [c for c in pool if c.rank == wild or c.is_joker] * 3
    else:
        pool = deck(rules.decks, rules.jokers, range(3, 14), FIVE_SUITS)
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    hand = [pool[i] for i in picks]
    assume(supply_error(Counter(hand), rules.decks, rules.jokers, "") is None)
    return hand, round_number, rules


def check_five_crowns(hand, round_number, rules):
    wild = round_number + 2
    result = five_crowns.arrange(hand, round_number, rules)
    assert result.points == reference.fc_penalty(hand, wild)
    laid = [card for meld in result.melds for card in meld] + list(result.unmelded)
    assert Counter(laid) == Counter(hand)
    for meld in result.melds:
        assert reference.fc_is_meld(meld, wild), meld
    assert result.points == sum(five_crowns.card_value(card, wild) for card in result.unmelded)


@PROPERTY
@given(five_crowns_cases())
def test_five_crowns_matches_the_reference_on_random_hands(case):
    check_five_crowns(*case)


@PROPERTY
@given(five_crowns_cases("dense"))
def test_five_crowns_matches_the_reference_on_meld_dense_hands(case):
    check_five_crowns(*case)


@PROPERTY
@given(five_crowns_cases("wild-heavy"))
def test_five_crowns_matches_the_reference_on_wild_heavy_hands(case):
    check_five_crowns(*case)
