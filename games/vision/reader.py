"""Reading the cards in a photo with the committed model, on the CPU."""

import math
import os
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
from PIL import Image

from games.vision.labels import CENTRE_BEARING, CROP, JOKER_RANK, NONE_RANK, RANKS, STRIDE, SUITS
from games.vision.pairing import cards_from_corners
from games.vision.photo import open_photo
from games.vision.readings import CardReading, Corner

MODEL_PATH = Path(__file__).with_name("cards.onnx")  # finds the indices
# Two namers name each index, turned upright, and their answers are averaged: one trained on
# indices as most photos show them, one on indices seen from far (a few pixels tall).
INDEX_MODEL_PATH = Path(__file__).with_name("index.onnx")
FAR_INDEX_MODEL_PATH = Path(__file__).with_name("index-far.onnx")
NAMERS = (INDEX_MODEL_PATH, FAR_INDEX_MODEL_PATH)
THREADS = int(os.environ.get("SCOREKEEPER_VISION_THREADS", "1"))
# How many of the finder's looks (and of the namers) run at once, each on one core: onnxruntime
# lets go of the GIL while it runs, and the looks' maps are added up in the same order, so the
# cards read are the same. One by default: a web worker reads beside the other workers' pages,
# and each look run at once holds its own memory (MODEL.md); `read_cards` uses its cores.
AT_ONCE = int(os.environ.get("SCOREKEEPER_VISION_AT_ONCE", "1"))
FOUND = 0.3  # heat above which a corner index counts as seen
NOT_AN_INDEX = 0.5  # a crop the namer calls "none" with more than this is not a card
INDEX_ASPECT = 0.4  # an index's width over its height, about the same in every deck
CROP_SIDE = 1.35  # the crop's side over the index's height, as in training
UNSURE_BELOW = 0.8  # a card read with less confidence is marked for the player to check
# The finder looks at the photo turned each of these quarter turns and its maps are averaged:
# four looks cost four times the finder's time and find more (MODEL.md has the figures).
TURNS = tuple(int(k) for k in os.environ.get("SCOREKEEPER_VISION_TURNS", "0,1,2,3").split(","))
# The finder knows indices from about 8 to 96 pixels long. The photo is looked at whole and
# brought down to each of these shares of its size; each look keeps the indices of its own
# band of lengths, in the photo's pixels (a card across the table is found in the photo as
# it is, a hand held close to the lens, its indices a quarter of the photo's height, in the
# photo brought down to a quarter). (how many times smaller, shortest, longest kept)
SCALES = ((1, 0, 80), (2, 64, 160), (4, 128, math.inf))
SMALLEST_LOOK = 64  # pixels: a look at a photo brought down smaller than this is not taken
# Each index is named from five crops, (zoom, turn in degrees): as the finder places it, a
# little further (its side 1.12 times as long), a little closer, and turned a little each
# way; the answers are averaged.
INDEX_LOOKS = ((1.0, 0.0), (1.12, 0.0), (0.9, 0.0), (1.0, 8.0), (1.0, -8.0))
# The finder's maps: heat, then rank and suit scores, then from here the geometry (offset x
# and y, log box width and height, vector to the card's centre x and y).
GEOMETRY = 1 + len(RANKS) + len(SUITS)


_sessions = {}
_sessions_lock = threading.Lock()
_namers = NAMERS
_pool = (None, None)  # ((the process it was made in, its size), the threads that run looks)


def run_at_once(looks: int | None = None):
    """Run `looks` of the finder's looks at once from now on; by default as many as the cores
    this process may use, at most four (SCOREKEEPER_VISION_AT_ONCE, where set, wins)."""
    global AT_ONCE
    if "SCOREKEEPER_VISION_AT_ONCE" in os.environ:
        return
    if looks is None:
        cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        looks = min(4, len(cores) if cores else os.cpu_count() or 1)
    AT_ONCE = max(1, looks)


def _all_at_once(calls):
    """What each of `calls` (functions of nothing) returns, in order, AT_ONCE run at a time."""
    global _pool
    if AT_ONCE <= 1 or len(calls) <= 1:
        return [call() for call in calls]
    with _sessions_lock:
        made_for, pool = _pool
        if made_for != (os.getpid(), AT_ONCE):  # threads do not survive a fork
            if pool is not None and made_for[0] == os.getpid():
                pool.shutdown(wait=False)
            pool = ThreadPoolExecutor(AT_ONCE, thread_name_prefix="vision")
            _pool = ((os.getpid(), AT_ONCE), pool)
    return list(pool.map(lambda call: call(), calls))


def _session(path):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # Without onnxruntime's own arena a worker gives back a look's memory when it is done: about
    # 210 MB a worker after reading a 52-card photo instead of 370 (MODEL.md), for the same time.
    options.enable_cpu_mem_arena = False
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _model(path=MODEL_PATH):
    """An ONNX session, made once per process; onnxruntime's run is safe across threads."""
    session = _sessions.get(path)
    if session is None:
        with _sessions_lock:
            session = _sessions.get(path)
            if session is None:
                session = _sessions[path] = _session(path)
    return session


