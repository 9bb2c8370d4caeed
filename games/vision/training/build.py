"""Rebuild the card reader's model from nothing, in one command:

    uv run --group vision-train python -m games.vision.training.build [--photographed DIR]

It installs the card art from npm (pinned in `npm/package-lock.json`) into the ignored folder
`.vision-build/`, composes the synthetic photos, trains the finder (where each corner index is
and which way its card lies) and, beside it, the two namers (which card an upright index
shows: one as most photos show it, one seen from far), then the finder's second stage (on
pieces of whole deals), exports `games/vision/cards.onnx`, `index.onnx` and `index-far.onnx`,
and prints the synthetic validation figures (also written to `.vision-build/figures.json`).
About two hours on two cores.

`--resume` runs the training course instead (course.py): the stages after the committed
models, each going on from the state saved in `training/state/` by the run before, here or
on a GPU, with their own budgets, rates and batches (`--device`, `--workers`, `--processes`,
`--state` and `--stop-after` still apply).

`--photographed DIR` adds photographs of a real deck's faces, named like `10h.jpg`: the 52 in
MrKeSuu/bidly's `rawdata/data/cards/` (MIT). GitHub is out of this command's reach, so clone
that repository yourself and pass the folder; the committed model was built with it.
"""

import json
import multiprocessing
import random
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import torch

from games.vision import reader
from games.vision.training import evaluate, options, real, train, train_index

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


def build_namer(svg_cards, photographed, args, which, cores=1):
    """One namer, start to end (beside the finder's training, one core each, or `cores`
    when it is built alone): its crops, its training, its export, and its
    accuracy on held-out crops, in `.vision-build/<file>.json` and `.log`."""
    far, output, seed, steps = namer_settings(args, which)
    figures_path, log_path = namer_files(args, which)
    torch.set_num_threads(cores)
    random.seed(seed)
    started = time.monotonic()
    with open(log_path, "w") as out:

        def log(message):
            print(message, file=out, flush=True)

        log(f"making {args.crops} index crops, {far:.0%} seen from far")
        crops = train_index.generate(svg_cards, photographed, args.crops, seed, cores, far)
        held_out = train_index.generate(svg_cards, photographed, 3200, seed + 1000, cores, far)
        if args.real:
            log(f"and {args.real_crops} of the real photographs' indices")
            # Built beside the finder's first stage, with no finder yet: the labels alone say
            # where the indices are.
            photos = real.load(args.real, real.training_names(args.real))
            more = real.index_crops(photos, args.real_crops, seed + 2000, far)
            crops = tuple(np.concatenate(pair) for pair in zip(crops, more, strict=True))
            validation = real.load(args.real, real.read_list(real.VALIDATION))
            real_held_out = real.index_crops(validation, 1600, seed + 3000, far)
        log(f"  done in {time.monotonic() - started:.0f} s; training {steps} steps")
        further = {}
        if args.namer_further:  # the namer at its output, trained further at a lower rate
            further = {"net": train_index.namer_from_onnx(output, args.index_width), "lr": 1e-3}
        namer, steps = train_index.fit(
            crops, steps, seed, args.index_width, log=log, device=args.device, **further
        )
        train_index.export(namer, output)
        log(f"exported {output}")
    if args.real:
        accuracy = train_index.accuracy(namer, real_held_out)
    figures = {
        f"{which}_index_crop_accuracy": round(train_index.accuracy(namer, held_out), 4),
        f"{which}_index_steps": steps,
        f"{which}_index_minutes": round((time.monotonic() - started) / 60, 1),
    }
    if args.real:
        figures[f"{which}_real_validation_crop_accuracy"] = round(accuracy, 4)
    figures_path.write_text(json.dumps(figures))


def real_photos(args, names):
    """The real photos named (real.load), what the finder at --output sees there unlabelled
    kept out of the loss (real.with_unlabelled)."""
    reader.use_models(args.output)
    return real.with_unlabelled(real.load(args.real, names), real.seen_by_finder)


FAR = 0.45


