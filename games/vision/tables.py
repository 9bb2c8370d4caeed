"""The cards of one photo of the table grouped into hands, by where they lie.

The rule: every player lays their hand in front of their own seat, so the cards of a photo of
the table are N hands, each a group of cards lying together. Two cards whose centres lie
within LINK reaches of each other (a reach: from a card's corner index to its centre, about
0.6 of its height) are the same hand's: overlapping in a fan, touching in a row. The groups
that leaves are joined, the two nearest first, until N are left; a join that would make a
hand larger than its share of the cards (the cards found over N: every game deals its hands
alike) counts as that much further (OVERFULL). Where fewer groups than hands are left (hands
that touch), the group holding most hands' worth of cards is cut where the cut leaves each
side nearest a whole number of hands, the wider gap preferred, until there are N. A card is
never put in two hands: one that lies about as near another hand as its own (its nearest
card in the other hand less than NEAR_AS times as far as its nearest in its own) cannot be
told apart by where it lies, and is given to no hand but listed as doubtful with the hands
it might be in, its own first.

The hands are then ordered as the table sits: first the hand whose centre is nearest the
photo's bottom edge (the photographer's), then each next one clockwise seen from above,
around the middle of the hands' centres (in the photo: bottom, left, top, right for four).
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass

from games.vision.reader import read_cards
from games.vision.readings import CardReading

HANDS = range(2, 7)  # how many hands a table photo may be read into
LINK = 1.5  # reaches: cards whose centres are nearer are one hand's
OVERFULL = 2.0  # reaches: what a join costs for each hand's share of cards it goes over
NEAR_AS = 1.25  # another hand this much as near as a card's own makes the card doubtful


@dataclass(frozen=True)
class DoubtfulCard:
    """A card that lies between hands: the hands it might be in (their places in the
    table's order), the likelier first."""

    reading: CardReading
    hands: tuple[int, ...]


@dataclass(frozen=True)
class TableReading:
    """The hands of one table photo, in the table's order from the photographer's (the
    hand nearest the photo's bottom edge), and the cards that lie between hands."""

    hands: tuple[tuple[CardReading, ...], ...]
    doubtful: tuple[DoubtfulCard, ...] = ()


def read_table(data: bytes, hands: int, supply: Mapping[str, int] | None = None) -> TableReading:
    """The hands in a photo of the table (its bytes), in the table's order; raises a
    PhotoError for a bad file and a ValueError for a number of hands outside HANDS. `supply`:
    the copies of each label the round's decks hold, as read_cards takes it."""
    if hands not in HANDS:
        raise ValueError(hands_words(hands))
    return group_hands(read_cards(data, supply), hands)


def hands_words(hands) -> str:
    return f"A table photo is read into {HANDS[0]} to {HANDS[-1]} hands, not {hands}."


def group_hands(cards: list[CardReading], hands: int) -> TableReading:
    """The cards read from one table photo grouped into `hands` hands, in the table's order
    (the rule is this module's docstring)."""
    if hands not in HANDS:
        raise ValueError(hands_words(hands))
    gaps = _gaps(cards)
    groups = _pieces(gaps)
    share = max(1.0, len(cards) / hands)
    groups = _joined(gaps, groups, hands, share)
    while len(groups) < hands and any(len(g) > 1 for g in groups):
        groups = _cut_fullest(gaps, groups, share)
    groups = _in_table_order(cards, groups)
    groups += [[] for _ in range(hands - len(groups))]
    return _with_doubts(cards, groups, gaps)


def _gaps(cards):
    """How far apart each two cards' centres lie, in reaches: theirs where known (a card
    across the table is smaller in the photo than one near the lens), else the cards' median
    reach (1 if none is known)."""
    reaches = sorted(c.reach for c in cards if c.reach > 0)
    unit = reaches[len(reaches) // 2] if reaches else 1.0

    def gap(a, b):
        reach = (a.reach + b.reach) / 2 if a.reach > 0 and b.reach > 0 else unit
        return math.dist(a.centre, b.centre) / reach

    return [[gap(a, b) for b in cards] for a in cards]


def _pieces(gaps):
    """Groups of card indices, each joined by cards within LINK of one another."""
    parent = list(range(len(gaps)))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, row in enumerate(gaps):
        for j in range(i + 1, len(gaps)):
            if row[j] < LINK:
                parent[root(i)] = root(j)
    pieces = {}
    for i in range(len(gaps)):
        pieces.setdefault(root(i), []).append(i)
    return list(pieces.values())


def _joined(gaps, groups, hands, share):
    """The groups joined, the two cheapest to join first, until `hands` are left: a join
    costs its groups' nearest cards' gap, plus OVERFULL for each share of cards the joined
    group holds beyond one hand's."""
    groups = [list(g) for g in groups]
    apart = [[min(gaps[i][j] for i in a for j in b) for b in groups] for a in groups]
    while len(groups) > hands:

        def cost(pair):
            i, j = pair
            return apart[i][j] + OVERFULL * max(0.0, (len(groups[i]) + len(groups[j])) / share - 1)

        i, j = min(
            ((i, j) for i in range(len(groups)) for j in range(i + 1, len(groups))), key=cost
        )
        groups[i] += groups.pop(j)
        nearest = [min(x, y) for x, y in zip(apart[i], apart[j], strict=True)]
        for row, value in zip(apart, nearest, strict=True):
            row[i] = value
        apart[i] = nearest
        apart.pop(j)
        for row in apart:
            row.pop(j)
    return groups


def _cut_fullest(gaps, groups, share):
    """The groups with the one holding most hands' worth of cards cut in two: along its
    spanning tree's edge that leaves each side nearest a whole number of hands (in shares
    of cards), the wider gap preferred."""
    fullest = max((g for g in groups if len(g) > 1), key=len)
    edges = _spanning_tree(gaps, fullest)

    def sides(edge):
        neighbours = {i: [] for i in fullest}
        for a, b, _ in edges:
            if (a, b) != edge[:2]:
                neighbours[a].append(b)
                neighbours[b].append(a)
        seen, todo = {edge[0]}, [edge[0]]
        while todo:
            for n in neighbours[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return [i for i in fullest if i in seen], [i for i in fullest if i not in seen]

    def misfit(part):
        hands = len(part) / share
        return abs(hands - max(1, round(hands)))

    def score(edge):
        one, other = sides(edge)
        return edge[2] - OVERFULL * (misfit(one) + misfit(other))

    one, other = sides(max(edges, key=score))
    return [g for g in groups if g is not fullest] + [one, other]


def _spanning_tree(gaps, group):
    """The shortest tree joining the group's cards (Prim): edges (i, j, gap in reaches)."""
    edges = []
    best = {i: (gaps[group[0]][i], group[0]) for i in group[1:]}
    while best:
        i = min(best, key=lambda k: best[k][0])
        gap, j = best.pop(i)
        edges.append((j, i, gap))
        for k in best:
            nearer = gaps[i][k]
            if nearer < best[k][0]:
                best[k] = (nearer, i)
    return edges


def _centre(cards, group):
    xs, ys = zip(*(cards[i].centre for i in group), strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _in_table_order(cards, groups):
    """The groups from the one whose centre is lowest in the photo (nearest its bottom edge),
    then clockwise seen from above around the middle of their centres (the photo's y runs
    down, so clockwise is the angle growing); groups without cards last."""
    held = [g for g in groups if g]
    if not held:
        return []
    centres = [_centre(cards, g) for g in held]
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    first = max(range(len(held)), key=lambda k: centres[k][1])

    def turn(k):
        angle = math.atan2(centres[k][1] - my, centres[k][0] - mx)
        start = math.atan2(centres[first][1] - my, centres[first][0] - mx)
        return 0.0 if k == first else (angle - start) % (2 * math.pi)

    return [held[k] for k in sorted(range(len(held)), key=turn)]


def _with_doubts(cards, groups, gaps):
    """The reading: each card in its group's hand, but one that lies about as near another
    hand as its own in none, listed as doubtful with both (or more)."""
    hand_of = {i: h for h, g in enumerate(groups) for i in g}
    hands, doubtful = [[] for _ in groups], []
    for i, card in enumerate(cards):
        nearest = [min((gaps[i][j] for j in g if j != i), default=math.inf) for g in groups]
        own = hand_of[i]
        # A card alone in its hand is doubtful only where it touches another hand.
        limit = LINK if math.isinf(nearest[own]) else NEAR_AS * nearest[own]
        others = [h for h in range(len(groups)) if h != own and nearest[h] < limit]
        if others:
            others.sort(key=lambda h: nearest[h])
            doubtful.append(DoubtfulCard(card, (own, *others)))
        else:
            hands[own].append(card)
    return TableReading(tuple(tuple(h) for h in hands), tuple(doubtful))