def use_models(finder: Path, namers=NAMERS):
    """Read with other model files than the committed ones (to measure a rebuilt finder, or
    other namers: each of them names every index and their answers are averaged)."""
    global _namers
    with _sessions_lock:
        _sessions[MODEL_PATH] = _session(finder)
        _namers = tuple(Path(namer) for namer in namers)
        for namer in _namers:  # fresh, as the finder's: the file may have been rebuilt
            _sessions[namer] = _session(namer)


def read_cards(data: bytes, supply: Mapping[str, int] | None = None) -> list[CardReading]:
    """The cards in a photo (its bytes), best first; raises a PhotoError for a bad file.
    `supply`: how many copies of each label the game's decks hold (`deck_supply`), if known:
    no label is then read more often than that."""
    pixels, scale = open_photo(data)
    return read_pixels(pixels, scale, supply)


def read_pixels(
    pixels: np.ndarray, scale: float = 1.0, supply: Mapping[str, int] | None = None
) -> list[CardReading]:
    """The cards in an RGB uint8 array; boxes are multiplied by `scale`."""
    h, w, _ = pixels.shape
    corners = name_corners(pixels, find_corners(pixels))
    return cards_from_corners(corners, scale, (w * scale, h * scale), supply)


def find_corners(pixels: np.ndarray) -> list[Corner]:
    """The corner indices of every size in the photo: the finder's looks at each of SCALES,
    each keeping the indices of its band of lengths, one corner for each index."""
    h, w, _ = pixels.shape
    image = Image.fromarray(pixels)
    scales = [
        (factor, shortest, longest, pixels if factor == 1 else np.asarray(image.reduce(factor)))
        for factor, shortest, longest in SCALES
        if min(h, w) // factor >= SMALLEST_LOOK
    ]
    # Every look of every scale at once, then each scale's looks averaged.
    looks = [(_padded(look), k) for *_, look in scales for k in TURNS]
    seen = iter(_all_at_once([partial(_look, padded, k) for padded, k in looks]))
    corners = []
    for factor, shortest, longest, look in scales:
        maps = _averaged([next(seen) for _ in TURNS], look.shape)
        for corner in corners_from_maps(maps):
            corner = corner.scaled(float(factor)) if factor > 1 else corner
            if shortest <= _length(corner) < longest:
                corners.append(corner)
    return _without_repeats(corners)


def _length(corner):
    return max(corner.box[2] - corner.box[0], corner.box[3] - corner.box[1])


def run_model(pixels: np.ndarray, turns=None) -> np.ndarray:
    """The finder's maps for the photo, averaged over the photo looked at in each of `turns`
    quarter turns (the maps of a turned look turned back, their vectors with them)."""
    padded = _padded(pixels)
    looks = TURNS if turns is None else turns
    return _averaged(_all_at_once([partial(_look, padded, k) for k in looks]), pixels.shape)


def _padded(pixels):
    """The photo padded to a multiple of 16 pixels each way, as the finder takes it."""
    h, w, _ = pixels.shape
    ph, pw = -h % 16, -w % 16
    if ph or pw:
        pixels = np.pad(pixels, ((0, ph), (0, pw), (0, 0)), constant_values=128)
    return pixels


def _look(padded, k):
    """The finder's maps of the padded photo turned k quarter turns, turned back."""
    batch = np.ascontiguousarray(np.rot90(padded, k).transpose(2, 0, 1)[None])
    maps = _model().run(None, {"image": batch})[0][0]
    return _turned_back(maps, k % 4) if k % 4 else maps


