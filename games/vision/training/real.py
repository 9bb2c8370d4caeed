"""Real photographs of cards, labelled per corner index: the CardCounterML set.

    uv run --group vision-train python -m games.vision.training.real PATH/TO/CardCounterML

`Ammememe/CardCounterML` holds `datasets/{train,valid,test}/{images,labels}`, a Roboflow export
(project card-detection-zk7wu, version 12; CC BY 4.0, as its `README.dataset.txt` states) of
640x640 photos, each stretched to that square, with YOLO labels in 55 classes (52 cards, two
jokers, a card's back): one box, or a polygon, per corner index that shows.

Only the photographs of real cards are kept: the phone photos (`IMG_…`) and the webcam photos
of cards on a table (`WIN_…`). The composed scenes, the screenshots of online poker, the crops
and the webcam frames of a person holding up a card are left out. Roboflow stored most
originals three times with noise added (`<original>_jpg.rf.<hash>.jpg`): one is kept, the first
by name. The originals are split once, by a fixed seed, into the held-out set
(`real_held_out.txt`, beside this file: measured by the bench, never trained or tuned on), a
validation set cut from the rest (`real_validation.txt`: models are chosen on it) and the
training photos (all the others). Run as above, this module writes those two lists; the build
and the bench only read them.
"""

import argparse
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from games.vision import reader
from games.vision.labels import JOKER_RANK, NONE_RANK, RANKS, SUITS

# The set's 55 classes, in its data.yaml's order.
_NUMBERS = ("10", "2", "3", "4", "5", "6", "7", "8", "9", "A")
CLASSES = (
    *(f"{rank}{suit}" for rank in _NUMBERS for suit in SUITS),
    "BACK",
    "BLACK JOKER",
    *(f"{rank}{suit}" for rank in ("J", "K", "Q") for suit in SUITS),
    "RED JOKER",
)
KEPT = re.compile(r"^(IMG|WIN)_")  # phone and webcam photographs of real cards
COPY = re.compile(r"_(jpe?g|png)\.rf\.[0-9a-f]+\.jpg$", re.IGNORECASE)
HERE = Path(__file__).parent
HELD_OUT = HERE / "real_held_out.txt"
VALIDATION = HERE / "real_validation.txt"
SPLIT_SEED = 35
HELD_OUT_SHARE = 0.2  # of each family of photos (phone 2022, phone 77xx, webcam)
VALIDATION_SHARE = 0.1  # of what is left, for choosing models
ONE_HAND = 13  # a held-out photo of at most this many cards is a photo of one hand


@dataclass(frozen=True)
class Index:
    """One labelled corner index: its box in the photo's pixels and its card."""

    box: tuple[float, float, float, float]
    card: str  # "10C", "JK"

    @property
    def rank(self):
        return JOKER_RANK if self.card == "JK" else RANKS.index(self.card[:-1])

    @property
    def suit(self):
        return -1 if self.card == "JK" else SUITS.index(self.card[-1])

    @property
    def centre(self):
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def originals(folder: Path):
    """{original photo's name: the file kept for it}, real photographs only."""
    copies = {}
    for image in sorted((folder / "datasets").glob("*/images/*")):
        if not KEPT.match(image.name):
            continue
        copies.setdefault(COPY.sub("", image.name), []).append(image)
    return {name: files[0] for name, files in sorted(copies.items())}


def family(name):
    """The camera and session a photo came from: its name with the digits blanked."""
    return re.sub(r"\d", "#", name)[:12]


def split(names, seed=SPLIT_SEED):
    """(held out, validation): each family shuffled by `seed`, its first HELD_OUT_SHARE held
    out, then VALIDATION_SHARE of the rest kept for validation."""
    rng = random.Random(seed)
    held_out, validation = [], []
    for kind in sorted({family(n) for n in names}):
        members = sorted(n for n in names if family(n) == kind)
        rng.shuffle(members)
        cut = math.ceil(len(members) * HELD_OUT_SHARE)
        rest = members[cut:]
        held_out += members[:cut]
        validation += rest[: math.ceil(len(rest) * VALIDATION_SHARE)]
    return sorted(held_out), sorted(validation)