def namer_settings(args, which):
    """The two namers the reader averages: "near" sees crops as the finder cuts them from
    most photos; "far" sees FAR of them as a card across the table is, a few pixels tall.
    (share seen from far, output file, seed, steps)."""
    if which == "near":
        return 0.0, args.index_output, args.seed, args.index_steps
    return FAR, args.far_index_output, args.seed + 1, args.far_index_steps


def namer_files(args, which):
    """Where a namer's build writes its figures and its log."""
    stem = namer_settings(args, which)[1].stem
    return BUILD / f"{stem}.json", BUILD / f"{stem}.log"


def build_namers(svg_cards, photographed, args, which, cores=1):
    """The namers in `which`, one after the other."""
    for name in which:
        build_namer(svg_cards, photographed, args, name, cores)


def namer_figures(args, which):
    figures = {}
    for name in which:
        path, log = namer_files(args, name)
        if not path.exists():
            raise SystemExit(f"the {name} namer's build failed: see {log}")
        print(log.read_text(), end="", flush=True)
        figures |= json.loads(path.read_text())
    return figures


def main(argv=None):
    args = options.parser(__doc__.split("\n")[0]).parse_args(argv)
    random.seed(args.seed)
    # One thread each for the finder and the namer, which train side by side: on two cores,
    # two OpenMP threads for one network spend their time waiting for each other.
    torch.set_num_threads(1)
    started = time.monotonic()
    svg_cards = install_art()
    if args.resume:
        from games.vision.training import course

        course.run(args, svg_cards)
        return
    which = (args.namer_only,) if args.namer_only in ("near", "far") else ("near", "far")
    for name in which:  # no figures left from an earlier build to pass for this one's
        namer_files(args, name)[0].unlink(missing_ok=True)
    if args.namer_only:
        build_namers(svg_cards, args.photographed, args, which, cores=args.threads)
        validate(svg_cards, args, namer_figures(args, which), started)
        return
    if args.real_only:
        validate(svg_cards, args, real_stage(svg_cards, args), started)
        return
    if args.refine_only:
        validate(svg_cards, args, refine_stages(svg_cards, args), started)
        return
    print(f"generating {args.photos} training photos", flush=True)
    data = train.generate(
        svg_cards, args.photographed, args.photos, args.seed, processes=args.processes
    )
    print(f"  done in {time.monotonic() - started:.0f} s; training {args.steps} steps", flush=True)
    print(
        "the namers build one after the other beside the finder; logs in .vision-build/", flush=True
    )
    namer = multiprocessing.get_context("fork").Process(
        target=build_namers,
        args=(svg_cards, args.photographed, args, which, args.namer_processes),
    )
    namer.start()
    net, steps = train.train(
        data,
        args.steps,
        args.seed,
        args.width,
        lr=args.lr,
        log=lambda message: print(message, flush=True),
        checkpoint=BUILD / "checkpoint.onnx",
        **_where(args),
    )
    del data
    export_finder(net, args)
    namer.join()
    figures = namer_figures(args, which) | {"steps": steps, "photos": args.photos}
    figures |= refine_stages(svg_cards, args)
    if args.real:
        figures |= real_stage(svg_cards, args)
    validate(svg_cards, args, figures, started)


def _where(args):
    """How the finder trains: its batch, and where (train.train's device and workers)."""
    return {"batch_size": args.batch, "device": args.device, "workers": args.workers}


def export_finder(net, args):
    train.export(net, args.output)
    print(f"exported {args.output} ({args.output.stat().st_size / 1e6:.2f} MB)", flush=True)


REFINE_PIECES = 6  # squares of 320 cut from each whole deal of 1200x1200


def refine_stages(svg_cards, args):
    """The finder's later stages, from --refine-from to --refine-stages, one after the other
    on the finder at --output, and their figures."""
    figures = {}
    for stage in range(args.refine_from, args.refine_stages + 1):
        figures |= refine(svg_cards, args, stage)
    return figures