def _averaged(looks, shape):
    """The looks' maps averaged (added up in order), cut to the photo's own size."""
    total = looks[0]
    for maps in looks[1:]:
        total = total + maps
    maps = total / len(looks)
    return maps[:, : -(-shape[0] // STRIDE), : -(-shape[1] // STRIDE)]


def _turned_back(maps, k):
    """Maps of the photo turned k quarter turns anticlockwise (np.rot90), in the photo's frame."""
    maps = np.rot90(maps, -k, axes=(1, 2)).copy()
    g = GEOMETRY
    for _ in range(k):
        # A vector (x, y) in the turned frame is (-y, x) in the frame before the turn.
        for x, y in ((g, g + 1), (g + 4, g + 5)):
            maps[x], maps[y] = -maps[y].copy(), maps[x].copy()
        maps[g + 2], maps[g + 3] = maps[g + 3].copy(), maps[g + 2].copy()
    return maps


def _upright_crop(image, corner, flip=False, zoom=1.0, spin=0.0):
    """The corner's index turned upright (from where its card's centre lies), CROP square;
    its side `zoom` times the usual, and turned `spin` degrees more."""
    tx, ty = corner.to_card_centre
    turn = math.atan2(ty, tx) - math.radians(CENTRE_BEARING + spin) + (math.pi if flip else 0)
    c, s = abs(math.cos(turn)), abs(math.sin(turn))
    x0, y0, x1, y1 = corner.box
    height = ((x1 - x0) / (INDEX_ASPECT * c + s) + (y1 - y0) / (INDEX_ASPECT * s + c)) / 2
    scale = CROP_SIDE * height / CROP * zoom
    ca, sa = math.cos(turn) * scale, math.sin(turn) * scale
    cx, cy = corner.centre
    coeffs = (ca, -sa, cx - (ca - sa) * CROP / 2, sa, ca, cy - (sa + ca) * CROP / 2)
    crop = image.transform((CROP, CROP), Image.AFFINE, coeffs, Image.BILINEAR)
    return np.asarray(crop).transpose(2, 0, 1)


def _name(image, corners, flip=False):
    """Each corner's rank and suit probabilities: every namer's answers for each of the
    INDEX_LOOKS crops of it, averaged."""
    if not corners:
        return np.zeros((0, NONE_RANK + 1 + len(SUITS)), np.float32)
    crops = np.stack(
        [_upright_crop(image, c, flip, zoom, spin) for zoom, spin in INDEX_LOOKS for c in corners]
    )
    answers = _all_at_once(
        [partial(lambda n: _model(n).run(None, {"crops": crops})[0], n) for n in _namers]
    )
    return np.mean(answers, axis=0).reshape(len(INDEX_LOOKS), len(corners), -1).mean(axis=0)


def name_corners(pixels: np.ndarray, corners: list[Corner]) -> list[Corner]:
    """Each corner labelled by the namers from its upright crops; a corner they call "none",
    both ways up, is dropped. An unsure one is read upside down too, and the surer way kept."""
    image = Image.fromarray(pixels)
    first = _name(image, corners)
    doubtful = [i for i, out in enumerate(first) if _sureness(out) < 0.8]
    second = _name(image, [corners[i] for i in doubtful], flip=True)
    outputs = list(first)
    for i, out in zip(doubtful, second, strict=True):
        if _sureness(out) > _sureness(outputs[i]):
            outputs[i] = out
    named = []
    for corner, out in zip(corners, outputs, strict=True):
        rank, suit = out[: NONE_RANK + 1], out[NONE_RANK + 1 :]
        if rank[NONE_RANK] > NOT_AN_INDEX:
            continue
        labels = _label_probabilities(rank, suit)
        named.append(replace(corner, labels=labels, real=float(1 - rank[NONE_RANK])))
    return named


def _sureness(out):
    rank, suit = out[: NONE_RANK + 1], out[NONE_RANK + 1 :]
    return float((1 - rank[NONE_RANK]) * max(rank[:NONE_RANK].max() * suit.max(), rank[JOKER_RANK]))


def _label_probabilities(rank, suit):
    cards = (rank[:JOKER_RANK, None] * suit[None, :]).reshape(-1)
    labels = np.append(cards, rank[JOKER_RANK])
    return labels / max(float(labels.sum()), 1e-9)


def corners_from_maps(maps: np.ndarray, found: float = FOUND) -> list[Corner]:
    """The corner indices in the model's output: local peaks of heat above `found`."""
    heat = maps[0]
    padded = np.pad(heat, 1, constant_values=0)
    h, w = heat.shape
    neighbours = np.max(
        [padded[dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)], axis=0
    )
    ys, xs = np.nonzero((heat >= neighbours) & (heat >= found))
    rank_end = 1 + len(RANKS)
    corners = []
    for y, x in zip(ys, xs, strict=True):
        dx, dy, log_w, log_h, tx, ty = maps[GEOMETRY:, y, x]
        cx, cy = (x + 0.5 + dx) * STRIDE, (y + 0.5 + dy) * STRIDE
        bw, bh = np.exp(log_w) * 16, np.exp(log_h) * 16
        corners.append(
            Corner(
                centre=(float(cx), float(cy)),
                box=(cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2),
                to_card_centre=(float(tx) * 64, float(ty) * 64),
                score=float(heat[y, x]),
                labels=_label_probabilities(maps[1:rank_end, y, x], maps[rank_end:GEOMETRY, y, x]),
            )
        )
    return _without_repeats(corners)


def _iou(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _inside(point, box):
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _without_repeats(corners):
    """One peak per index: a weaker peak over most of a stronger one's box, or centred in
    it, is the same index."""
    kept = []
    for corner in sorted(corners, key=lambda c: -c.score):
        if all(
            _iou(corner.box, other.box) < 0.4
            and not _inside(corner.centre, other.box)
            and not _inside(other.centre, corner.box)
            for other in kept
        ):
            kept.append(corner)
    return kept


def unsure(cards: list[CardReading], below: float = UNSURE_BELOW) -> list[CardReading]:
    """The cards the player should check first: read with confidence under `below`."""
    return [card for card in cards if card.confidence < below]