def read_list(path: Path):
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def labels_of(image: Path, size=(640, 640)):
    """The corner indices labelled for one photo (a polygon taken as its box); backs left out."""
    w, h = size
    label_file = image.parent.parent / "labels" / (image.stem + ".txt")
    found = []
    for line in label_file.read_text().splitlines():
        values = line.split()
        if len(values) < 5:
            continue
        name = CLASSES[int(values[0])]
        if name == "BACK":
            continue
        numbers = [float(v) for v in values[1:]]
        if len(numbers) == 4:
            x, y, bw, bh = numbers
            box = ((x - bw / 2) * w, (y - bh / 2) * h, (x + bw / 2) * w, (y + bh / 2) * h)
        else:
            xs, ys = numbers[0::2], numbers[1::2]
            box = (min(xs) * w, min(ys) * h, max(xs) * w, max(ys) * h)
        found.append(Index(box, "JK" if "JOKER" in name else name))
    return found


def card_centres(indices):
    """Where each index's card centre is, where the labels tell it: a card whose label is
    on exactly two indices of the photo lies between them (a card's two indices are at
    opposite corners). None for the others (one index shows, or the label is on more)."""
    count = Counter(i.card for i in indices)
    centres = []
    for index in indices:
        if count[index.card] != 2:
            centres.append(None)
            continue
        a, b = (i.centre for i in indices if i.card == index.card)
        centres.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return centres


def cards_in(indices):
    """The cards a photo shows: each label once, or as many times as it has indices beyond
    two (two decks' equal cards)."""
    count = Counter(i.card for i in indices)
    return Counter({card: max(1, math.ceil(n / 2)) for card, n in count.items()})


# The phone photos of 2022 were labelled with loose boxes, about 1.55 times as long each way
# as the committed finder's on the same indices (79 indices of the training photos; the webcam's
# 0.87 and 1.21, stretched as those photos were): for training, their boxes are brought to the
# tight box the composed photos teach.
BOX_SCALE = {"IMG_########": 1 / 1.55}


def load(folder: Path, names):
    """[(photo as RGB uint8, [(x0, y0, x1, y1, rank, suit, centre x, centre y, 1.0)])] for
    the named originals, their boxes scaled by BOX_SCALE; a centre unknown is NaN
    (train.targets leaves it out of the loss)."""
    kept = originals(folder)
    data = []
    for name in names:
        image = kept[name]
        with Image.open(image) as opened:
            photo = np.asarray(opened.convert("RGB"))
        indices = labels_of(image, (photo.shape[1], photo.shape[0]))
        k = BOX_SCALE.get(family(name), 1.0)
        corners = []
        for index, centre in zip(indices, card_centres(indices), strict=True):
            cx, cy = centre or (math.nan, math.nan)
            (x, y), (w, h) = (
                index.centre,
                (index.box[2] - index.box[0], index.box[3] - index.box[1]),
            )
            box = (x - k * w / 2, y - k * h / 2, x + k * w / 2, y + k * h / 2)
            corners.append((*box, index.rank, index.suit, cx, cy, 1.0))
        data.append((photo, corners))
    return data


def training_names(folder: Path):
    """The originals the build may train on: all but the held-out and validation lists."""
    excluded = set(read_list(HELD_OUT)) | set(read_list(VALIDATION))
    return [name for name in originals(folder) if name not in excluded]


def main(argv=None):
    parser = argparse.ArgumentParser(description="split CardCounterML's real photos, once")
    parser.add_argument("folder", type=Path, help="the CardCounterML repository's folder")
    args = parser.parse_args(argv)
    names = list(originals(args.folder))
    held_out, validation = split(names)
    HELD_OUT.write_text("\n".join(held_out) + "\n")
    VALIDATION.write_text("\n".join(validation) + "\n")
    print(
        f"{len(names)} real photographs: {len(held_out)} held out, {len(validation)} for "
        f"validation, {len(names) - len(held_out) - len(validation)} to train on"
    )


if __name__ == "__main__":
    main()


def seen_by_finder(photo):
    """The corners the finder in use (reader.use_models) sees in a photo, as it is and, for
    large indices, at half its size: what with_unlabelled is given."""
    corners = reader.corners_from_maps(reader.run_model(photo))
    half = np.asarray(Image.fromarray(photo).reduce(2))
    return corners + [c.scaled(2.0) for c in reader.corners_from_maps(reader.run_model(half))]


