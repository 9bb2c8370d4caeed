"""A card's two corner indices paired into one card, and the card read from them."""

import math
from collections.abc import Mapping

import numpy as np

from games.vision.readings import LABELS, CardReading, Corner

SAME_CARD = 0.45  # two corners whose card centres are closer (in card sizes) are one card
# ... or closer than this when they are also read as the same card: in a tight fan the next
# card's centre is about 0.45 card sizes away, so where alone cannot reach further.
SAME_CARD_READ_ALIKE = 0.9
FACING = 20  # degrees: see _facing
# A card read with less confidence than this is not reported at all: on the real validation
# photos the two readings under it were both wrong (0.14, 0.15), the right ones all above 0.24.
# The panel's count (found against the hand's size) shows the player a card it leaves out.
REPORTED_FROM = 0.2


def card_mismatch(a: Corner, b: Corner) -> float:
    """How far apart the card centres two corners point at are, in card sizes; infinite
    unless they point from opposite sides, as one card's two indices do."""
    ax, ay = a.centre[0] + a.to_card_centre[0], a.centre[1] + a.to_card_centre[1]
    bx, by = b.centre[0] + b.to_card_centre[0], b.centre[1] + b.to_card_centre[1]
    reach_a, reach_b = np.hypot(*a.to_card_centre), np.hypot(*b.to_card_centre)
    if reach_a <= 0 or reach_b <= 0:
        return math.inf
    dot = a.to_card_centre[0] * b.to_card_centre[0] + a.to_card_centre[1] * b.to_card_centre[1]
    if dot / (reach_a * reach_b) > -0.5:
        return math.inf
    return float(np.hypot(ax - bx, ay - by) / ((reach_a + reach_b) / 2))


def same_card(a: Corner, b: Corner) -> bool:
    """Two corners are one card's two indices when they point, from opposite sides, at the
    same card centre. Their labels alone never make them one (two decks give two equal
    cards): they only let a looser "same centre" count, for a card whose two corners point
    a little apart."""
    mismatch = card_mismatch(a, b)
    if mismatch < SAME_CARD:
        return True
    if math.isinf(mismatch) or np.argmax(a.labels) != np.argmax(b.labels):
        return False
    return mismatch < SAME_CARD_READ_ALIKE or _facing(a, b)


def _facing(a: Corner, b: Corner) -> bool:
    """Each corner's vector to its card's centre points straight at the other corner (within
    FACING degrees): a card's two indices, even where the vectors fall short of the centre
    (a joker's long word, say)."""
    line = np.subtract(b.centre, a.centre)
    length = float(np.hypot(*line))
    if length == 0:
        return False
    for corner, direction in ((a, line), (b, -line)):
        reach = float(np.hypot(*corner.to_card_centre))
        cosine = float(np.dot(corner.to_card_centre, direction)) / (reach * length)
        if cosine < math.cos(math.radians(FACING)):
            return False
    return True


def _pair_order(a: Corner, b: Corner):
    """Which possible pairs of corners are paired first: those read as the same card, then
    the others, each nearest first. In a tight fan one card's corner can point nearer the
    next card's centre than that card's own other corner does; their labels tell them apart."""
    return (int(np.argmax(a.labels) != np.argmax(b.labels)), card_mismatch(a, b))


def cards_from_corners(
    corners: list[Corner], scale=1.0, size=None, supply: Mapping[str, int] | None = None
) -> list[CardReading]:
    """Corners paired into cards (each card's two indices count once), then labelled; within
    `supply` where it is given (see `_labelled`)."""
    pairs = sorted(
        (_pair_order(a, b), i, j)
        for i, a in enumerate(corners)
        for j, b in enumerate(corners[i + 1 :], start=i + 1)
        if same_card(a, b)
    )
    partner = {}
    for _, i, j in pairs:
        if i not in partner and j not in partner:
            partner[i], partner[j] = j, i
    groups = []
    for i, corner in enumerate(corners):
        j = partner.get(i)
        if j is None or j > i:
            groups.append([corner] if j is None else [corner, corners[j]])
    cards = []
    for group, labels, sureness, first, second in _labelled(groups, supply):
        best = max(group, key=lambda c: c.score)
        confidence = float(labels[first] * sureness)
        if confidence < REPORTED_FROM:
            continue
        cards.append(
            CardReading(
                card=LABELS[first],
                confidence=confidence,
                box=_in_photo(best.box, scale, size),
                alternative=LABELS[second],
                alternative_confidence=float(labels[second] * sureness),
                centre=_card_centre(group, scale),
                reach=float(np.mean([np.hypot(*c.to_card_centre) for c in group]) * scale),
            )
        )
    cards.sort(key=lambda c: (c.box[1], c.box[0]))
    return cards


def _labelled(groups, supply: Mapping[str, int] | None):
    """Each card's labels (the probability of each of LABELS, its corners' answers
    multiplied), its sureness, the label it is read as and the best other one it could be.

    Without a supply each card is its likeliest label. With one (how many copies of each
    label the game's decks hold), the cards are labelled surest first, each its likeliest
    label of which a copy is left: two cards of a one-deck game are never read as the same
    card, and the less sure of them is read as what it most likely is instead, the label the
    surer one took then its best other. A label the supply does not name (a printed joker in
    a game without them) is read only where it is a card's likeliest, never instead: the page
    leaves it out and says so, where a card pushed onto it would be lost without a word."""
    found = []
    for group in groups:
        log_p = sum(np.log(np.clip(c.labels, 1e-9, 1)) for c in group)
        labels = np.exp(log_p - log_p.max())
        labels /= labels.sum()
        found.append((group, labels, _sureness(group)))
    if supply is None:
        for group, labels, sureness in found:
            first, second = np.argsort(-labels)[:2]
            yield group, labels, sureness, first, second
        return
    left = dict(supply)
    for group, labels, sureness in sorted(found, key=lambda found: -found[1].max() * found[2]):
        ranked = np.argsort(-labels)
        for place, label in enumerate(ranked):
            copies = left.get(LABELS[label])
            if (copies is not None and copies <= 0) or (copies is None and place > 0):
                continue
            if labels[label] * sureness >= REPORTED_FROM:  # else not reported: no copy taken
                if copies is not None:
                    left[LABELS[label]] = copies - 1
                other = ranked[1] if place == 0 else ranked[0]
                yield group, labels, sureness, label, other
            break


def _sureness(group) -> float:
    """How sure the finder and the namer are that the group is a card at all."""
    return min(1.0, max(c.score for c in group) / 0.6) * max(c.real for c in group)


def _card_centre(group, scale):
    """Midway between a card's two corner indices, or where its one corner points."""
    if len(group) == 2:
        x, y = np.mean([c.centre for c in group], axis=0)
    else:
        (cx, cy), (tx, ty) = group[0].centre, group[0].to_card_centre
        x, y = cx + tx, cy + ty
    return (round(float(x) * scale, 1), round(float(y) * scale, 1))


def _in_photo(box, scale, size):
    """The box in the photo's pixels, kept inside the photo."""
    x0, y0, x1, y1 = (v * scale for v in box)
    if size is not None:
        x0, x1 = (min(max(v, 0), size[0]) for v in (x0, x1))
        y0, y1 = (min(max(v, 0), size[1]) for v in (y0, y1))
    return (int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1)))
