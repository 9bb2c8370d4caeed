"""Training the corner reader on synthetic photos, and exporting it to ONNX."""

import copy
import math
import multiprocessing
import random
import signal
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image
from torch import nn

from games.vision.labels import STRIDE
from games.vision.training import art, scenes
from games.vision.training.net import CornerNet, Exported

_faces = _backs = None


def _load_art(svg_cards, photographed, seed):
    global _faces, _backs
    rng = random.Random(seed)
    faces = art.svg_cards_faces(svg_cards)
    if photographed:
        faces += art.photographed_faces(photographed)
    # A few drawn decks: other fonts and inks than the two sets of art.
    faces += [art.drawn_face(rng, r, s) for _ in range(3) for r in range(13) for s in range(4)]
    faces += [art.drawn_face(rng, art.JOKER_RANK, -1) for _ in range(8)]
    _backs = [f for f in faces if f.is_back] + [art.drawn_back(rng) for _ in range(12)]
    _faces = [f for f in faces if not f.is_back]


def _make(args):
    seed, size, deals, card_size, pieces = args
    rng = random.Random(seed)
    if not deals:
        return [scenes.compose(rng, _faces, _backs, size)]
    photo, corners = scenes.deal(rng, _faces, _backs, size, card_size)
    if not pieces:
        return [(photo, corners)]
    return [_piece(photo, corners, rng, 320) for _ in range(pieces)]


def generate(
    svg_cards,
    photographed,
    count,
    seed,
    size=(320, 320),
    processes=2,
    deals=False,
    card_size=None,
    pieces=0,
):
    """`count` synthetic photos, made in parallel, the same for the same seed; with `deals`,
    whole deals (scenes.deal) of 1200x1200, their cards' height `card_size` (a range, as a
    share of the side; the deal's own when None), each cut into `pieces` squares of 320 when
    it is given (for training)."""
    ctx = multiprocessing.get_context("fork")
    if deals:
        size = (1200, 1200)
    with ctx.Pool(processes, _load_art, (svg_cards, photographed, seed)) as pool:
        jobs = [(seed * 1_000_003 + i, size, deals, card_size, pieces) for i in range(count)]
        made = pool.map(_make, jobs, chunksize=4 if deals else 16)
    return [photo for photos in made for photo in photos]


def _piece(photo, corners, rng, size):
    """A random `size` square of a synthetic photo with its corners (an index the edge cuts is
    neither right nor wrong), mostly where the cards are."""
    h, w, _ = photo.shape
    shown = [c for c in corners if c.visible >= scenes.VISIBLE]
    at = None
    if shown and rng.random() < 0.85:
        x0, y0, x1, y1 = rng.choice(shown).box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x = int(min(max(0, cx - rng.uniform(0.15, 0.85) * size), w - size))
        y = int(min(max(0, cy - rng.uniform(0.15, 0.85) * size), h - size))
        at = (x, y)
    square, cut = _crop(photo, _rotate(photo, corners, 0)[1], rng, size, at)
    # Back to corners as scenes makes them, for batches to turn: which card is not kept.
    return np.ascontiguousarray(square), [
        scenes.Corner((x0, y0, x1, y1), r, s, (ccx, ccy), visible, -1)
        for x0, y0, x1, y1, r, s, ccx, ccy, visible in cut
    ]


