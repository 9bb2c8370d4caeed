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


def fit(data, steps, seed, width=16, batch_size=128, log=print):
    """The namer trained for `steps` steps (the learning rate's cosine runs over them)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    images, ranks, suits = data
    x_all = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous()
    net = IndexNet(width)
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    start, step, smoothed = time.monotonic(), 0, None
    while True:
        done = step / steps
        if done >= 1:
            break
        pick = rng.integers(0, len(images), batch_size)
        x = x_all[pick].float() / 255.0 - 0.5
        for group in optimiser.param_groups:
            group["lr"] = 3e-3 * min(1.0, step / 100) * 0.5 * (1 + math.cos(math.pi * done))
        net.train()
        rank_logit, suit_logit = net(x)
        loss = nn.functional.cross_entropy(rank_logit, torch.from_numpy(ranks[pick]))
        suit_truth = torch.from_numpy(suits[pick])
        if suit_truth.ne(-100).any():
            loss = loss + nn.functional.cross_entropy(suit_logit, suit_truth, ignore_index=-100)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        smoothed = loss.item() if smoothed is None else 0.98 * smoothed + 0.02 * loss.item()
        step += 1
        if step % 100 == 0:
            log(f"index step {step} ({time.monotonic() - start:.0f} s): loss {smoothed:.3f}")
    net.eval()
    return net, step


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
        ExportedIndex(net).eval(),
        (torch.zeros(2, 3, CROP, CROP, dtype=torch.uint8),),
        str(path),
        input_names=["crops"],
        output_names=["labels"],
        dynamic_axes={"crops": {0: "count"}, "labels": {0: "count"}},
        opset_version=17,
        dynamo=False,
    )
