"""The training course: stages of the build run one after the other, saved as they go (every
few minutes, at each validation, at the end and when stopped by SIGTERM or Ctrl-C) into one
small committed file (state.py), so that training spreads over many sessions on one core
here, or short spells on a GPU: each run goes on from where the last one stopped.

    uv run --group vision-train python -m games.vision.training.build --resume \\
        --photographed PATH/TO/bidly/rawdata/data/cards --real PATH/TO/CardCounterML

Every `validate_every` steps, and at a stage's end, the network is exported and read on the
real validation photos (never the held-out ones, never bidly's deals) beside the committed
models; one that reads them better than the best so far (the mean of recall and precision)
is kept in `state/chosen/`, for a person to adopt into games/vision/ (MODEL.md's rule).
"""

import contextlib
import copy
import datetime
import math
import signal
import time
from pathlib import Path

import numpy as np
import torch

from games.vision import reader
from games.vision.training import evaluate, real, state, train, train_index
from games.vision.training.net import CornerNet, IndexNet

BUILD = Path(__file__).resolve().parents[3] / ".vision-build"
FILES = {"finder": reader.MODEL_PATH.name, "near": reader.INDEX_MODEL_PATH.name}
FILES["far"] = reader.FAR_INDEX_MODEL_PATH.name

# What MODEL.md's analysis says would move the real figures: the finder's real stage at its
# full budget (it stopped at 7,000 of 20,000), the namers trained further on more real crops,
# then a longer real stage from the first one's end.
NEXT = [
    {"name": "finder-real", "model": "finder", "start": "committed", "steps": 20_000,
     "lr": 6e-4, "seed": 324, "deals": 300, "photos": 2000, "real_share": 0.6},
    {"name": "namer-near", "model": "near", "start": "committed", "steps": 6000, "lr": 1e-3,
     "seed": 424, "crops": 96_000, "real_crops": 48_000, "far": 0.0},
    {"name": "namer-far", "model": "far", "start": "committed", "steps": 6000, "lr": 1e-3,
     "seed": 524, "crops": 96_000, "real_crops": 48_000, "far": 0.45},
    {"name": "finder-real-2", "model": "finder", "start": "finder-real", "steps": 20_000,
     "lr": 3e-4, "seed": 624, "deals": 300, "photos": 2000, "real_share": 0.6},
]  # fmt: skip
VALIDATE_EVERY = 2000
SAVE_EVERY_S = 300

_stop = {"asked": False, "training": False}


@contextlib.contextmanager
def _training():
    """Inside a training loop: a signal to stop is taken at its next step (it saves first)."""
    _stop["training"] = True
    try:
        yield
    finally:
        _stop["training"] = False


def _on_signal(number, _frame):
    """Asked to stop: inside a training loop, save and stop at the next step; outside it (the
    state at the stage's start is saved already), stop now."""
    _stop["asked"] = True
    if not _stop["training"]:
        raise SystemExit(128 + number)


class Course:
    """The course's saved state, held in memory between saves."""

    def __init__(self, folder: Path, stages=None, width=32, index_width=16):
        self.folder = folder
        saved = state.load(folder)
        if saved is None:
            self.meta = {
                "version": 1,
                "stages": stages or NEXT,
                "steps_done": {},
                "width": width,
                "index_width": index_width,
                "runs": [],
                "validation": [],
                "chosen": {},
            }
            self.arrays = {}
        else:
            self.meta, self.arrays = saved

    def save(self):
        state.save(self.folder, self.meta, self.arrays)