def refine(svg_cards, args, stage):
    """A later stage of the finder (stage 1 is the second): the one exported at --output, read
    back and trained for --refine-steps more (its batch norms frozen, a lower learning rate),
    on pieces of --refine-deals whole deals, their cards --refine-card-size high (6% to 22% of
    the side), mixed with --refine-photos photos composed as in the first stage; each stage on
    photos of seeds of its own, never seen by an earlier one."""
    started = time.monotonic()
    seed = args.seed + 10 * (stage - 1)
    lr = args.refine_lr * args.refine_decay ** (stage - 1)
    print(
        f"stage {stage + 1}: {args.refine_deals} deals, {args.refine_photos} photos, "
        f"learning rate from {lr:g}",
        flush=True,
    )
    steps, minutes = train_further(
        svg_cards, args, seed, args.refine_deals, args.refine_photos, args.refine_steps, lr, started
    )
    return {f"stage{stage + 1}_steps": steps, f"stage{stage + 1}_minutes": minutes}


def train_further(svg_cards, args, seed, deals, photos, steps, lr, started, **real):
    """The finder at --output read back and trained `steps` more (from learning rate `lr`) on
    pieces of `deals` whole deals and `photos` composed photos of seeds from `seed` (and, in
    `real`, real photographs and their share of each batch), then exported at --output.
    Returns the steps trained and the minutes since `started`."""
    data = train.generate(
        svg_cards,
        args.photographed,
        deals,
        seed + 3,
        deals=True,
        card_size=tuple(args.refine_card_size),
        pieces=REFINE_PIECES,
        processes=args.processes,
    )
    data += train.generate(svg_cards, args.photographed, photos, seed + 4, processes=args.processes)
    print(f"  done in {time.monotonic() - started:.0f} s; training {steps} steps")
    net, trained = train.train(
        data,
        steps,
        seed + 5,
        net=train.finder_from_onnx(args.output, args.width),
        lr=lr,
        log=lambda message: print(message, flush=True),
        checkpoint=BUILD / "checkpoint.onnx",
        **_where(args),
        **real,
    )
    export_finder(net, args)
    return trained, round((time.monotonic() - started) / 60, 1)


def real_stage(svg_cards, args):
    """The finder's last stage: the one at --output read back and trained --real-steps more on
    real photographs (the CardCounterML training originals, never the held-out or validation
    ones), --real-share of each batch, the rest pieces of --real-deals whole deals and
    --real-photos composed photos, all of seeds of their own."""
    if args.real is None:
        raise SystemExit("the real stage needs --real PATH/TO/CardCounterML")
    started = time.monotonic()
    photos = real_photos(args, real.training_names(args.real))
    unlabelled = sum(c[8] < 1 for _, corners in photos for c in corners)
    print(f"  {unlabelled} confident finds with no label near: left out of the loss")
    seed = args.seed + 100
    print(
        f"real stage: {len(photos)} real photos, {args.real_deals} deals, "
        f"{args.real_photos} composed photos, learning rate from {args.real_lr:g}",
        flush=True,
    )
    steps, minutes = train_further(
        svg_cards,
        args,
        seed,
        args.real_deals,
        args.real_photos,
        args.real_steps,
        args.real_lr,
        started,
        real=photos,
        real_share=args.real_share,
    )
    return {"real_stage_steps": steps, "real_stage_minutes": minutes, "real_photos": len(photos)}


def validate(svg_cards, args, figures, started):
    """The models' synthetic figures (mixed photos, and whole deals when real faces are
    given) and those on the real validation photos, read as the app reads, written to
    .vision-build/figures.json."""
    if args.no_validate:
        print(json.dumps(figures, indent=2))
        return
    validation = train.generate(
        svg_cards, args.photographed, 100, args.seed + 1000, size=(960, 720)
    )
    namers = (args.index_output, args.far_index_output)
    figures |= evaluate.synthetic(args.output, namers, validation)
    if args.photographed:
        deals = train.generate(svg_cards, args.photographed, 20, args.seed + 2000, deals=True)
        figures |= evaluate.synthetic(args.output, namers, deals, "synthetic_deals")
    if args.real:
        figures |= evaluate.real_validation(args.output, namers, args.real)
    figures |= {
        "minutes": round((time.monotonic() - started) / 60, 1),
        "photographed_faces": bool(args.photographed),
    }
    (BUILD / "figures.json").write_text(json.dumps(figures, indent=2))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
