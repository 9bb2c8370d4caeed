"""Card faces to compose photos from, each with where its corner indices are printed.

Three sources: the `svg-cards` npm package's PNG renderings (LGPL-2.1), photographs of a
real deck's 52 faces (MrKeSuu/bidly `rawdata/data/cards/`, MIT; optional, given as a folder),
and faces this module draws itself with the system's DejaVu fonts.
"""

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from games.vision.labels import JOKER_RANK, RANKS, SUITS

SVG_CARDS_RANKS = {str(n): str(n) for n in range(2, 11)} | {
    "1": "A", "jack": "J", "queen": "Q", "king": "K",
}  # fmt: skip
SVG_CARDS_SUITS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


@dataclass
class Face:
    """One card face: RGBA art, its rank and suit indices (suit -1 for a joker, rank -1 for a
    back) and the box [x0, y0, x1, y1] of its top-left corner index in the art's pixels."""

    image: Image.Image
    rank: int
    suit: int
    index_box: tuple[float, float, float, float] | None
    deck: str

    @property
    def is_back(self):
        return self.rank < 0


def _ink_box(image, window):
    """The box around the printed ink (dark or red) inside `window` (fractions of the card)."""
    w, h = image.size
    x0, y0, x1, y1 = int(window[0] * w), int(window[1] * h), int(window[2] * w), int(window[3] * h)
    rgb = np.asarray(image.convert("RGB"), dtype=np.int16)[y0:y1, x0:x1]
    lum = rgb.mean(axis=2)
    red = (rgb[..., 0] - rgb[..., 1]) > 70
    ink = (lum < 130) | red
    ys, xs = np.nonzero(ink)
    if len(xs) < 10:
        raise ValueError("no ink found in the corner window")
    return (x0 + xs.min() - 2.0, y0 + ys.min() - 2.0, x0 + xs.max() + 3.0, y0 + ys.max() + 3.0)


def _rounded(image, radius_fraction=0.05):
    """The art with transparent rounded corners, as a real card is cut."""
    image = image.convert("RGBA")
    w, h = image.size
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=int(radius_fraction * w), fill=255
    )
    alpha = np.minimum(np.asarray(image.getchannel("A")), np.asarray(mask))
    image.putalpha(Image.fromarray(alpha))
    return image


def svg_cards_faces(folder: Path):
    """The faces, jokers and backs of svg-cards' 2x PNG renderings."""
    faces = []
    for path in sorted(folder.glob("*.png")):
        stem = path.stem
        image = Image.open(path).convert("RGBA")
        if stem.startswith("back"):
            faces.append(Face(image, -1, -1, None, "svg-cards"))
        elif stem.startswith("joker"):
            box = _ink_box(image, (0.01, 0.005, 0.26, 0.1))
            faces.append(Face(image, JOKER_RANK, -1, box, "svg-cards"))
        elif "_" in stem and stem.split("_")[0] in SVG_CARDS_SUITS:
            suit, rank = stem.split("_")
            box = _ink_box(image, (0.008, 0.005, 0.125, 0.205))
            rank_index = RANKS.index(SVG_CARDS_RANKS[rank])
            faces.append(
                Face(image, rank_index, SUITS.index(SVG_CARDS_SUITS[suit]), box, "svg-cards")
            )
    return faces


def photographed_faces(folder: Path):
    """Photographs of a real deck's faces, named like `10h.jpg`, `Qs.jpg` (bidly's naming)."""
    faces = []
    for path in sorted(folder.glob("*.jpg")):
        rank, suit = path.stem[:-1].upper(), path.stem[-1].upper()
        if rank not in RANKS or suit not in SUITS:
            continue
        image = _rounded(Image.open(path), 0.06)
        w, h = image.size
        box = _ink_box(image, (0.03, 0.027, 0.148, 0.27))
        faces.append(Face(image, RANKS.index(rank), SUITS.index(suit), box, "photographed"))
    return faces


SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
FONTS = [
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSans.ttf",
    "DejaVuSansMono-Bold.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
]