class Keeper:
    """A stage's training, kept: what train.train and train_index.fit call to go on from the
    saved step, to save, to validate and to know when to stop."""

    def __init__(self, course: Course, stage: dict, run: dict, stop_at: float, check):
        self.course, self.stage, self.run, self.stop_at = course, stage, run, stop_at
        self.check = check  # (step, net): reads the validation photos with the net exported
        self.start = course.meta["steps_done"].get(stage["name"], 0)
        self.saved_at, self.saved_step = time.monotonic(), None

    def restore(self, net, optimiser):
        arrays = self.course.arrays
        if self.course.meta.get("arrays_of") != self.stage["name"]:
            return
        net.load_state_dict(
            {
                k.removeprefix("net."): torch.from_numpy(v.copy())
                for k, v in arrays.items()
                if k.startswith("net.")
            }  # fmt: skip
        )
        if f"{state.MOMENT_PREFIX}avg.0" in arrays:
            loaded = optimiser.state_dict()
            loaded["state"] = {
                i: {
                    "step": torch.tensor(float(self.start)),
                    "exp_avg": torch.from_numpy(arrays[f"{state.MOMENT_PREFIX}avg.{i}"].copy()),
                    "exp_avg_sq": torch.from_numpy(arrays[f"{state.MOMENT_PREFIX}sq.{i}"].copy()),
                }
                for i in range(len(loaded["param_groups"][0]["params"]))
            }
            optimiser.load_state_dict(loaded)
        if "torch_rng" in arrays:
            torch.set_rng_state(torch.from_numpy(arrays["torch_rng"].copy()))
        print(f"{self.stage['name']}: going on from step {self.start}", flush=True)

    def tick(self, step, net, optimiser, losses) -> bool:
        """After each step: save every SAVE_EVERY_S and at each validation; True to stop."""
        stopping = _stop["asked"] or time.monotonic() >= self.stop_at
        if step % VALIDATE_EVERY == 0 or step >= self.stage["steps"]:
            self.check(step, net)  # before the save: a run stopped while it reads goes on
            self.save(step, net, optimiser, losses)
        elif stopping or time.monotonic() - self.saved_at >= SAVE_EVERY_S:
            self.save(step, net, optimiser, losses)
        return stopping

    def save(self, step, net, optimiser, losses=None):
        if step == self.saved_step:
            return
        arrays = {f"net.{k}": v.detach().cpu().numpy() for k, v in net.state_dict().items()}
        for i, moments in optimiser.state_dict()["state"].items():
            arrays[f"{state.MOMENT_PREFIX}avg.{i}"] = moments["exp_avg"].cpu().numpy()
            arrays[f"{state.MOMENT_PREFIX}sq.{i}"] = moments["exp_avg_sq"].cpu().numpy()
        arrays["torch_rng"] = torch.get_rng_state().numpy()
        keep_results(self.course, arrays)
        later = [s for s in self.course.meta["stages"] if s["start"] == self.stage["name"]]
        if step >= self.stage["steps"] and later:  # what the later stage starts from
            name = self.stage["name"]
            self.course.arrays |= {
                f"result.{name}.{k.removeprefix('net.')}": v
                for k, v in arrays.items()
                if k.startswith("net.")
            }
        meta = self.course.meta
        meta["steps_done"][self.stage["name"]] = step
        meta["arrays_of"] = self.stage["name"]
        self.run.update(
            to_step=step,
            ended=_now(),
            seconds=round(time.monotonic() - self.run["_started"]),
        )
        if losses:
            self.run["losses"] = {k: round(float(v), 4) for k, v in losses.items()}
        meta["runs"][-1] = {k: v for k, v in self.run.items() if not k.startswith("_")}
        self.course.save()
        self.saved_at, self.saved_step = time.monotonic(), step
        print(f"saved {self.stage['name']} at step {step} in {self.course.folder}", flush=True)


def keep_results(course, arrays):
    """The state's arrays: the current stage's, and each finished stage's result a later
    stage starts from (`result.<stage>.<name>`)."""
    kept = {k: v for k, v in course.arrays.items() if k.startswith("result.")}
    course.arrays = kept | arrays


