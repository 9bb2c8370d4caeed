"""The build command's options (build.py's and the course's, course.py)."""

import argparse
from pathlib import Path

from games.vision import reader
from games.vision.training import state


def parser(description):
    """The build's command line."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--photographed", type=Path, help="folder of real card-face photos")
    parser.add_argument("--photos", type=int, default=8000, help="synthetic training photos")
    parser.add_argument("--steps", type=int, default=26_000, help="the finder's training steps")
    parser.add_argument("--lr", type=float, default=3e-3, help="the finder's first learning rate")
    parser.add_argument("--crops", type=int, default=96000, help="index crops for the namer")
    parser.add_argument("--index-steps", type=int, default=20_400, help="the near namer's steps")
    parser.add_argument("--far-index-steps", type=int, default=14_000, help="the far namer's")
    parser.add_argument("--width", type=int, default=32, help="the finder's base width")
    parser.add_argument("--index-width", type=int, default=16, help="the namer's base width")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--output", type=Path, default=reader.MODEL_PATH)
    parser.add_argument("--index-output", type=Path, default=reader.INDEX_MODEL_PATH)
    parser.add_argument("--far-index-output", type=Path, default=reader.FAR_INDEX_MODEL_PATH)
    parser.add_argument(
        "--refine-steps", type=int, default=18_600, help="each later stage's training steps"
    )
    parser.add_argument(
        "--refine-stages", type=int, default=1, help="later stages after the first (0: none)"
    )
    parser.add_argument(
        "--refine-from", type=int, default=1, help="the first later stage to run (1: the second)"
    )
    parser.add_argument(
        "--refine-lr", type=float, default=1e-3, help="the second stage's learning rate"
    )
    parser.add_argument(
        "--refine-decay",
        type=float,
        default=1.0,
        help="each stage after the second starts at this share of the one before's rate",
    )
    parser.add_argument(
        "--refine-card-size",
        type=float,
        nargs=2,
        default=(0.06, 0.22),
        metavar=("LEAST", "MOST"),
        help="the later stages' deals: their cards' height, as a share of the side",
    )
    parser.add_argument(
        "--refine-deals", type=int, default=900, help="whole deals for each later stage"
    )
    parser.add_argument(
        "--refine-photos", type=int, default=2600, help="composed photos for each later stage"
    )
    parser.add_argument(
        "--real",
        type=Path,
        help="the CardCounterML folder: real photographs for the finder's last stage",
    )
    parser.add_argument("--real-steps", type=int, default=20_000, help="the real stage's steps")
    parser.add_argument(
        "--real-share", type=float, default=0.6, help="share of each batch from real photos"
    )
    parser.add_argument("--real-lr", type=float, default=1e-3, help="the real stage's rate")
    parser.add_argument(
        "--real-deals", type=int, default=300, help="whole deals mixed into the real stage"
    )
    parser.add_argument(
        "--real-photos", type=int, default=2000, help="composed photos mixed into the real stage"
    )
    parser.add_argument(
        "--real-crops", type=int, default=24_000, help="namer crops from the real photographs"
    )
    parser.add_argument(
        "--threads", type=int, default=2, help="torch threads for --namer-only's namers"
    )
    parser.add_argument(
        "--real-only",
        action="store_true",
        help="train the finder already at --output through the real stage alone",
    )
    parser.add_argument(
        "--refine-only",
        action="store_true",
        help="train the finder already at --output through the later stages alone",
    )
    parser.add_argument(
        "--namer-only",
        choices=("near", "far", "both"),
        help="rebuild that namer (or both) alone, beside the finder already at --output",
    )
    parser.add_argument(
        "--namer-further",
        action="store_true",
        help="with --namer-only: train the namers at their outputs further (from 1e-3)",
    )
    parser.add_argument(
        "--no-validate", action="store_true", help="skip the validation figures at the end"
    )
    parser.add_argument(
        "--device", default="cpu", help='where the networks train: "cpu", or "cuda" for a GPU'
    )
    parser.add_argument("--batch", type=int, default=12, help="the finder's crops per step")
    parser.add_argument(
        "--workers", type=int, default=0, help="processes making the finder's batches (0: none)"
    )
    parser.add_argument(
        "--processes", type=int, default=2, help="processes composing the synthetic photos"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="run the training course (course.py) from its saved state at --state, its "
        "stages' own steps, rates and batches",
    )
    parser.add_argument("--state", type=Path, default=state.STATE, help="the course's state")
    parser.add_argument("--stop-after", type=float, help="with --resume: minutes, then save")
    parser.add_argument(
        "--namer-processes",
        type=int,
        default=1,
        help="processes making the namers' crops beside the finder's training",
    )
    return parser
