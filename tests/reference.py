"""Slow, obviously right scorers written only for the tests: every subset is tried as a meld.

Nothing here is shared with games/engine beyond the Card type and the parser.
"""

from functools import cache
from itertools import combinations

from games.engine.cards import Card

# ---------------------------------------------------------------- Three Thirteen


def tt_value(card: Card, aces: str, faces: str) -> int:
    if card.is_joker:
        return 20
    if card.rank == 1:
        return 15 if aces == "high_or_low" else 1
    if card.rank >= 11:
        return card.rank if faces == "rank" else 10
    return card.rank


def tt_is_meld(cards, wild: int, aces: str, all_wild_melds: bool) -> bool:
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not (c.is_joker or c.rank == wild)]
    if not naturals:
        return all_wild_melds
    if len({c.rank for c in naturals}) == 1:
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    top = 14 if aces == "high_or_low" else 13
    ace_choices = (False, True) if aces == "high_or_low" else (False,)
    for ace_high in ace_choices:
        positions = [14 if (r == 1 and ace_high) else r for r in ranks]
        for start in range(1, top - len(cards) + 2):
            end = start + len(cards) - 1
            if start <= min(positions) and max(positions) <= end:
                return True
    return False


def tt_penalty(cards, wild: int, aces="low", faces="ten", all_wild_melds=True) -> int:
    @cache
    def is_meld(meld):
        return tt_is_meld(meld, wild, aces, all_wild_melds)

    @cache
    def least(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = tt_value(first, aces, faces) + least(others)
        for size in range(2, len(others) + 1):
            for picked in combinations(range(len(others)), size):
                meld = tuple(sorted((first,) + tuple(others[i] for i in picked)))
                if is_meld(meld):
                    left = tuple(others[i] for i in range(len(others)) if i not in picked)
                    best = min(best, least(left))
        return best

    return least(tuple(sorted(cards)))


# ---------------------------------------------------------------- 13-card Rummy


def rummy_value(card: Card, wild_rank) -> int:
    if card.is_joker or card.rank == wild_rank:
        return 0
    if card.rank == 1 or card.rank >= 11:
        return 10
    return card.rank


def rummy_kinds(meld, wild_rank, all_joker_melds: bool) -> set[tuple[str, bool]]:
    """Every (kind, pure) a group of 3 or 4 cards can be read as."""
    kinds = set()
    flexible = [i for i, c in enumerate(meld) if c.rank == wild_rank and not c.is_joker]
    for mask in range(1 << len(flexible)):
        as_joker = {flexible[b] for b in range(len(flexible)) if mask >> b & 1}
        naturals = [c for i, c in enumerate(meld) if not c.is_joker and i not in as_joker]
        jokers = len(meld) - len(naturals)
        if not naturals:
            if all_joker_melds:
                kinds.add(("sequence", False))
                if len(meld) == 3:
                    kinds.add(("set", False))
            continue
        if len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(
            naturals
        ):
            for ace_high in (False, True):
                positions = [14 if (c.rank == 1 and ace_high) else c.rank for c in naturals]
                for start in range(1, 15 - len(meld) + 1):
                    end = start + len(meld) - 1
                    if start <= min(positions) and max(positions) <= end:
                        kinds.add(("sequence", jokers == 0))
        if (
            len(meld) == 3
            and len({c.rank for c in naturals}) == 1
            and len({c.suit for c in naturals}) == len(naturals)
        ):
            kinds.add(("set", False))
    return kinds


def _may_add(size, kind, fours, threes, sets) -> bool:
    """Whether one more meld still fits a winning layout: one 4-card meld, a sequence;
    three 3-card melds; two sets."""
    if size == 4:
        return not fours and kind == "sequence"
    return threes < 3 and not (kind == "set" and sets == 2)


def _melds_with_first(rest):
    """Every group of 3 or 4 cards that holds the first card, with what is left."""
    first, others = rest[0], rest[1:]
    for size in (2, 3):
        for picked in combinations(range(len(others)), size):
            meld = tuple(sorted((first,) + tuple(others[i] for i in picked)))
            left = tuple(others[i] for i in range(len(others)) if i not in picked)
            yield meld, left


def _melds_of(wild_rank, all_joker_melds):
    """`rest` -> each group of `_melds_with_first(rest)` that reads as a meld, with what is left
    and its kinds, worked out once per `rest` (the searches below ask again for every count of
    melds laid so far); a group that reads as no meld adds nothing to any of them."""

    @cache
    def kinds(meld):
        return rummy_kinds(meld, wild_rank, all_joker_melds)

    @cache
    def melds(rest):
        return tuple(
            (meld, left, kinds(meld)) for meld, left in _melds_with_first(rest) if kinds(meld)
        )

    return melds


def rummy_loser_count(cards, wild_rank=None, all_joker_melds=True) -> int:
    """Total minus the most a layout can leave out: at most one 4-card meld (a sequence),
    three 3-card melds and two sets, with at least one pure sequence among them."""
    total = sum(rummy_value(c, wild_rank) for c in cards)

    melds = _melds_of(wild_rank, all_joker_melds)

    @cache
    def most(rest, fours, threes, sets, pure):
        best = 0 if pure else None
        if not rest:
            return best
        skipped = most(rest[1:], fours, threes, sets, pure)
        if skipped is not None and (best is None or skipped > best):
            best = skipped
        for meld, left, kinds in melds(rest):
            value = sum(rummy_value(c, wild_rank) for c in meld)
            for kind, is_pure in kinds:
                if not _may_add(len(meld), kind, fours, threes, sets):
                    continue
                after = most(
                    left,
                    fours + (len(meld) == 4),
                    threes + (len(meld) == 3),
                    sets + (kind == "set"),
                    pure or is_pure,
                )
                if after is not None and (best is None or value + after > best):
                    best = value + after
        return best

    excluded = most(tuple(sorted(cards)), 0, 0, 0, False)
    return total - (excluded or 0)


def rummy_declaration(cards, wild_rank=None, all_joker_melds=True) -> tuple[bool, bool]:
    """(valid, all pure): can the 13 cards be split into a 4-card sequence and three 3-card
    melds with at most two sets and a pure sequence; can they be four pure sequences."""

    melds = _melds_of(wild_rank, all_joker_melds)

    @cache
    def valid(rest, fours, threes, sets, pure):
        if not rest:
            return fours == 1 and threes == 3 and pure
        for meld, left, kinds in melds(rest):
            for kind, is_pure in kinds:
                if not _may_add(len(meld), kind, fours, threes, sets):
                    continue
                if valid(
                    left,
                    fours + (len(meld) == 4),
                    threes + (len(meld) == 3),
                    sets + (kind == "set"),
                    pure or is_pure,
                ):
                    return True
        return False

    @cache
    def all_pure(rest, fours):
        if not rest:
            return True
        for meld, left, kinds in melds(rest):
            if len(meld) == 4 and fours:
                continue
            if ("sequence", True) in kinds and all_pure(left, fours + (len(meld) == 4)):
                return True
        return False

    hand = tuple(sorted(cards))
    return valid(hand, 0, 0, 0, False), all_pure(hand, 0)


# ---------------------------------------------------------------- Five Crowns


def fc_value(card: Card, wild: int) -> int:
    if card.is_joker:
        return 50
    if card.rank == wild:
        return 20
    return card.rank


def fc_is_meld(cards, wild: int) -> bool:
    """A book (one rank, any suits) or a run (one suit, distinct consecutive ranks 3 to K
    with wilds filling in), 3 cards or more; wilds anywhere, wild-only melds allowed."""
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not (c.is_joker or c.rank == wild)]
    if len({c.rank for c in naturals}) <= 1:
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    for start in range(3, 13 - len(cards) + 2):
        if start <= min(ranks) and max(ranks) <= start + len(cards) - 1:
            return True
    return False


def fc_penalty(cards, wild: int) -> int:
    @cache
    def least(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = fc_value(first, wild) + least(others)
        for size in range(2, len(others) + 1):
            for picked in combinations(range(len(others)), size):
                meld = tuple(sorted((first,) + tuple(others[i] for i in picked)))
                if fc_is_meld(meld, wild):
                    left = tuple(others[i] for i in range(len(others)) if i not in picked)
                    best = min(best, least(left))
        return best

    return least(tuple(sorted(cards)))