def _rotate(photo, corners, k):
    """The photo turned k quarter turns clockwise, with its corners as plain tuples."""
    k %= 4
    out = []
    for c in corners:
        h, w = photo.shape[:2]
        points = [(c.box[0], c.box[1]), (c.box[2], c.box[3]), c.card_centre]
        for _ in range(k):
            points = [(h - y, x) for x, y in points]
            h, w = w, h
        (ax, ay), (bx, by), (ccx, ccy) = points
        box = (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
        out.append((*box, c.rank, c.suit, ccx, ccy, c.visible))
    return np.ascontiguousarray(np.rot90(photo, -k)), out


def targets(corners, size):
    """The maps the network learns, at stride 4: heat, ignore mask, and at each index's
    centre (and the cells around it) its rank, suit and geometry."""
    w, h = size
    gw, gh = w // STRIDE, h // STRIDE
    heat = np.zeros((gh, gw), np.float32)
    weight = np.ones((gh, gw), np.float32)
    rank = np.full((gh, gw), -100, np.int64)
    suit = np.full((gh, gw), -100, np.int64)
    geometry = np.zeros((6, gh, gw), np.float32)
    geo_mask = np.zeros((6, gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw]
    for x0, y0, x1, y1, r, s, ccx, ccy, visible in corners:
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        bw, bh = max(x1 - x0, 2), max(y1 - y0, 2)
        if visible < scenes.VISIBLE:
            gx0, gy0 = max(0, int(x0 / STRIDE)), max(0, int(y0 / STRIDE))
            weight[gy0 : int(math.ceil(y1 / STRIDE)), gx0 : int(math.ceil(x1 / STRIDE))] = 0
            continue
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < gw and 0 <= iy < gh):
            continue
        sigma = max(0.7, 0.12 * min(bw, bh) / STRIDE)
        g = np.exp(-((xx - cx + 0.5) ** 2 + (yy - cy + 0.5) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, g)
        heat[iy, ix] = 1.0
        # A real photo's labels do not always say where the card's centre is (NaN): the
        # vector to it is then left out of the loss, the rest of the geometry kept.
        known = not (math.isnan(ccx) or math.isnan(ccy))
        for gy in range(max(0, iy - 1), min(gh, iy + 2)):
            for gx in range(max(0, ix - 1), min(gw, ix + 2)):
                rank[gy, gx] = r
                suit[gy, gx] = s if s >= 0 else -100
                geometry[:, gy, gx] = (
                    cx - (gx + 0.5),
                    cy - (gy + 0.5),
                    math.log(bw / 16),
                    math.log(bh / 16),
                    (ccx - (x0 + x1) / 2) / 64 if known else 0.0,
                    (ccy - (y0 + y1) / 2) / 64 if known else 0.0,
                )
                geo_mask[:, gy, gx] = 1.0 if (gx, gy) == (ix, iy) else 0.5
                if not known:
                    geo_mask[4:, gy, gx] = 0.0
        weight[iy, ix] = 1.0
    return heat, weight, rank, suit, geometry, geo_mask


def _crop(photo, corners, rng, size, at=None):
    """A `size` square of the photo, at `at` (x, y) or anywhere, with its corners (as _rotate
    gives them); an index cut by the edge is neither right nor wrong."""
    h, w, _ = photo.shape
    x, y = at or (rng.randint(0, w - size), rng.randint(0, h - size))
    out = []
    for x0, y0, x1, y1, r, s, ccx, ccy, visible in corners:
        cx, cy = (x0 + x1) / 2 - x, (y0 + y1) / 2 - y
        if not (0 <= cx < size and 0 <= cy < size):
            continue
        inside = x0 >= x and y0 >= y and x1 <= x + size and y1 <= y + size
        out.append(
            (x0 - x, y0 - y, x1 - x, y1 - y, r, s, ccx - x, ccy - y, visible if inside else 0.5)
        )
    return photo[y : y + size, x : x + size], out


# A real photo is brought, for training, to a size where its indices are this long (pixels,
# drawn log-uniformly around the photo's median index): the finder's range. Larger ones are
# read from the photo brought down (reader.SCALES).
REAL_INDEX_SIZE = (8, 96)
REAL_ASPECT = 4 / 3  # the set's photos were stretched to squares: stretched back either way


def _real_sample(photo, corners, rng, size):
    """A real photo (real.load) scaled so that its indices fall in REAL_INDEX_SIZE and
    stretched by up to REAL_ASPECT either way, turned, and a `size` square cut from it, mostly
    where its indices are; a photo smaller than the square lies on a table drawn around it."""
    sides = [max(c[2] - c[0], c[3] - c[1]) for c in corners]
    median = float(np.median(sides)) if sides else 40.0
    h, w, _ = photo.shape
    # Brought down no further than half the square: a close-up of one card is not shrunk to
    # a speck on a table drawn around it.
    least = max(REAL_INDEX_SIZE[0], median * size / 2 / min(h, w))
    want = math.exp(rng.uniform(math.log(least), math.log(max(least, REAL_INDEX_SIZE[1]))))
    aspect = math.exp(rng.uniform(-1, 1) * math.log(REAL_ASPECT))
    fx, fy = want / median * math.sqrt(aspect), want / median / math.sqrt(aspect)
    nw, nh = max(8, round(w * fx)), max(8, round(h * fy))
    fx, fy = nw / w, nh / h
    scaled = np.asarray(Image.fromarray(photo).resize((nw, nh), Image.BILINEAR))
    corners = [
        scenes.Corner((x0 * fx, y0 * fy, x1 * fx, y1 * fy), r, s, (ccx * fx, ccy * fy), visible, -1)
        for x0, y0, x1, y1, r, s, ccx, ccy, visible in corners
    ]
    scaled, turned = _rotate(scaled, corners, rng.randrange(4))
    h, w, _ = scaled.shape
    if h < size or w < size:
        canvas = scenes.background(rng, (max(w, size), max(h, size)))
        ox, oy = rng.randint(0, canvas.shape[1] - w), rng.randint(0, canvas.shape[0] - h)
        canvas[oy : oy + h, ox : ox + w] = scaled
        turned = [
            (x0 + ox, y0 + oy, x1 + ox, y1 + oy, r, s, ccx + ox, ccy + oy, v)
            for x0, y0, x1, y1, r, s, ccx, ccy, v in turned
        ]
        scaled = canvas
        h, w, _ = scaled.shape
    at = None
    if turned and rng.random() < 0.85:
        x0, y0, x1, y1 = rng.choice(turned)[:4]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        at = (
            int(min(max(0, cx - rng.uniform(0.15, 0.85) * size), w - size)),
            int(min(max(0, cy - rng.uniform(0.15, 0.85) * size), h - size)),
        )
    return _crop(scaled, turned, rng, size, at)


def batches(data, batch_size, rng, crop=256, real=(), real_share=0.0, raw=False):
    """Endless batches of `crop` squares: from the composed `data`, and `real_share` of them
    from the `real` photos (real.load); with `raw`, the photos as uint8."""
    order = list(range(len(data)))
    while True:
        rng.shuffle(order)
        for start in range(0, len(order) - batch_size + 1, batch_size):
            photos, maps = [], []
            for i in order[start : start + batch_size]:
                if real and rng.random() < real_share:
                    photo, corners = _real_sample(*rng.choice(real), rng, crop)
                else:
                    photo, corners = data[i]
                    photo, corners = _rotate(photo, corners, rng.randrange(4))
                    photo, corners = _crop(photo, corners, rng, crop)
                h, w, _ = photo.shape
                photos.append(photo)
                maps.append(targets(corners, (w, h)))
            x = torch.from_numpy(np.stack(photos)).permute(0, 3, 1, 2)
            if not raw:
                x = x.float() / 255 - 0.5
            yield x, [torch.from_numpy(np.stack(m)) for m in zip(*maps, strict=True)]


class _Batches(torch.utils.data.IterableDataset):
    """`batches` made by a DataLoader's worker processes, each with a random generator of its
    own (from the seed and its number), the photos as uint8: for a GPU, which trains faster
    than one process composes its batches."""

    def __init__(self, data, batch_size, seed, real, real_share):
        super().__init__()
        self.data, self.batch_size, self.seed = data, batch_size, seed
        self.real, self.real_share = real, real_share

    def __iter__(self):
        worker = torch.utils.data.get_worker_info()
        rng = random.Random(self.seed * 1009 + (worker.id if worker else 0))
        yield from batches(
            self.data, self.batch_size, rng, real=self.real, real_share=self.real_share, raw=True
        )


def _leave_interrupts(_worker):
    """A batch maker ignores Ctrl-C: the trainer, told too, saves its state and ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _loaded(data, batch_size, rng, real, real_share, device, workers):
    """Batches on `device`: made here (`workers` 0, the CPU build's way, one generator) or by
    `workers` processes."""
    if not workers:
        yield from batches(data, batch_size, rng, real=real, real_share=real_share)
        return
    loader = torch.utils.data.DataLoader(
        _Batches(data, batch_size, rng.randrange(2**31), real, real_share),
        batch_size=None,
        num_workers=workers,
        pin_memory=device != "cpu",
        prefetch_factor=2,
        worker_init_fn=_leave_interrupts,
    )
    for x, truth in loader:
        x = x.to(device, non_blocking=True).float() / 255 - 0.5
        yield x, [t.to(device, non_blocking=True) for t in truth]


def loss_of(outputs, truth):
    heat_logit, rank_logit, suit_logit, geometry = outputs
    heat, weight, rank, suit, geo_truth, geo_mask = truth
    p = torch.sigmoid(heat_logit[:, 0]).clamp(1e-4, 1 - 1e-4)
    positive = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * positive
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - positive) * weight
    count = positive.sum().clamp(min=1)
    heat_loss = (pos_loss.sum() + neg_loss.sum()) / count
    # Averaged over the cells that have a label (none: 0), with no wait for a GPU to say
    # how many there are.
    rank_loss = nn.functional.cross_entropy(
        rank_logit, rank, ignore_index=-100, reduction="sum"
    ) / rank.ne(-100).sum().clamp(min=1)
    suit_loss = nn.functional.cross_entropy(
        suit_logit, suit, ignore_index=-100, reduction="sum"
    ) / suit.ne(-100).sum().clamp(min=1)
    # Summed over the six channels, averaged over the cells that have any (as when the mask
    # was one per cell).
    geo_err = (geometry - geo_truth).abs() * geo_mask
    geo_loss = geo_err.sum() / (geo_mask.sum() / geo_truth.shape[1]).clamp(min=1)
    parts = {"heat": heat_loss, "rank": rank_loss, "suit": suit_loss, "geometry": geo_loss}
    return heat_loss + rank_loss + suit_loss + geo_loss, {k: v.detach() for k, v in parts.items()}


def train(
    data,
    steps,
    seed,
    width=32,
    batch_size=12,
    log=print,
    checkpoint=None,
    net=None,
    lr=3e-3,
    real=(),
    real_share=0.0,
    device="cpu",
    workers=0,
    keeper=None,
):
    """A network trained on `data` (and `real_share` of each batch from the `real` photos)
    for `steps` steps, with a cosine learning rate from `lr`: a new one, or `net` trained
    further with its batch norms frozen (finder_from_onnx). Steps, not time: the machine is
    shared, and a training paused for another's measurement must end where it would have.
    On `device` ("cuda" for a GPU), its batches made by `workers` processes (0: here).
    With a `keeper` (course.Keeper), it goes on from the step, weights and optimiser the
    keeper saved, saves them as it goes, and stops where the keeper says (returning fewer
    steps than `steps`)."""
    torch.manual_seed(seed)
    step = keeper.start if keeper else 0
    # A run that goes on draws its batches from the seed and the step it goes on from.
    rng = random.Random(seed if not step else seed * 1_000_003 + step)
    frozen = []  # the batch norms of a network trained further, kept as they are
    if net is None:
        net = CornerNet(width)
    else:
        frozen = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    net.to(device)
    torch.backends.cudnn.benchmark = True  # on a GPU: the crops are all one size
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    if keeper:
        keeper.restore(net, optimiser)
    start = time.monotonic()
    smoothed = None
    for x, truth in _loaded(data, batch_size, rng, real, real_share, device, workers):
        done = step / steps
        if done >= 1:
            break
        for group in optimiser.param_groups:
            group["lr"] = lr * (min(1.0, step / 200) * 0.5 * (1 + math.cos(math.pi * done)))
        net.train()
        for norm in frozen:
            norm.eval()
        loss, parts = loss_of(net(x), truth)
        optimiser.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        optimiser.step()
        smoothed = (
            parts
            if smoothed is None
            else {k: 0.98 * smoothed[k] + 0.02 * v for k, v in parts.items()}
        )
        step += 1
        if checkpoint and step % 1000 == 0:
            net.eval()
            export(net, checkpoint)
        if step % 100 == 0:
            log(
                f"step {step} ({time.monotonic() - start:.0f} s): "
                + " ".join(f"{k} {v.item():.3f}" for k, v in smoothed.items())
            )
        if keeper and keeper.tick(step, net, optimiser, smoothed):
            break
    if keeper:
        keeper.save(step, net, optimiser, smoothed)
    net.eval()
    return net.cpu(), step


def export(net, path: Path):
    """The network as ONNX: uint8 RGB (1, 3, H, W) in, maps (1, 25, H/4, W/4) out (a copy
    made on the CPU, wherever the network trains)."""
    model = Exported(copy.deepcopy(net).cpu()).eval()
    example = torch.zeros(1, 3, 320, 320, dtype=torch.uint8)
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["image"],
        output_names=["maps"],
        dynamic_axes={"image": {2: "height", 3: "width"}, "maps": {2: "rows", 3: "columns"}},
        opset_version=17,
        dynamo=False,
    )


def finder_from_onnx(path: Path, width=32) -> CornerNet:
    """The finder an ONNX file holds, as a CornerNet to train further. The export folds each
    batch norm into the convolution before it, so here the convolutions take the folded
    weights and the norms become the identity plus the folded bias; trained further, the
    norms stay frozen (train's `net`). Checked: it gives the file's maps."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [node for node in model.graph.node if node.op_type == "Conv"]
    folded = [[weights[name] for name in node.input[1:]] for node in convs]
    net = CornerNet(width).eval()
    order, norm_after = [], {}
    for module in net.modules():
        children = list(module.children())
        for a, b in zip(children, children[1:], strict=False):
            if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                norm_after[a] = b
    hooks = [
        m.register_forward_hook(lambda m, i, o: order.append(m))
        for m in net.modules()
        if isinstance(m, nn.Conv2d)
    ]
    with torch.no_grad():
        net(torch.zeros(1, 3, 64, 64))
    for hook in hooks:
        hook.remove()
    if len(order) != len(folded):
        raise ValueError(f"{path} has {len(folded)} convolutions, the network {len(order)}")
    with torch.no_grad():
        for conv, (weight, bias) in zip(order, folded, strict=True):
            conv.weight.copy_(torch.tensor(weight))
            norm = norm_after.get(conv)
            if norm is None:
                conv.bias.copy_(torch.tensor(bias))
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.tensor(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    _check_same(net, path)
    return net


def _check_same(net, path):
    import onnxruntime

    image = np.random.default_rng(0).integers(0, 256, (1, 3, 128, 160), dtype=np.uint8)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = session.run(None, {"image": image})[0]
    with torch.no_grad():
        got = Exported(net.eval())(torch.from_numpy(image)).numpy()
    if not np.allclose(got, want, atol=1e-3):
        raise ValueError(f"{path} read back differs by {np.abs(got - want).max():.4f}")
