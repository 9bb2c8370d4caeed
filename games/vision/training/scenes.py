"""Synthetic photos of cards on a table: fans, spreads and heaps of faces on a background,
under uneven light, with perspective, blur, glare, shadow and JPEG noise.

Each photo comes with the corner indices that show in it (at least most of their area): the
index's box, its rank and suit, and the centre of the card it belongs to.
"""

import io
import math
import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from games.vision.training.art import Face

VISIBLE = 0.7  # an index counts when this much of it shows
HIDDEN = 0.3  # below this it is background; between the two the loss ignores it


@dataclass
class Corner:
    box: tuple[float, float, float, float]  # axis-aligned, in the photo's pixels
    rank: int
    suit: int
    card_centre: tuple[float, float]
    visible: float
    card: int  # which card of the photo it belongs to


def _homography(src, dst):
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b += [u, v]
    h = np.linalg.solve(np.array(a, float), np.array(b, float))
    return np.append(h, 1).reshape(3, 3)


def _apply(h, points):
    p = np.c_[np.asarray(points, float), np.ones(len(points))] @ h.T
    return p[:, :2] / p[:, 2:3]


def background(rng: random.Random, size):
    """A table: smooth colour blobs, grain, stripes or a weave, in a random palette."""
    w, h = size
    kind = rng.random()
    small = np.random.default_rng(rng.getrandbits(32))
    base = np.array([rng.randint(0, 255) for _ in range(3)], float)
    other = np.array([rng.randint(0, 255) for _ in range(3)], float)
    cells = rng.choice([2, 4, 8, 16, 32])
    noise = small.random((cells, cells)).astype(np.float32)
    noise = (
        np.asarray(
            Image.fromarray((noise * 255).astype(np.uint8)).resize((w, h), Image.BICUBIC), float
        )[..., None]
        / 255
    )
    img = base * (1 - noise) + other * noise
    if kind < 0.3:  # grain, like cork, felt or wood
        grain = small.normal(0, rng.uniform(5, 30), (h // 2 + 1, w // 2 + 1, 1))
        grain = np.repeat(np.repeat(grain, 2, 0), 2, 1)[:h, :w]
        img = img + grain
    elif kind < 0.5:  # stripes or planks
        period = rng.uniform(6, 80)
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w]
        phase = (xx * math.cos(angle) + yy * math.sin(angle)) / period
        img = img + (np.sin(phase * 2 * math.pi)[..., None] * rng.uniform(5, 40))
    elif kind < 0.6:  # a cloth's weave or a printed pattern with glyph-like marks
        pattern = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
        draw = ImageDraw.Draw(pattern)
        for _ in range(rng.randint(10, 80)):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            r = rng.uniform(2, 25)
            colour = tuple(rng.randint(0, 255) for _ in range(3))
            if rng.random() < 0.5:
                draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=rng.randint(1, 3))
            else:
                draw.line((x, y, x + rng.uniform(-40, 40), y + rng.uniform(-40, 40)), colour, 2)
        img = np.asarray(pattern, float)
    return np.clip(img, 0, 255).astype(np.uint8)


def _layout(rng: random.Random, size, card_h, count):
    """Poses for `count` cards: (centre x, centre y, angle in degrees) in drawing order."""
    w, h = size
    kind = rng.random()
    cx, cy = rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h
    base = rng.uniform(0, 360)
    poses = []
    if kind < 0.4:  # a fan held in the hand: turning about a point below the cards
        spread = rng.uniform(4, 16) * rng.choice([1, 1, 1, -1])
        reach = rng.uniform(0.4, 1.1) * card_h
        start = -spread * (count - 1) / 2
        for i in range(count):
            a = math.radians(base + start + i * spread)
            poses.append(
                (cx + reach * math.sin(a), cy - reach * math.cos(a), base + start + i * spread)
            )
    elif kind < 0.8:  # a spread or a column: each card shifted along itself, as dealt
        step_x = rng.uniform(0.12, 0.45) * card_h * rng.choice([0.7, 0, 0.7, 0.7])
        step_y = rng.uniform(0.1, 0.35) * card_h * rng.choice([0, 1, 1])
        if step_x == 0 and step_y == 0:
            step_x = 0.3 * card_h
        wobble = rng.uniform(0, 4)
        a = math.radians(base)
        for i in range(count):
            dx, dy = i * step_x, i * step_y
            poses.append(
                (
                    cx + dx * math.cos(a) - dy * math.sin(a) + rng.gauss(0, 2),
                    cy + dx * math.sin(a) + dy * math.cos(a) + rng.gauss(0, 2),
                    base + rng.gauss(0, wobble),
                )
            )
    else:  # cards lying anywhere
        for _ in range(count):
            poses.append((rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 360)))
    return poses


