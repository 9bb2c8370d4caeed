"""Grouping a table photo's cards into hands by where they lie (games/vision/tables.py):
plain readings in, hands out in the table's order."""

import math
import random
from collections import Counter

import pytest

from games.vision import CardReading, group_hands

REACH = 50.0  # a card's corner-to-centre length, in the photo's pixels
BOTTOM, LEFT, TOP, RIGHT = 90, 180, 270, 0  # where a seat is, seen from the table's middle


def card(name, x, y, reach=REACH):
    return CardReading(name, 0.9, (0, 0, 1, 1), "JK", 0.05, (x, y), reach)


def hand(seat, names, *, step=0.4, distance=6.0, towards_middle=0.0, middle=(600, 600)):
    """Cards in a row (a fan's step is about 0.4 reaches) along the table's edge in front of
    the seat at `seat` degrees from the table's middle (the photo's y runs down: 90 is the
    bottom, 180 the left), `towards_middle` reaches nearer the middle."""
    a = math.radians(seat)
    along = (-math.sin(a), math.cos(a))
    out = distance - towards_middle
    mx, my = middle[0] + out * REACH * math.cos(a), middle[1] + out * REACH * math.sin(a)
    return [
        card(name, mx + (i - (len(names) - 1) / 2) * step * REACH * along[0],
             my + (i - (len(names) - 1) / 2) * step * REACH * along[1])
        for i, name in enumerate(names)
    ]  # fmt: skip


def names(cards):
    return [c.card for c in cards]


def shuffled(cards, seed=1):
    cards = list(cards)
    random.Random(seed).shuffle(cards)
    return cards


def test_four_hands_come_bottom_left_top_right_whatever_order_the_reader_found_them():
    seats = {
        BOTTOM: ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
        LEFT: ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
        TOP: ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
        RIGHT: ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"],
    }
    found = shuffled(c for seat, cards in seats.items() for c in hand(seat, cards))
    table = group_hands(found, 4)
    assert [sorted(names(h)) for h in table.hands] == [
        sorted(seats[seat]) for seat in (BOTTOM, LEFT, TOP, RIGHT)
    ]
    assert table.doubtful == ()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("turned", [0, 25, -25])
def test_each_hand_in_clockwise_order_from_the_one_nearest_the_bottom(players, turned):
    # Seat k sits k steps clockwise (seen from above) from the photographer's, the table
    # a little turned in the photo; each holds a hand of seven, fanned.
    found = []
    for seat in range(players):
        degrees = BOTTOM + turned / players + seat * 360 / players
        found += hand(degrees, [f"{seat}-{i}" for i in range(7)], distance=7)
    table = group_hands(shuffled(found, players), players)
    assert len(table.hands) == players
    assert [sorted({n.split("-")[0] for n in names(h)}) for h in table.hands] == [
        [str(seat)] for seat in range(players)
    ]
    assert table.doubtful == ()


def test_a_hand_spread_apart_in_rows_is_one_hand_and_not_a_neighbours():
    # The bottom hand laid out by suits: rows a little over a card apart, cards not touching.
    rows = [["AS", "KS", "QS"], ["2H", "5H", "9H", "JH"], ["3D", "4D", "8D"], ["6C", "7C", "10C"]]
    spread = [
        card(name, 480 + i * 1.3 * REACH, 780 + r * 1.8 * REACH)
        for r, row in enumerate(rows)
        for i, name in enumerate(row)
    ]
    top = hand(TOP, ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "JK"])
    table = group_hands(shuffled(spread + top), 2)
    assert sorted(names(table.hands[0])) == sorted(sum(rows, []))
    assert sorted(names(table.hands[1])) == sorted(names(top))


def test_gin_the_knockers_melds_laid_down_count_as_the_knockers_hand():
    knocker = hand(BOTTOM, ["9C", "KD", "2S"], step=0.5)
    melds = hand(BOTTOM, ["4H", "5H", "6H", "7H", "QS", "QD", "QC"], step=0.6, towards_middle=2.5)
    other = hand(TOP, ["AC", "3C", "8D", "8H", "JS", "10D", "6S", "2D", "KH", "5C"], step=0.5)
    table = group_hands(shuffled(knocker + melds + other), 2)
    assert sorted(names(table.hands[0])) == sorted(names(knocker + melds))
    assert sorted(names(table.hands[1])) == sorted(names(other))


