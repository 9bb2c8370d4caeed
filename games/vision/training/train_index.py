"""Training the index classifier on upright crops, and exporting it to ONNX."""

import math
import multiprocessing
import random
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from games.vision.labels import CROP, NONE_RANK
from games.vision.training import crops, train
from games.vision.training.net import ExportedIndex, IndexNet


def _make(seed, far=0.0):
    rng = random.Random(seed)
    return [crops.crop(rng, train._faces, train._backs, far) for _ in range(64)]


def generate(svg_cards, photographed, count, seed, processes=2, far=0.0):
    """`count` crops (in blocks of 64), the same for the same seed; `far` of them seen from
    far (crops.crop)."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(processes, train._load_art, (svg_cards, photographed, seed)) as pool:
        seeds = [(seed * 1_000_033 + i, far) for i in range(count // 64)]
        blocks = pool.starmap(_make, seeds, chunksize=4)
    items = [item for block in blocks for item in block]
    images = np.stack([i[0] for i in items])
    ranks = np.array([i[1] for i in items], np.int64)
    suits = np.array([i[2] if i[2] >= 0 else -100 for i in items], np.int64)
    return images, ranks, suits


def fit(
    data,
    steps,
    seed,
    width=16,
    batch_size=128,
    log=print,
    net=None,
    lr=3e-3,
    device="cpu",
    keeper=None,
):
    """The namer trained for `steps` steps (the learning rate's cosine from `lr` runs over
    them): a new one, or `net` trained further with its batch norms frozen
    (namer_from_onnx); on `device` ("cuda" for a GPU), returned on the CPU. With a `keeper`,
    it goes on from the keeper's saved state and saves and stops as train.train does."""
    torch.manual_seed(seed)
    step = keeper.start if keeper else 0
    rng = np.random.default_rng(seed if not step else seed * 1_000_003 + step)
    images, ranks, suits = data
    x_all = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous().to(device)
    ranks_all = torch.from_numpy(ranks).to(device)
    suits_all = torch.from_numpy(suits).to(device)
    frozen = []
    if net is None:
        net = IndexNet(width)
    else:
        frozen = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    net.to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    if keeper:
        keeper.restore(net, optimiser)
    start, smoothed = time.monotonic(), None
    while True:
        done = step / steps
        if done >= 1:
            break
        pick = torch.from_numpy(rng.integers(0, len(images), batch_size)).to(device)
        x = x_all[pick].float() / 255.0 - 0.5
        for group in optimiser.param_groups:
            group["lr"] = lr * min(1.0, step / 100) * 0.5 * (1 + math.cos(math.pi * done))
        net.train()
        for norm in frozen:
            norm.eval()
        rank_logit, suit_logit = net(x)
        loss = nn.functional.cross_entropy(rank_logit, ranks_all[pick])
        # Averaged over the crops that have a suit (none: 0), with no wait for a GPU.
        suit_truth = suits_all[pick]
        loss = loss + nn.functional.cross_entropy(
            suit_logit, suit_truth, ignore_index=-100, reduction="sum"
        ) / suit_truth.ne(-100).sum().clamp(min=1)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        loss = loss.detach()
        smoothed = loss if smoothed is None else 0.98 * smoothed + 0.02 * loss
        step += 1
        if step % 100 == 0:
            log(f"index step {step} ({time.monotonic() - start:.0f} s): loss {smoothed:.3f}")
        if keeper and keeper.tick(step, net, optimiser, {"loss": smoothed}):
            break
    if keeper:
        keeper.save(step, net, optimiser, {"loss": smoothed})
    net.eval()
    return net.cpu(), step


def accuracy(net, data):
    images, ranks, suits = data
    with torch.no_grad():
        out = ExportedIndex(net)(torch.from_numpy(images).permute(0, 3, 1, 2)).numpy()
    rank = out[:, : NONE_RANK + 1].argmax(1)
    suit = out[:, NONE_RANK + 1 :].argmax(1)
    right = (rank == ranks) & ((suits < 0) | (suit == suits))
    return float(right.mean())


def export(net, path: Path):
    torch.onnx.export(
        ExportedIndex(net.cpu()).eval(),
        (torch.zeros(2, 3, CROP, CROP, dtype=torch.uint8),),
        str(path),
        input_names=["crops"],
        output_names=["labels"],
        dynamic_axes={"crops": {0: "count"}, "labels": {0: "count"}},
        opset_version=17,
        dynamo=False,
    )


def namer_from_onnx(path: Path, width=16) -> IndexNet:
    """The namer an ONNX file holds, as an IndexNet to train further: as train.finder_from_onnx
    does for the finder, the convolutions take the folded weights and the batch norms become
    the identity plus the folded bias (kept frozen). Checked: it gives the file's answers."""
    import onnx
    import onnxruntime
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [
        [weights[n] for n in node.input[1:]] for node in model.graph.node if node.op_type == "Conv"
    ]
    net = IndexNet(width).eval()
    layers = [m for m in net.body.modules() if isinstance(m, nn.Sequential) and len(m) == 3]
    if len(layers) != len(convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, the namer {len(layers)}")
    with torch.no_grad():
        for (conv, norm, _), (weight, bias) in zip(layers, convs, strict=True):
            conv.weight.copy_(torch.tensor(weight))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.tensor(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        for head in (net.rank, net.suit):
            head.weight.copy_(
                torch.tensor(weights[f"net.{'rank' if head is net.rank else 'suit'}.weight"])
            )
            head.bias.copy_(
                torch.tensor(weights[f"net.{'rank' if head is net.rank else 'suit'}.bias"])
            )
    crops = np.random.default_rng(0).integers(0, 256, (8, 3, CROP, CROP), dtype=np.uint8)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = session.run(None, {"crops": crops})[0]
    with torch.no_grad():
        got = ExportedIndex(net.eval())(torch.from_numpy(crops)).numpy()
    if not np.allclose(got, want, atol=1e-4):
        raise ValueError(f"{path} read back differs by {np.abs(got - want).max():.5f}")
    return net
