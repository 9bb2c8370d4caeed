"""The training course's saved state: one small file that a later run, here or on a GPU,
goes on from (course.py). Plain numpy and JSON, no torch, so the suite checks it.

What it holds: `meta` (plain JSON: the course's stages, which stage and step it is at, its
seeds, the runs so far and what each was measured at) and arrays by name: the network's
weights exactly (float32, and its integer buffers as they are) and the optimiser's moments
(`MOMENT_PREFIX`) rounded to bfloat16, which keeps float32's range in half the bytes: the
moments steer the next steps, they need not be exact, and a moment rounded to zero in
float16 would make its weight's next step a leap.
"""

import io
import json
import os
import sys
from pathlib import Path

import numpy as np

STATE = Path(__file__).with_name("state")
FILE = "course.npz"
MOMENT_PREFIX = "moment."
_META = "meta.json"
_BFLOAT16 = "bf16."


def to_bfloat16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16, as its 16 bits (uint16)."""
    bits = np.ascontiguousarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # to nearest, ties to even
    return rounded.astype(np.uint16)


def from_bfloat16(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def save(folder: Path, meta: dict, arrays: dict[str, np.ndarray]) -> Path:
    """`meta` and `arrays` into folder/FILE, compressed, replacing the file at once (a
    reader, or a commit, sees the old state or the new, never half of one)."""
    folder.mkdir(parents=True, exist_ok=True)
    packed = {_META: np.frombuffer(json.dumps(meta).encode(), np.uint8)}
    for name, values in arrays.items():
        if name.startswith(MOMENT_PREFIX):
            packed[_BFLOAT16 + name] = to_bfloat16(values)
        else:
            packed[name] = np.asarray(values)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **packed)
    path = folder / FILE
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(buffer.getvalue())
    os.replace(temporary, path)
    return path


def load(folder: Path) -> tuple[dict, dict[str, np.ndarray]] | None:
    """(meta, arrays) as saved, the moments back as float32; None when nothing is saved."""
    path = folder / FILE
    if not path.exists():
        return None
    with np.load(path) as packed:
        meta = json.loads(packed[_META].tobytes())
        arrays = {}
        for name in packed.files:
            if name == _META:
                continue
            if name.startswith(_BFLOAT16):
                arrays[name.removeprefix(_BFLOAT16)] = from_bfloat16(packed[name])
            else:
                arrays[name] = packed[name]
    return meta, arrays


def where(meta: dict) -> tuple[int, int] | None:
    """(stage, step) a run goes on from: the first stage not finished and the step its last
    save reached; None when the course is done."""
    for number, stage in enumerate(meta["stages"]):
        done = meta["steps_done"].get(stage["name"], 0)
        if done < stage["steps"]:
            return number, done
    return None


def progress(meta: dict) -> str:
    """One line a stage: its steps done of its budget."""
    return "\n".join(
        f"{stage['name']}: {meta['steps_done'].get(stage['name'], 0)} of {stage['steps']} steps"
        for stage in meta["stages"]
    )


def report(folder: Path = STATE):
    """The course's runs and validation figures, as MODEL.md's tables."""
    saved = load(folder)
    if saved is None:
        return "no course saved"
    meta = saved[0]
    lines = ["| run started | stage | steps | seconds | device | losses at its end |"]
    lines.append("|---|---|---|---|---|---|")
    for r in meta["runs"]:
        losses = " ".join(f"{k} {v}" for k, v in r.get("losses", {}).items())
        lines.append(
            f"| {r['started']} | {r['stage']} | {r['from_step']}-{r['to_step']} | "
            f"{r.get('seconds', 0)} | {r['device']} | {losses} |"
        )
    lines += ["", "| stage | step | recall | precision | exact | mean |"]
    lines.append("|---|---|---|---|---|---|")
    base = meta.get("baseline")
    for f in ([{"stage": "committed", "step": "", **base}] if base else []) + meta["validation"]:
        lines.append(
            f"| {f['stage']} | {f['step']} | {f['recall']:.2%} | {f['precision']:.2%} | "
            f"{f['exact']}/{f['photos']} | {f['mean']:.2%} |"
        )
    return "\n".join(lines + ["", progress(meta)])


if __name__ == "__main__":  # where the course stands, without torch
    print(report(Path(sys.argv[1]) if len(sys.argv) > 1 else STATE))
