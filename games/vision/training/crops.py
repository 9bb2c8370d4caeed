"""Upright crops of corner indices, for the classifier that names what the detector found.

The detector says where an index is and which way its card's centre lies; from that the
reader turns the index upright and crops it. These crops are made the same way from the
card art: turned a little (the detector's error), shifted, scaled, half hidden by other
cards, on any background, under any light; and crops of what is not an index (pips, faces,
backs, the table) teach the classifier to say "none".
"""

import io
import math
import random

import numpy as np
from PIL import Image, ImageFilter

from games.vision.labels import CROP, NONE_RANK
from games.vision.training.art import Face
from games.vision.training.scenes import background, pick_deck


def _patch(rng, face: Face, centre, side, angle, backs, faces):
    """A `side`-pixel square of the face around `centre` (face pixels), turned `angle`
    degrees, with the table and maybe another card's edge across it, as CROP x CROP RGB."""
    reach = int(side * 0.75) + 3  # half the canvas: the turned square fits inside
    size = 2 * reach
    cx, cy = centre
    canvas = Image.fromarray(background(rng, (size, size))).convert("RGBA")
    canvas.alpha_composite(face.image, (int(reach - cx), int(reach - cy)))
    if rng.random() < 0.6:  # the edge of the next card of a fan or a spread over this one
        other = rng.choice(faces + backs).image
        ox = rng.randint(0, max(0, other.width - size))
        oy = rng.randint(0, max(0, other.height - size))
        piece = other.crop((ox, oy, ox + size, oy + size)).rotate(rng.uniform(0, 360))
        direction = rng.uniform(0, 2 * math.pi)
        distance = side * rng.uniform(0.4, 0.9)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - reach
        along = xx * math.cos(direction) + yy * math.sin(direction)
        cover = along > distance
        shadow = (along > distance - rng.uniform(1, 4)) & ~cover
        pixels = np.asarray(canvas).copy()
        top = np.asarray(piece.convert("RGBA"))
        opaque = cover & (top[..., 3] > 128)
        pixels[opaque] = top[opaque]
        pixels[shadow, :3] = (pixels[shadow, :3] * rng.uniform(0.3, 0.8)).astype(np.uint8)
        canvas = Image.fromarray(pixels)
    a = math.radians(angle)
    scale = side / CROP
    ca, sa = math.cos(a) * scale, math.sin(a) * scale
    b = -sa + rng.uniform(-0.08, 0.08) * scale  # a little shear for the perspective
    # Output pixel (u, v) reads the canvas at its middle + R(angle) * scale * (u, v) - CROP/2.
    coeffs = (ca, b, reach - (ca + b) * CROP / 2, sa, ca, reach - (sa + ca) * CROP / 2)
    patch = canvas.transform((CROP, CROP), Image.AFFINE, coeffs, Image.BILINEAR)
    return patch.convert("RGB")


def _light(rng, patch, far=0.0):
    img = np.asarray(patch, np.float32)
    img = img * rng.uniform(0.5, 1.25) + rng.uniform(-30, 30)
    img = img * np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.3:
        ramp = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.9, 1.3), CROP, dtype=np.float32)
        img = img * (ramp[None, :, None] if rng.random() < 0.5 else ramp[:, None, None])
    img += np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(0, 8), img.shape)
    image = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    if rng.random() < 0.4:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    if far and rng.random() < far:
        # Seen from far: the index a few pixels tall in the photo, and JPEG'd at that size,
        # as a card at the far side of the table is; the reader brings it back up to CROP.
        small = rng.randint(13, 26)
        image = image.resize((small, small), Image.BILINEAR)
        image = _jpeg(image, rng.randint(55, 95)).resize((CROP, CROP), Image.BILINEAR)
        return np.asarray(image)
    if rng.random() < 0.2:  # seen small: up from a few pixels, as a far card would be
        small = rng.randint(14, 24)
        image = image.resize((small, small), Image.BILINEAR).resize((CROP, CROP), Image.BILINEAR)
    if rng.random() < 0.6:
        image = _jpeg(image, rng.randint(30, 90))
    return np.asarray(image)


def _jpeg(image, quality):
    """The image after a round trip through JPEG at `quality`."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return Image.open(buffer).convert("RGB")


def crop(rng: random.Random, faces: list[Face], backs: list[Face], far=0.0):
    """One training crop: (CROP x CROP x 3 uint8, rank or NONE_RANK, suit or -1); `far` of
    them seen from far (the far namer's share)."""
    if rng.random() < 0.2:
        face = rng.choice(faces + backs)
        fw, fh = face.image.size
        centre = (rng.uniform(0.15, 0.85) * fw, rng.uniform(0.15, 0.85) * fh)
        side = rng.uniform(0.12, 0.35) * fh
        patch = _patch(rng, face, centre, side, rng.uniform(0, 360), backs, faces)
        return _light(rng, patch, far), NONE_RANK, -1
    face = rng.choice(pick_deck(rng, faces) if rng.random() < 0.8 else faces)
    x0, y0, x1, y1 = face.index_box
    long_side = max(x1 - x0, y1 - y0)
    jitter = 0.12 * long_side
    centre = ((x0 + x1) / 2 + rng.gauss(0, jitter), (y0 + y1) / 2 + rng.gauss(0, jitter))
    side = long_side * rng.uniform(1.15, 1.6)
    angle = rng.gauss(0, 12)
    patch = _patch(rng, face, centre, side, angle, backs, faces)
    return _light(rng, patch, far), face.rank, face.suit