def with_unlabelled(data, find, least=0.5):
    """`data` (load's) with what `find` (a photo to corners, as reader.corners_from_maps gives
    them) sees confidently, heat at least `least`, and no label is near: an index the labels
    missed, or not one. Either way the loss neither rewards nor punishes the finder there (an
    entry seen less than scenes.VISIBLE), so a card the labellers left out teaches nothing."""
    out = []
    for photo, corners in data:
        extra = []
        for corner in find(photo):
            if corner.score < least:
                continue
            x, y = corner.centre
            near = any(
                c[0] - (c[2] - c[0]) <= x <= c[2] + (c[2] - c[0])
                and c[1] - (c[3] - c[1]) <= y <= c[3] + (c[3] - c[1])
                for c in corners
            )
            if not near:
                extra.append((*corner.box, -1, -1, math.nan, math.nan, 0.5))
        out.append((photo, corners + extra))
    return out


def index_crops(data, count, seed, far=0.0):
    """`count` crops for the namers from real photos (load's, with_unlabelled's entries kept
    clear of): (images, ranks, suits) as train_index.generate gives them. Four in five are a
    labelled index whose card centre is known, cut upright as the reader cuts it (its centre
    shifted, its side 0.85-1.25 times, turned up to about 8 degrees either way: the finder's
    errors), the photo first stretched by up to REAL_ASPECT either way as the set's were; the
    rest are "not an index": a square of the photo where nothing is labelled or found. Lit,
    blurred and JPEG'd as crops.crop does, `far` of them seen from far."""
    from games.vision.reader import Corner, _upright_crop
    from games.vision.training import crops, train

    rng = random.Random(seed)
    known = [
        (i, c)
        for i, (_, corners) in enumerate(data)
        for c in corners
        if c[8] >= 1 and not math.isnan(c[6])
    ]
    images, ranks, suits = [], [], []
    for _ in range(count):
        i, (x0, y0, x1, y1, rank, suit, ccx, ccy, _) = rng.choice(known)
        photo, corners = data[i]
        fx = math.exp(rng.uniform(-1, 1) * math.log(train.REAL_ASPECT)) if rng.random() < 0.5 else 1
        bw, bh = (x1 - x0) * fx, y1 - y0
        cx, cy = (x0 + x1) / 2 * fx, (y0 + y1) / 2
        to_centre = (ccx * fx - cx, ccy - cy)
        if rng.random() < 0.2:  # not an index: somewhere nothing is labelled or found
            clear = _clear_of(rng, corners, photo.shape, fx)
            if clear:
                (cx, cy), rank, suit = clear, NONE_RANK, -1
                angle = rng.uniform(0, 2 * math.pi)
                reach = math.hypot(*to_centre)
                to_centre = (reach * math.cos(angle), reach * math.sin(angle))
        else:
            jitter = 0.08 * max(bw, bh)
            cx, cy = cx + rng.gauss(0, jitter), cy + rng.gauss(0, jitter)
        # Only the square around the crop is stretched: a whole photo's resize costs more.
        reach = 2.5 * max(bw, bh) + 4
        left, top = max(0, int((cx - reach) / fx)), max(0, int(cy - reach))
        right = min(photo.shape[1], int((cx + reach) / fx) + 2)
        bottom = min(photo.shape[0], int(cy + reach) + 2)
        image = Image.fromarray(photo[top:bottom, left:right])
        image = image.resize((max(1, round(image.width * fx)), image.height), Image.BILINEAR)
        cx, cy = cx - left * fx, cy - top
        corner = Corner(
            (cx, cy), (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), to_centre, 1.0, None
        )
        crop = _upright_crop(image, corner, zoom=rng.uniform(0.85, 1.25), spin=rng.gauss(0, 5))
        patch = Image.fromarray(np.ascontiguousarray(crop.transpose(1, 2, 0)))
        images.append(crops._light(rng, patch, far))
        ranks.append(rank)
        suits.append(suit if suit >= 0 else -100)
    return np.stack(images), np.array(ranks, np.int64), np.array(suits, np.int64)


def _clear_of(rng, corners, shape, fx, tries=20):
    """A point of the photo (stretched by fx) at least two index sizes from every entry."""
    h, w = shape[:2]
    for _ in range(tries):
        x, y = rng.uniform(0, w * fx), rng.uniform(0, h)
        if all(
            abs(x - (c[0] + c[2]) / 2 * fx) > 2 * (c[2] - c[0]) * fx + 8
            or abs(y - (c[1] + c[3]) / 2) > 2 * (c[3] - c[1]) + 8
            for c in corners
        ):
            return x, y
    return None
