"""A slow, obviously right Gin Rummy scorer written only for the tests: every group of cards is
tried as a meld and every order of layoffs is tried, one card at a time.

Nothing here is shared with games/engine beyond the Card type and the parser.
"""

from functools import cache
from itertools import combinations

from games.engine.cards import Card


def value(card: Card) -> int:
    return min(card.rank, 10)


def is_meld(cards) -> bool:
    """Three or four of a rank, or three or more of a suit in consecutive ranks (ace low)."""
    if len(cards) < 3:
        return False
    ranks = sorted(card.rank for card in cards)
    suits = {card.suit for card in cards}
    if len(set(ranks)) == 1:
        return len(suits) == len(cards) <= 4
    if len(suits) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def _melds_with_first(rest: tuple):
    """Every meld holding the first card, with the cards it leaves: any group of the others
    that shares its rank or its suit (no other card can meld with it) is tried."""
    first, others = rest[0], rest[1:]
    kin = [i for i, card in enumerate(others) if card.rank == first.rank or card.suit == first.suit]
    for size in range(2, len(kin) + 1):
        for picked in combinations(kin, size):
            meld = (first,) + tuple(others[i] for i in picked)
            if is_meld(meld):
                left = tuple(card for i, card in enumerate(others) if i not in picked)
                yield tuple(sorted(meld)), left


@cache
def _least(rest: tuple) -> int:
    if not rest:
        return 0
    best = value(rest[0]) + _least(rest[1:])
    for _, left in _melds_with_first(rest):
        best = min(best, _least(left))
    return best


def least_deadwood(cards) -> int:
    return _least(tuple(sorted(cards)))


def _least_layouts(rest: tuple):
    """Every way to lay out `rest` (as a tuple of melds) that leaves its least deadwood."""
    if not rest:
        yield ()
        return
    target = _least(rest)
    if value(rest[0]) + _least(rest[1:]) == target:
        yield from _least_layouts(rest[1:])
    for meld, left in _melds_with_first(rest):
        if _least(left) == target:
            for tail in _least_layouts(left):
                yield (meld,) + tail


def least_layouts(cards) -> list[tuple]:
    """Every layout of least deadwood, a long run possibly split in several (as melds)."""
    return list(_least_layouts(tuple(sorted(cards))))


def merged(layout) -> frozenset:
    """A layout with runs that meet end to end joined into one, as a set of melds."""
    melds = [sorted(meld) for meld in layout]
    joined = True
    while joined:
        joined = False
        for a, b in combinations(range(len(melds)), 2):
            one, two = melds[a], melds[b]
            both_runs = one[0].rank != one[1].rank and two[0].rank != two[1].rank
            if (
                both_runs
                and one[0].suit == two[0].suit
                and (one[-1].rank + 1 == two[0].rank or two[-1].rank + 1 == one[0].rank)
            ):
                melds[a] = sorted(one + two)
                del melds[b]
                joined = True
                break
    return frozenset(tuple(meld) for meld in melds)


def defender_deadwood(defender, knocker_melds) -> int:
    """The least deadwood the defender can leave: every sequence of layoffs is tried, each card
    onto any of the knocker's melds it still makes a meld with, then the rest melded."""
    best = least_deadwood(defender)
    seen = set()
    stack = [(tuple(tuple(sorted(m)) for m in knocker_melds), tuple(sorted(defender)))]
    while stack:
        melds, hand = stack.pop()
        if (melds, hand) in seen:
            continue
        seen.add((melds, hand))
        best = min(best, least_deadwood(hand))
        for card in hand:
            for i, meld in enumerate(melds):
                if is_meld(meld + (card,)):
                    grown = melds[:i] + (tuple(sorted(meld + (card,))),) + melds[i + 1 :]
                    stack.append((grown, tuple(c for c in hand if c != card)))
    return best


def hand_result(knocker, defender, rules, upcard=None) -> dict | None:
    """The whole hand the slow way, or None when the knock is not legal: the knocker lays down
    the least-deadwood layout that leaves the defender the most after layoffs."""
    knocker_least = least_deadwood(knocker)
    if rules.variant == "straight":
        limit = 0
    elif rules.variant == "oklahoma":
        limit = 0 if upcard.rank == 1 else value(upcard)
    else:
        limit = 10
    big = len(knocker) == 11
    if (big and knocker_least != 0) or knocker_least > limit:
        return None
    if knocker_least == 0:
        defender_least = least_deadwood(defender)
    else:
        defender_least = max(
            defender_deadwood(defender, layout) for layout in least_layouts(knocker)
        )
    if big and rules.big_gin_bonus is not None:
        result, scorer, points = "big_gin", "knocker", defender_least + rules.big_gin_bonus
    elif knocker_least == 0:
        result, scorer, points = "gin", "knocker", defender_least + rules.gin_bonus
    elif knocker_least < defender_least:
        result, scorer, points = "knock", "knocker", defender_least - knocker_least
    else:
        result, scorer = "undercut", "defender"
        points = knocker_least - defender_least + rules.undercut_bonus
    if rules.variant == "oklahoma" and upcard.suit == "S":
        points *= 2
    return {
        "result": result,
        "scorer": scorer,
        "points": points,
        "knocker_deadwood": knocker_least,
        "defender_deadwood": defender_least,
    }