# How often a photo's cards come from each deck (the rest of the time, any deck): the photographed
# deck is the only real one, so it is drawn most.
DECK_WEIGHTS = {"photographed": 3, "svg-cards": 2, "fonts": 1}


def pick_deck(rng: random.Random, faces: list[Face]):
    """The faces of one deck, chosen by DECK_WEIGHTS among those given."""
    decks = sorted({f.deck for f in faces})
    deck = rng.choices(decks, [DECK_WEIGHTS.get(d, 1) for d in decks])[0]
    return [f for f in faces if f.deck == deck]


def _place(rng, scene, top, number, face, x, y, angle, card_h):
    """Draw `face` on `scene` centred at (x, y), turned `angle` degrees, `card_h` pixels tall,
    with a little perspective and maybe a shadow; `top` records which card shows where.
    Returns the homography from the face's pixels to the photo's."""
    w, h = scene.size
    fw, fh = face.image.size
    scale = card_h / fh * rng.uniform(0.95, 1.05)
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    corners = []
    for px, py in ((0, 0), (fw, 0), (fw, fh), (0, fh)):
        dx, dy = (px - fw / 2) * scale, (py - fh / 2) * scale
        corners.append((x + dx * ca - dy * sa, y + dx * sa + dy * ca))
    jitter = 0.04 * card_h
    corners = [(u + rng.gauss(0, jitter), v + rng.gauss(0, jitter)) for u, v in corners]
    hom = _homography([(0, 0), (fw, 0), (fw, fh), (0, fh)], corners)
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    left, upper = max(0, int(min(xs)) - 6), max(0, int(min(ys)) - 6)
    right, lower = min(w, int(max(xs)) + 7), min(h, int(max(ys)) + 7)
    if right <= left or lower <= upper:
        return hom
    box = (right - left, lower - upper)
    shift = np.array([[1, 0, -left], [0, 1, -upper], [0, 0, 1]], float)
    inverse = np.linalg.inv(shift @ hom)
    inverse = inverse / inverse[2, 2]
    layer = face.image.transform(
        box, Image.PERSPECTIVE, tuple(inverse.flatten()[:8]), Image.BILINEAR
    )
    alpha = layer.getchannel("A")
    if rng.random() < 0.7:  # the card's shadow on what is under it, shifted a little
        dx, dy = rng.randint(-4, 4), rng.randint(-4, 4)
        shadow = alpha.filter(ImageFilter.GaussianBlur(rng.uniform(1, 4)))
        darkness = rng.uniform(0.2, 0.6)
        shadow = shadow.point(lambda v, k=darkness: int(v * k))
        sx0, sy0 = max(0, left + dx), max(0, upper + dy)
        sx1, sy1 = min(w, right + dx), min(h, lower + dy)
        if sx1 > sx0 and sy1 > sy0:
            piece = shadow.crop(
                (sx0 - left - dx, sy0 - upper - dy, sx1 - left - dx, sy1 - upper - dy)
            )
            dark = Image.new("RGBA", piece.size, (0, 0, 0, 255))
            dark.putalpha(piece)
            scene.alpha_composite(dark, dest=(sx0, sy0))
    scene.alpha_composite(layer, dest=(left, upper))
    region = top[upper:lower, left:right]
    region[np.asarray(alpha) > 127] = number
    return hom