def drawn_face(rng: random.Random, rank: int, suit: int):
    """A face drawn here: a random font, ink and layout, the index in the top-left corner and
    again upside down in the bottom-right, pips or a picture between."""
    w, h = 250, 350
    paper = tuple(rng.randint(228, 255) for _ in range(3))
    image = Image.new("RGBA", (w, h), paper + (255,))
    draw = ImageDraw.Draw(image)
    font_path = str(FONT_DIR / rng.choice(FONTS))
    red = (rng.randint(170, 230), rng.randint(0, 40), rng.randint(0, 50), 255)
    black = (rng.randint(0, 40),) * 3 + (255,)
    joker = rank == JOKER_RANK
    ink = red if (suit in (1, 2) or (joker and rng.random() < 0.5)) else black
    text = "JOKER" if joker else RANKS[rank]
    size = rng.randint(34, 46)
    font = ImageFont.truetype(font_path, size)
    x, y = rng.randint(8, 16), rng.randint(8, 16)
    # A wide rank ("10") is squeezed as printers do.
    if joker:
        layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        ld = ImageDraw.Draw(layer)
        if rng.random() < 0.5:  # the word stacked letter under letter
            small = ImageFont.truetype(font_path, int(size * 0.55))
            for i, letter in enumerate(text):
                ld.text((x, y + i * int(size * 0.55)), letter, font=small, fill=ink)
        else:
            ld.text((x, y), text, font=ImageFont.truetype(font_path, int(size * 0.6)), fill=ink)
        image.alpha_composite(layer)
        box = _ink_box(image, (0, 0, 0.6, 0.6))
    else:
        rank_box = draw.textbbox((x, y), text, font=font)
        if rank_box[2] - rank_box[0] > 0.22 * w:
            narrow = ImageFont.truetype(font_path, int(size * 0.75))
            draw.text((x - 2, y), text, font=narrow, fill=ink)
            rank_box = draw.textbbox((x - 2, y), text, font=narrow)
        else:
            draw.text((x, y), text, font=font, fill=ink)
        symbol_font = ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), int(size * 0.8))
        cx = (rank_box[0] + rank_box[2]) / 2
        sy = rank_box[3] + rng.randint(1, 6)
        draw.text((cx, sy), SYMBOLS[SUITS[suit]], font=symbol_font, fill=ink, anchor="mt")
        box = _ink_box(image, (0, 0, 0.3, 0.4))
        # The middle: pips for a number, a framed picture for a court card.
        pip_font = ImageFont.truetype(str(FONT_DIR / "DejaVuSans.ttf"), rng.randint(40, 60))
        if rank >= 10 or rank == 0:
            frame = (int(0.25 * w), int(0.18 * h), int(0.75 * w), int(0.82 * h))
            if rank >= 10:
                draw.rectangle(frame, outline=ink, width=2)
                for _ in range(12):
                    colour = tuple(rng.randint(0, 255) for _ in range(3)) + (255,)
                    px, py = rng.randint(frame[0], frame[2]), rng.randint(frame[1], frame[3])
                    r = rng.randint(6, 30)
                    draw.ellipse((px - r, py - r, px + r, py + r), fill=colour)
            draw.text((w / 2, h / 2), SYMBOLS[SUITS[suit]], font=pip_font, fill=ink, anchor="mm")
        else:
            for _ in range(rank + 1):
                px, py = rng.uniform(0.35, 0.65) * w, rng.uniform(0.25, 0.75) * h
                draw.text((px, py), SYMBOLS[SUITS[suit]], font=pip_font, fill=ink, anchor="mm")
    # The same index upside down in the opposite corner.
    corner = image.crop(tuple(int(v) for v in box)).rotate(180)
    image.alpha_composite(corner, (int(w - box[2]), int(h - box[3])))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, outline=(150, 150, 150, 255))
    return Face(_rounded(image), rank, -1 if joker else suit, box, "fonts")


def drawn_back(rng: random.Random):
    """A back: a pattern in one or two inks on a bordered card, with no index."""
    w, h = 250, 350
    base = tuple(rng.randint(0, 255) for _ in range(3))
    ink = tuple(rng.randint(0, 255) for _ in range(3))
    image = Image.new("RGBA", (w, h), (255, 255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((12, 12, w - 13, h - 13), fill=base + (255,))
    step = rng.randint(6, 20)
    for k in range(-h, w + h, step):
        draw.line([(k, 0), (k + h, h)], fill=ink + (255,), width=2)
        if rng.random() < 0.5:
            draw.line([(k + h, 0), (k, h)], fill=ink + (255,), width=1)
    image = image.filter(ImageFilter.SMOOTH)
    return Face(_rounded(image), -1, -1, None, "fonts")