def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _network(stage, meta, arrays):
    """The network a stage trains, where it starts: a new one (None: train makes it), the
    committed file's (its norms frozen), or an earlier stage's result; on resuming, a bare
    one of the right kind (the keeper restores its weights)."""
    finder = stage["model"] == "finder"
    resuming = meta.get("arrays_of") == stage["name"]
    net = CornerNet(meta["width"]) if finder else IndexNet(meta["index_width"])
    if resuming:
        return net
    if stage["start"] == "committed":
        path = reader.MODEL_PATH if finder else reader.NAMERS[stage["model"] == "far"]
        if finder:
            return train.finder_from_onnx(path, meta["width"])
        return train_index.namer_from_onnx(path, meta["index_width"])
    prefix = f"result.{stage['start']}."
    net.load_state_dict(
        {
            k.removeprefix(prefix): torch.from_numpy(v.copy())
            for k, v in arrays.items()
            if k.startswith(prefix)
        }  # fmt: skip
    )
    return net


def export(net, model, path):
    net = copy.deepcopy(net).cpu().eval()
    if model == "finder":
        train.export(net, path)
    else:
        train_index.export(net, path)


def checker(course, stage, args):
    """(step, net) -> the validation figures of the models with this net in its model's place,
    recorded, and the net kept in state/chosen/ when it reads better than the best so far."""
    model = stage["model"]

    def check(step, net):
        candidate = BUILD / "course" / f"{stage['name']}-{step}.onnx"
        candidate.parent.mkdir(parents=True, exist_ok=True)
        export(net, model, candidate)
        figures = validation_figures(args.real, {model: candidate})
        figures |= {"stage": stage["name"], "step": step, "at": _now()}
        course.meta["validation"].append(figures)
        best = course.meta["chosen"].get(model) or course.meta["baseline"]
        print(f"validation photos: {figures}", flush=True)
        if (figures["mean"], figures["exact"]) > (best["mean"], best["exact"]):
            chosen = course.folder / "chosen" / FILES[model]
            chosen.parent.mkdir(exist_ok=True)
            chosen.write_bytes(candidate.read_bytes())
            course.meta["chosen"][model] = figures
            print(f"  the best so far: kept as {chosen}", flush=True)
        course.save()

    return check


def validation_figures(folder, models=None):
    """The reader's figures on the real validation photos with `models` ({"finder": path,
    "near": path, "far": path}) in place of the committed ones."""
    models = {"finder": reader.MODEL_PATH, "near": reader.NAMERS[0], "far": reader.NAMERS[1]} | (
        models or {}
    )
    figures = evaluate.real_validation(models["finder"], (models["near"], models["far"]), folder)
    reader.use_models(reader.MODEL_PATH)  # the committed ones again
    recall, precision = figures["real_validation_recall"], figures["real_validation_precision"]
    return {
        "recall": recall,
        "precision": precision,
        "mean": round((recall + precision) / 2, 4),
        "exact": int(figures["real_validation_exact"].split("/")[0]),
        "photos": figures["real_validation_photos"],
    }


def run(args, svg_cards):
    """The course at --state, from where it stopped, until it ends, --stop-after minutes
    pass, or a signal asks it to stop."""
    if args.real is None or args.photographed is None:
        raise SystemExit("--resume needs --real PATH/TO/CardCounterML and --photographed DIR")
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    stop_at = time.monotonic() + (args.stop_after * 60 if args.stop_after else math.inf)
    course = Course(args.state, width=args.width, index_width=args.index_width)
    if "baseline" not in course.meta:
        course.meta["baseline"] = validation_figures(args.real) | {"at": _now()}
        print(f"the committed models on the validation photos: {course.meta['baseline']}")
    while (where := state.where(course.meta)) is not None:
        if _stop["asked"] or time.monotonic() >= stop_at:
            break
        number, step = where
        stage = course.meta["stages"][number]
        run_stage(course, stage, step, args, svg_cards, stop_at)
    print(state.progress(course.meta), flush=True)