def test_gin_melds_laid_mid_table_join_the_hand_they_make_whole_not_the_nearer_one():
    # The knocker kept three cards and laid seven in melds in the middle of the table, a
    # little nearer the other player's ten: hands are dealt alike, so the melds make the
    # knocker's ten, not the other's seventeen.
    knocker = hand(BOTTOM, ["9C", "KD", "2S"], step=0.5)
    laid = ["4H", "5H", "6H", "7H", "QS", "QD", "QC"]
    melds = [card(name, 450 + i * 30, 580) for i, name in enumerate(laid)]
    other = hand(TOP, ["AC", "3C", "8D", "8H", "JS", "10D", "6S", "2D", "KH", "5C"], step=0.5)
    table = group_hands(shuffled(knocker + melds + other), 2)
    assert sorted(names(table.hands[0])) == sorted(names(knocker + melds))
    assert sorted(names(table.hands[1])) == sorted(names(other))
    assert table.doubtful == ()


def test_where_two_hands_touch_the_cards_between_them_are_doubtful_and_in_neither_hand():
    # The bottom hand's row runs left into the corner where the left hand's row comes down,
    # and a card lies in the corner as near the one row as the other: where it lies cannot
    # tell whose it is.
    bottom = [card(f"B{i}", 320 + i * 20, 900) for i in range(9)]
    left = [card(f"L{i}", 300, 880 - i * 20) for i in range(9)]
    corner = card("X", 300, 900)
    top = hand(TOP, [f"T{i}" for i in range(10)])
    right = hand(RIGHT, [f"R{i}" for i in range(10)])
    found = shuffled([corner, *bottom, *left, *top, *right])
    table = group_hands(found, 4)

    placed = [c for h in table.hands for c in h] + [d.reading for d in table.doubtful]
    assert Counter(names(placed)) == Counter(names(found))  # every card once, none twice
    doubtful = {d.reading.card: d.hands for d in table.doubtful}
    assert "X" in doubtful
    assert set(doubtful) <= {"X", "B0", "L0"}
    assert all(set(hands) == {0, 1} for hands in doubtful.values())
    assert set(names(table.hands[0])) >= {f"B{i}" for i in range(1, 9)}
    assert set(names(table.hands[1])) >= {f"L{i}" for i in range(1, 9)}
    assert sorted(names(table.hands[2])) == sorted(names(top))
    assert sorted(names(table.hands[3])) == sorted(names(right))


def test_a_card_lying_alone_between_two_hands_is_doubtful_with_the_nearer_first():
    bottom = hand(BOTTOM, [f"B{i}" for i in range(5)])
    right = hand(RIGHT, [f"R{i}" for i in range(5)])
    # About as far from the bottom hand's end card as from the right hand's.
    stray = card("QH", 870, 860)
    table = group_hands([stray, *bottom, *right], 2)
    assert [(d.reading.card, set(d.hands)) for d in table.doubtful] == [("QH", {0, 1})]
    assert "QH" not in names(table.hands[0]) + names(table.hands[1])


def test_a_hand_read_smaller_across_the_table_is_grouped_by_its_own_card_size():
    # Seen from the photographer's seat, the far hand's cards are half the size of the near
    # hand's, and lie close together: they are still one hand, not split into two.
    near = [card(f"N{i}", 400 + i * 25, 950, reach=60) for i in range(9)]
    far = [card(f"F{i}", 450 + i * 9, 200, reach=25) for i in range(9)]
    table = group_hands(shuffled(near + far), 2)
    assert [sorted(names(h)) for h in table.hands] == [sorted(names(near)), sorted(names(far))]


def test_fewer_cards_than_hands_leaves_the_hands_without_cards_last():
    table = group_hands([card("7H", 600, 900)], 3)
    assert [names(h) for h in table.hands] == [["7H"], [], []]
    assert [names(h) for h in group_hands([], 2).hands] == [[], []]


@pytest.mark.parametrize("hands", [0, 1, 7])
def test_a_table_is_read_into_two_to_six_hands(hands):
    with pytest.raises(ValueError, match="2 to 6 hands"):
        group_hands([card("7H", 600, 900)], hands)


def test_no_card_is_ever_in_two_hands_however_the_cards_lie():
    rng = random.Random(42)
    for _ in range(40):
        players = rng.randint(2, 6)
        found = [
            card(f"{i}", rng.uniform(0, 1200), rng.uniform(0, 1200), rng.uniform(20, 70))
            for i in range(rng.randint(0, 60))
        ]
        table = group_hands(found, players)
        placed = names(c for h in table.hands for c in h) + [d.reading.card for d in table.doubtful]
        assert sorted(placed) == sorted(names(found))
        assert len(table.hands) == players
        assert all(len(set(d.hands)) >= 2 for d in table.doubtful)
