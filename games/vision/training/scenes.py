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


def compose(rng: random.Random, faces: list[Face], backs: list[Face], size=(320, 320)):
    """One photo (an RGB uint8 array) and the corners that show in it."""
    w, h = size
    scene = Image.fromarray(background(rng, size)).convert("RGBA")
    top = np.full((h, w), -1, np.int32)
    cards = []  # (face, homography)
    card_h = math.exp(rng.uniform(math.log(80), math.log(430)))
    deck = rng.choice(sorted({f.deck for f in faces}))
    pool = [f for f in faces if f.deck == deck] if rng.random() < 0.8 else faces
    groups = rng.choice([1, 1, 2, 2, 3, 4])
    for _ in range(groups):
        count = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 10, 13])
        for x, y, angle in _layout(rng, size, card_h, count):
            face = rng.choice(backs) if (backs and rng.random() < 0.08) else rng.choice(pool)
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
            src = [(0, 0), (fw, 0), (fw, fh), (0, fh)]
            hom = _homography(src, corners)
            inverse = np.linalg.inv(hom)
            inverse = inverse / inverse[2, 2]
            layer = face.image.transform(
                size, Image.PERSPECTIVE, tuple(inverse.flatten()[:8]), Image.BILINEAR
            )
            alpha = layer.getchannel("A")
            if rng.random() < 0.7:  # the card's shadow on what is under it
                offset = (rng.randint(-4, 4), rng.randint(-4, 4))
                shadow = alpha.filter(ImageFilter.GaussianBlur(rng.uniform(1, 4)))
                darkness = rng.uniform(0.2, 0.6)
                shadow = shadow.point(lambda v, k=darkness: int(v * k))
                dark = Image.new("RGBA", size, (0, 0, 0, 255))
                dark.putalpha(shadow)
                scene.alpha_composite(dark, dest=offset)
            scene.alpha_composite(layer)
            top[np.asarray(alpha) > 127] = len(cards)
            cards.append((face, hom))
    corners = []
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
            mask = Image.new("L", size, 0)
            ImageDraw.Draw(mask).polygon([tuple(p) for p in points], fill=1)
            inside = np.asarray(mask, bool)
            area = max(1.0, _polygon_area(points))
            visible = float((top[inside] == number).sum()) / area
            if visible < HIDDEN:
                continue
            box = (*points.min(0), *points.max(0))
            corners.append(
                Corner(box, face.rank, face.suit, tuple(centre), min(visible, 1.0), number)
            )
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
