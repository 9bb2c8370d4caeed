"""A short spell of the training course on a lent GPU (about 15 minutes), from the committed
state and back into it:

    uv run python -m games.vision.training.spell pack \\
        --real PATH/TO/CardCounterML --photographed PATH/TO/bidly/rawdata/data/cards

puts what the course reads into the ignored `.vision-build/spell/` (the CardCounterML photos
it may read, never the held-out ones; bidly's 52 faces; the DejaVu fonts the drawn faces use)
and prints the paths to carry and the command to run there, which goes on from the state in
the tree, writes the state it reaches under $OUT and stops (saving) before the spell ends;

    uv run python -m games.vision.training.spell unpack FILES_AT

puts that state back into games/vision/training/state/, to commit.
"""

import argparse
import shutil
from pathlib import Path

from games.vision.training import real, state

ROOT = Path(__file__).resolve().parents[3]
SPELL = ROOT / ".vision-build" / "spell"
FONTS = Path("/usr/share/fonts/truetype/dejavu")
CARRY = [".vision-build/spell", ".vision-build/node_modules", ".vision-build/package-lock.json"]


def pack(real_folder: Path, photographed: Path, minutes: float = 11):
    """The course's data into SPELL; returns the command to run on the GPU machine."""
    if SPELL.exists():
        shutil.rmtree(SPELL)
    held_out = set(real.read_list(real.HELD_OUT))
    for name, image in real.originals(real_folder).items():
        if name in held_out:
            continue
        labels = image.parent.parent / "labels" / (image.stem + ".txt")
        for path in (image, labels):
            copy = SPELL / "real" / path.relative_to(real_folder)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, copy)
    shutil.copytree(photographed, SPELL / "cards")
    shutil.copytree(FONTS, SPELL / "fonts")
    return (
        f"mkdir -p {FONTS.parent} && cp -rn .vision-build/spell/fonts {FONTS} ; "
        "cp -r games/vision/training/state $OUT/state && "
        "python3 -m games.vision.training.build --resume --state $OUT/state --device cuda "
        f"--workers 12 --processes 14 --stop-after {minutes:g} "
        "--real .vision-build/spell/real --photographed .vision-build/spell/cards "
        "> $OUT/spell.log 2>&1; tail -40 $OUT/spell.log"
    )


def unpack(files_at: Path):
    """The state a spell reached, from the folder its files came back to, into the tree."""
    found = files_at / "state"
    if state.load(found) is None:
        raise SystemExit(f"no course state in {found}")
    shutil.copytree(found, state.STATE, dirs_exist_ok=True)
    print(state.report(state.STATE))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    packing = commands.add_parser("pack", help="the course's data into .vision-build/spell/")
    packing.add_argument("--real", type=Path, required=True, help="the CardCounterML folder")
    packing.add_argument("--photographed", type=Path, required=True, help="bidly's faces")
    packing.add_argument("--minutes", type=float, default=11, help="training, then save")
    unpacking = commands.add_parser("unpack", help="the state a spell reached, into the tree")
    unpacking.add_argument("files_at", type=Path, help="where the spell's $OUT came back")
    args = parser.parse_args(argv)
    if args.command == "unpack":
        unpack(args.files_at)
        return
    command = pack(args.real, args.photographed, args.minutes)
    size = sum(p.stat().st_size for p in SPELL.rglob("*") if p.is_file())
    print(f"packed {size / 1e6:.1f} MB into {SPELL}")
    print(f"carry: {CARRY}")
    print(f"command: {command}")


if __name__ == "__main__":
    main()
