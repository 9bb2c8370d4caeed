"""Rebuild the card reader's model from nothing, in one command:

    uv run --group vision-train python -m games.vision.training.build [--photographed DIR]

It installs the card art from npm (pinned in `npm/package-lock.json`) into the ignored folder
`.vision-build/`, composes the synthetic photos, trains the finder (where each corner index is
and which way its card lies) and the namer (which card an upright index shows), exports
`games/vision/cards.onnx` and `games/vision/index.onnx`, and prints the synthetic validation
figures (also written to `.vision-build/figures.json`).

`--photographed DIR` adds photographs of a real deck's faces, named like `10h.jpg`: the 52 in
MrKeSuu/bidly's `rawdata/data/cards/` (MIT). GitHub is out of this command's reach, so clone
that repository yourself and pass the folder; the committed model was built with it.
"""

import argparse
import json
import multiprocessing
import random
import shutil
import subprocess
import time
from pathlib import Path

import torch

from games.vision import reader
from games.vision.training import evaluate, train, train_index

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / ".vision-build"
NPM = Path(__file__).with_name("npm")


def install_art():
    """svg-cards from npm, pinned by its lock file, into the ignored build folder."""
    BUILD.mkdir(exist_ok=True)
    art = BUILD / "node_modules/svg-cards/png/2x"
    lock = BUILD / "package-lock.json"
    # Already installed from this lock file: leave it (`npm ci` would remove it first, under
    # another build reading it).
    installed = (BUILD / "node_modules/.package-lock.json").exists() and lock.exists()
    if installed and lock.read_bytes() == (NPM / "package-lock.json").read_bytes():
        return art
    for name in ("package.json", "package-lock.json"):
        shutil.copy(NPM / name, BUILD / name)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=BUILD, check=True
    )
    return art


def build_namer(svg_cards, photographed, args, figures_path, log_path, cores=1):
    """The namer, start to end, in its own process beside the finder's training (one core
    each, `cores` when it is built alone): its crops, its training, its export, and its
    accuracy on held-out crops."""
    torch.set_num_threads(cores)
    random.seed(args.seed)
    started = time.monotonic()
    with open(log_path, "w") as out:

        def log(message):
            print(message, file=out, flush=True)

        log(f"making {args.crops} index crops")
        crops = train_index.generate(svg_cards, photographed, args.crops, args.seed, cores)
        held_out = train_index.generate(svg_cards, photographed, 3200, args.seed + 1000, cores)
        log(f"  done in {time.monotonic() - started:.0f} s; training {args.index_minutes} min")
        namer, steps = train_index.fit(
            crops, args.index_minutes, args.seed, width=args.index_width, log=log
        )
        train_index.export(namer, args.index_output)
        log(f"exported {args.index_output}")
    figures = {
        "index_crop_accuracy": round(train_index.accuracy(namer, held_out), 4),
        "index_steps": steps,
        "index_minutes": round((time.monotonic() - started) / 60, 1),
    }
    figures_path.write_text(json.dumps(figures))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photographed", type=Path, help="folder of real card-face photos")
    parser.add_argument("--photos", type=int, default=8000, help="synthetic training photos")
    parser.add_argument("--minutes", type=float, default=65, help="the finder's training time")
    parser.add_argument("--crops", type=int, default=96000, help="index crops for the namer")
    parser.add_argument("--index-minutes", type=float, default=30, help="the namer's time")
    parser.add_argument("--width", type=int, default=32, help="the finder's base width")
    parser.add_argument("--index-width", type=int, default=16, help="the namer's base width")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--output", type=Path, default=reader.MODEL_PATH)
    parser.add_argument("--index-output", type=Path, default=reader.INDEX_MODEL_PATH)
    parser.add_argument(
        "--namer-only",
        action="store_true",
        help="rebuild the namer alone, beside the finder already at --output",
    )
    args = parser.parse_args(argv)
    random.seed(args.seed)
    # One thread each for the finder and the namer, which train side by side: on two cores,
    # two OpenMP threads for one network spend their time waiting for each other.
    torch.set_num_threads(1)
    started = time.monotonic()
    svg_cards = install_art()
    if args.namer_only:
        stem = args.index_output.stem
        namer_figures, namer_log = BUILD / f"{stem}.json", BUILD / f"{stem}.log"
        build_namer(svg_cards, args.photographed, args, namer_figures, namer_log, cores=2)
        print(namer_log.read_text(), end="", flush=True)
        validate(svg_cards, args, json.loads(namer_figures.read_text()), started)
        return
    print(f"generating {args.photos} training photos", flush=True)
    data = train.generate(svg_cards, args.photographed, args.photos, args.seed)
    print(f"  done in {time.monotonic() - started:.0f} s; training {args.minutes} min", flush=True)
    namer_figures = BUILD / "namer.json"
    namer_figures.unlink(missing_ok=True)
    namer_log = BUILD / "namer.log"
    print(f"the namer builds beside the finder; its log: {namer_log}", flush=True)
    namer = multiprocessing.get_context("fork").Process(
        target=build_namer, args=(svg_cards, args.photographed, args, namer_figures, namer_log)
    )
    namer.start()
    net, steps = train.train(
        data,
        args.minutes,
        args.seed,
        args.width,
        log=lambda message: print(message, flush=True),
        checkpoint=BUILD / "checkpoint.onnx",
    )
    del data
    train.export(net, args.output)
    print(f"exported {args.output} ({args.output.stat().st_size / 1e6:.2f} MB)", flush=True)
    namer.join()
    if namer.exitcode != 0 or not namer_figures.exists():
        raise SystemExit(f"the namer's build failed: see {namer_log}")
    print(namer_log.read_text(), end="", flush=True)
    figures = json.loads(namer_figures.read_text()) | {"steps": steps, "photos": args.photos}
    validate(svg_cards, args, figures, started)


def validate(svg_cards, args, figures, started):
    """The pair's synthetic figures (mixed photos, and whole deals when real faces are given),
    read as the app reads, written to .vision-build/figures.json."""
    validation = train.generate(
        svg_cards, args.photographed, 100, args.seed + 1000, size=(960, 720)
    )
    figures |= evaluate.synthetic(args.output, args.index_output, validation)
    if args.photographed:
        deals = train.generate(svg_cards, args.photographed, 20, args.seed + 2000, deals=True)
        figures |= evaluate.synthetic(args.output, args.index_output, deals, "synthetic_deals")
    figures |= {
        "minutes": round((time.monotonic() - started) / 60, 1),
        "photographed_faces": bool(args.photographed),
    }
    (BUILD / "figures.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