def _corners_showing(cards, top, size):
    """The corner indices of `cards` (face, homography) that show at least HIDDEN."""
    w, h = size
    found = []
    for number, (face, hom) in enumerate(cards):
        if face.is_back:
            continue
        fw, fh = face.image.size
        x0, y0, x1, y1 = face.index_box
        centre = _apply(hom, [(fw / 2, fh / 2)])[0]
        for quad in (
            [(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
            [(fw - x1, fh - y1), (fw - x0, fh - y1), (fw - x0, fh - y0), (fw - x1, fh - y0)],
        ):
            points = _apply(hom, quad)
            left, upper = max(0, int(points[:, 0].min())), max(0, int(points[:, 1].min()))
            right = min(w, int(points[:, 0].max()) + 2)
            lower = min(h, int(points[:, 1].max()) + 2)
            if right <= left or lower <= upper:
                continue
            mask = Image.new("L", (right - left, lower - upper), 0)
            ImageDraw.Draw(mask).polygon([(px - left, py - upper) for px, py in points], fill=1)
            inside = np.asarray(mask, bool)
            area = max(1.0, _polygon_area(points))
            visible = float((top[upper:lower, left:right][inside] == number).sum()) / area
            if visible < HIDDEN:
                continue
            box = (*points.min(0), *points.max(0))
            found.append(
                Corner(box, face.rank, face.suit, tuple(centre), min(visible, 1.0), number)
            )
    return found


def compose(rng: random.Random, faces: list[Face], backs: list[Face], size=(320, 320)):
    """One photo (an RGB uint8 array) and the corners that show in it."""
    w, h = size
    scene = Image.fromarray(background(rng, size)).convert("RGBA")
    top = np.full((h, w), -1, np.int32)
    cards = []  # (face, homography)
    card_h = math.exp(rng.uniform(math.log(70), math.log(430)))
    pool = pick_deck(rng, faces) if rng.random() < 0.8 else faces
    groups = rng.choice([1, 1, 2, 2, 3, 4])
    for _ in range(groups):
        count = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 13])
        for x, y, angle in _layout(rng, size, card_h, count):
            face = rng.choice(backs) if (backs and rng.random() < 0.08) else rng.choice(pool)
            hom = _place(rng, scene, top, len(cards), face, x, y, angle, card_h)
            cards.append((face, hom))
    corners = _corners_showing(cards, top, size)
    photo = _light(rng, np.asarray(scene.convert("RGB")))
    return photo, corners


def deal(
    rng: random.Random, faces: list[Face], backs: list[Face], size=(1200, 1200), card_size=None
):
    """A whole deal laid out on the table, as a bridge or rummy table photographs it: up to
    four hands of up to 13 cards, one at each side, each in a fan or an overlapping row
    facing its player. For validation: a photo like a player's, made from other seeds."""
    w, h = size
    scene = Image.fromarray(background(rng, size)).convert("RGBA")
    top = np.full((h, w), -1, np.int32)
    cards = []
    pool = pick_deck(rng, faces)
    card_h = rng.uniform(*(card_size or (0.14, 0.22))) * min(w, h)
    hands = rng.choice([2, 3, 4, 4, 4])
    for side in rng.sample(range(4), hands):
        count = rng.randint(7, 13)
        facing = side * 90 + rng.gauss(0, 6)  # the hand's "up", turned to its player
        a = math.radians(facing)
        # The hand's middle, between the table's centre and its edge on that side.
        reach = rng.uniform(0.25, 0.33) * min(w, h)
        mx, my = w / 2 - reach * math.sin(a), h / 2 + reach * math.cos(a)
        step = rng.uniform(0.2, 0.3) * card_h
        fan = rng.random() < 0.5
        spread = rng.uniform(3, 7)
        for i in range(count):
            along = (i - (count - 1) / 2) * step
            turn = (i - (count - 1) / 2) * spread if fan else rng.gauss(0, 2)
            lift = -abs(i - (count - 1) / 2) * step * 0.12 if fan else rng.gauss(0, 2)
            x = mx + along * math.cos(a) - lift * math.sin(a)
            y = my + along * math.sin(a) + lift * math.cos(a)
            face = rng.choice(pool)
            hom = _place(rng, scene, top, len(cards), face, x, y, facing + turn, card_h)
            cards.append((face, hom))
    corners = _corners_showing(cards, top, size)
    photo = _light(rng, np.asarray(scene.convert("RGB")))
    return photo, corners


def _polygon_area(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def _light(rng: random.Random, photo):
    """Uneven light, a tint, glare, blur, sensor noise and a phone's JPEG."""
    h, w, _ = photo.shape
    img = photo.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
    ramp = 1 + rng.uniform(0, 0.5) * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    img *= ramp[..., None] * rng.uniform(0.55, 1.25)
    img *= np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.35:  # a soft shadow of a hand or a phone
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.2, 0.7) * w
        d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / r
        img *= (1 - rng.uniform(0.2, 0.55) * np.clip(1.2 - d, 0, 1))[..., None]
    if rng.random() < 0.3:  # glare from a lamp
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * w
        d = ((xx - cx) ** 2 + (yy - cy) ** 2) / r**2
        img += (rng.uniform(60, 200) * np.exp(-d))[..., None]
    img += np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(0, 6), img.shape)
    image = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    if rng.random() < 0.5:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.3)))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=rng.randint(35, 92))
    return np.asarray(Image.open(buffer).convert("RGB"))