def run_stage(course, stage, step, args, svg_cards, stop_at):
    meta = course.meta
    net = _network(stage, meta, course.arrays)
    run = {
        "stage": stage["name"],
        "from_step": step,
        "to_step": step,
        "started": _now(),
        "device": args.device,
        "workers": args.workers,
        "_started": time.monotonic(),
    }
    meta["runs"].append({k: v for k, v in run.items() if not k.startswith("_")})
    keeper = Keeper(course, stage, run, stop_at, checker(course, stage, args))
    if meta.get("arrays_of") != stage["name"]:  # its start, saved before the data is made
        if stage["model"] == "finder":
            unlabelled(course, stage, net, args)
        keeper.save(0, net, torch.optim.AdamW(net.parameters()))
    print(f"{stage['name']}: from step {step} of {stage['steps']}", flush=True)
    started = time.monotonic()
    if stage["model"] == "finder":
        net, step = _train_finder(course, stage, net, args, svg_cards, keeper)
    else:
        net, step = _train_namer(course, stage, net, args, svg_cards, keeper)
    print(f"{stage['name']}: step {step} after {time.monotonic() - started:.0f} s", flush=True)


def _train_finder(course, stage, net, args, svg_cards, keeper):
    seed = stage["seed"]
    real_photos = _real_photos(course, stage, args)
    data = train.generate(
        svg_cards,
        args.photographed,
        stage["deals"],
        seed + 3,
        deals=True,
        card_size=tuple(args.refine_card_size),
        pieces=6,
        processes=args.processes,
    )
    data += train.generate(
        svg_cards, args.photographed, stage["photos"], seed + 4, processes=args.processes
    )
    print(f"  {len(data)} composed pieces and photos, {len(real_photos)} real photos", flush=True)
    with _training():
        return train.train(
            data,
            stage["steps"],
            seed + 5,
            course.meta["width"],
            batch_size=stage.get("batch", 12),
            log=lambda message: print(message, flush=True),
            net=net,
            lr=stage["lr"],
            real=real_photos,
            real_share=stage["real_share"],
            device=args.device,
            workers=args.workers,
            keeper=keeper,
        )


def unlabelled(course, stage, net, args):
    """What the stage's starting finder sees in the real training photos where no label is
    (real.with_unlabelled), worked out once at the stage's start and kept in the state: a
    stage that goes on later uses the same, whatever finder is committed by then."""
    key = f"unlabelled.{stage['name']}"
    if key not in course.meta:
        names = real.training_names(args.real)
        photos = real.load(args.real, names)
        start = BUILD / "course" / f"{stage['name']}-start.onnx"
        start.parent.mkdir(parents=True, exist_ok=True)
        export(net, "finder", start)
        reader.use_models(start)
        found = real.with_unlabelled(photos, real.seen_by_finder)
        reader.use_models(reader.MODEL_PATH)
        course.meta[key] = {
            name: [list(map(float, c[:4])) for c in corners[len(photo[1]) :]]
            for name, photo, (_, corners) in zip(names, photos, found, strict=True)
            if len(corners) > len(photo[1])
        }


def _real_photos(course, stage, args):
    """The real training photos, with the stage's unlabelled finds left out of the loss."""
    names = real.training_names(args.real)
    photos = real.load(args.real, names)
    extra = course.meta[f"unlabelled.{stage['name']}"]
    return [
        (photo, corners + [(*box, -1, -1, math.nan, math.nan, 0.5) for box in extra.get(n, [])])
        for n, (photo, corners) in zip(names, photos, strict=True)
    ]


def _train_namer(course, stage, net, args, svg_cards, keeper):
    seed, far = stage["seed"], stage["far"]
    crops = train_index.generate(
        svg_cards, args.photographed, stage["crops"], seed, args.processes, far
    )
    photos = real.load(args.real, real.training_names(args.real))
    more = real.index_crops(photos, stage["real_crops"], seed + 2000, far)
    crops = tuple(np.concatenate(pair) for pair in zip(crops, more, strict=True))
    print(f"  {len(crops[0])} crops", flush=True)
    with _training():
        return train_index.fit(
            crops,
            stage["steps"],
            seed,
            course.meta["index_width"],
            log=lambda message: print(message, flush=True),
            net=net,
            lr=stage["lr"],
            device=args.device,
            keeper=keeper,
        )
