"""Photos of the whole table with their hands known: the hands of bidly's labelled deals
(`deal_hands`), and table photos composed to check the grouping of a table into hands beside
the real deals, which are measured, never tuned on (`table_scene`).

Each composed photo is 2 to 6 hands of one deck (each card once, 3 to 13 a hand, as many as
the deck allows), each laid in front of its seat around the table: fanned, in an overlapping
row or spread apart, turned to face its player; the seats clockwise seen from above from the
photographer's, whose hand lies nearest the photo's bottom edge. Composed with the build's
scene parts (`games.vision.training.scenes`: table, perspective, shadow, light, JPEG), from
seeds of their own.
"""

import math
import random

import numpy as np
from PIL import Image

from games.vision.labels import RANKS, SUITS

# Where the rule below is wrong, by eye: in deal 1 the left hand lies in rows by suit, and its
# two hearts lie nearer the top hand's fan than the rest of their rows.
BY_EYE = {"deal1-md-sq.jpg": {"5H": 1, "4H": 1}}


def deal_hands(truth, hands=4, most=13, by_eye=None):
    """{card: hand} for a labelled photo of a bridge deal (each card once, `most` a hand),
    the hands in the table's order. bidly's labels name each corner index but not its hand:
    the labelled cards are joined, the two whose labelled corners lie nearest first (single
    linkage), never into a group of more than `most` cards, until `hands` groups are left;
    then, as the issue orders a table, the group whose corners' middle is lowest in the photo
    (nearest its bottom edge, the photo as stored: none of the seven is turned by EXIF) is
    first, the others clockwise seen from above around the middle of the groups' middles.
    Checked by eye on each of the seven deals (the labels drawn on the photo, coloured by
    group, the reader not run): every group is one hand laid on one side of the board but
    two cards of deal 1, whose hand `by_eye` gives ({card: its place in the order})."""
    cards = list(truth)
    points = {c: [_middle([box]) for box in truth[c]] for c in cards}
    apart = {
        (c, d): min(math.dist(p, q) for p in points[c] for q in points[d])
        for c in cards
        for d in cards
    }
    group_of = {c: k for k, c in enumerate(cards)}
    groups = {k: [c] for k, c in enumerate(cards)}
    for _, c, d in sorted((gap, c, d) for (c, d), gap in apart.items() if c < d):
        a, b = group_of[c], group_of[d]
        if len(groups) == hands:
            break
        if a == b or len(groups[a]) + len(groups[b]) > most:
            continue
        for card in groups.pop(b):
            group_of[card] = a
            groups[a].append(card)
    groups = list(groups.values())
    middle = {c: _mean(points[c]) for c in cards}
    centres = [_mean([middle[c] for c in g]) for g in groups]
    mx, my = _mean(centres)
    first = max(range(len(groups)), key=lambda k: centres[k][1])
    start = math.atan2(centres[first][1] - my, centres[first][0] - mx)
    turn = [(math.atan2(y - my, x - mx) - start) % (2 * math.pi) for x, y in centres]
    turn[first] = 0.0
    order = sorted(range(len(groups)), key=lambda k: turn[k])
    return {card: place for place, k in enumerate(order) for card in groups[k]} | (by_eye or {})


def _middle(boxes):
    return _mean([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes])


def _mean(points):
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def faces_for_tables(photographed=None, seed=0):
    """Faces to lay: the photographed deck's when its folder is given, and drawn ones."""
    from games.vision.training import art

    rng = random.Random(seed)
    faces = [art.drawn_face(rng, r, s) for r in range(13) for s in range(4)]
    if photographed:
        faces += art.photographed_faces(photographed)
    return faces


def table_scene(rng: random.Random, faces, size=(1200, 1200)):
    """A photo of a table (RGB array), the corners that show, {card: hand}, and how many
    hands; hand 0 is the photographer's (the bottom one), the others clockwise."""
    from games.vision.training import scenes

    w, h = size
    scene = Image.fromarray(scenes.background(rng, size)).convert("RGBA")
    top = np.full((h, w), -1, np.int32)
    pool = [f for f in scenes.pick_deck(rng, faces) if not f.is_back and f.suit >= 0]
    by_card = {}
    for face in pool:
        by_card.setdefault(RANKS[face.rank] + SUITS[face.suit], face)
    hands = rng.randint(2, 6)
    count = min(rng.randint(3, 13), len(by_card) // hands)
    dealt = rng.sample(sorted(by_card), count * hands)
    distance = rng.uniform(0.3, 0.36) * min(w, h)
    card_h = rng.uniform(0.09, 0.17) * min(w, h)
    # Each hand within its seat's share of the table's edge: a long hand is laid tighter.
    room = 2 * math.pi * distance / hands * rng.uniform(0.75, 0.95) / card_h - 0.75
    styles = [rng.choice(["fan", "row", "spread"]) for _ in range(hands)]
    steps = [
        min({"fan": 0.22, "row": 0.3, "spread": 0.8}[s] * rng.uniform(0.85, 1.15), room / count)
        for s in styles
    ]
    cards, hand_of = [], {}
    first = 90 + rng.gauss(0, 8)  # the bottom seat, in degrees from the table's middle
    for seat in range(hands):
        where = math.radians(first + seat * 360 / hands + rng.gauss(0, 3))
        mx, my = w / 2 + distance * math.cos(where), h / 2 + distance * math.sin(where)
        facing = math.degrees(where) - 90 + rng.gauss(0, 5)  # the cards' up, to the middle
        style, step = styles[seat], steps[seat] * card_h
        names = dealt[seat * count : (seat + 1) * count]
        a = math.radians(facing)
        for i, name in enumerate(names):
            along = (i - (count - 1) / 2) * step
            turn = (i - (count - 1) / 2) * 4 if style == "fan" else rng.gauss(0, 2)
            lift = -abs(i - (count - 1) / 2) * step * 0.12 if style == "fan" else 0
            x = mx + along * math.cos(a) - lift * math.sin(a)
            y = my + along * math.sin(a) + lift * math.cos(a)
            hom = scenes._place(
                rng, scene, top, len(cards), by_card[name], x, y, facing + turn, card_h
            )
            cards.append((by_card[name], hom))
            hand_of[name] = seat
    corners = scenes._corners_showing(cards, top, size)
    photo = scenes._light(rng, np.asarray(scene.convert("RGB")))
    return photo, corners, hand_of, hands


def labelled(corners):
    """{card: [boxes of its corners that show]}, as bench_vision's labels are read: the
    cards with a corner that shows (scenes.VISIBLE), each once."""
    from games.vision.training import scenes

    truth = {}
    for corner in corners:
        if corner.visible >= scenes.VISIBLE and corner.rank < len(RANKS) - 1:
            truth.setdefault(RANKS[corner.rank] + SUITS[corner.suit], []).append(corner.box)
    return truth
