"""The card reader measured: recall, precision, photos read exactly right, seconds per photo.

    uv run python -m bench.bench_vision --real PATH/TO/bidly/detector/evaluation/test-deals
    uv run python -m bench.bench_vision --synthetic 60     # needs .vision-build (the build)

The real set is photos no one here took, labelled per corner index: MrKeSuu/bidly's
`detector/evaluation/test-deals/` (MIT; 7 photos of whole deals, each `dealN-md-sq.jpg` beside
`dealN-md-sq-net1280-labels.json`). Clone that repository and pass the folder; it is never
committed here and the model is never trained or tuned on it. A labelled card counts as found
when the reader names it with a box near one of its labelled corners; a reported card is right
when it is matched so (each labelled card at most once). Seconds are wall time per photo on
this machine, from the file's bytes to the answer, one thread, after one warm-up read.
"""

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

from bench.vision_tables import BY_EYE, deal_hands
from games.management.commands.read_cards import at_least
from games.vision import deck_supply, group_hands, read_cards, read_table, reader
from games.vision.labels import RANKS
from games.vision.reader import read_pixels

ROOT = Path(__file__).resolve().parent.parent


def bidly_labels(path: Path, width: int, height: int):
    """{card: [corner boxes in pixels]} from one of bidly's `-labels.json` files."""
    corners = {}
    for item in json.loads(path.read_text()):
        name = item["name"]
        card = name[:-1].upper() + name[-1].upper()
        if card[:-1] not in RANKS:
            continue
        r = item["relative_coordinates"]
        cx, cy, w, h = r["center_x"] * width, r["center_y"] * height, r["width"], r["height"]
        box = (cx - w * width / 2, cy - h * height / 2, cx + w * width / 2, cy + h * height / 2)
        corners.setdefault(card, []).append(box)
    return corners


def matching(found, truth, counts=None):
    """The found cards that are right, each with the labelled card it is: named as a labelled
    card, near one of its labelled corners; each labelled card counted once (or
    `counts[card]` times)."""
    free = {card: list(boxes) for card, boxes in truth.items()}
    left = dict(counts or dict.fromkeys(truth, 1))
    right = []
    for reading in sorted(found, key=lambda c: -c.confidence):
        boxes = free.get(reading.card)
        if not boxes:
            continue
        x = (reading.box[0] + reading.box[2]) / 2
        y = (reading.box[1] + reading.box[3]) / 2
        near = [
            b
            for b in boxes
            if abs(x - (b[0] + b[2]) / 2) < 2 * max(b[2] - b[0], b[3] - b[1])
            and abs(y - (b[1] + b[3]) / 2) < 2 * max(b[2] - b[0], b[3] - b[1])
        ]
        if near:
            right.append((reading, reading.card))
            left[reading.card] -= 1
            if not left[reading.card]:
                del free[reading.card]
    return right


def matched(found, truth, counts=None):
    """How many of the found cards are right (`matching`)."""
    return len(matching(found, truth, counts))


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


def report(name, rows, note=""):
    right = sum(r[0] for r in rows)
    reported = sum(r[1] for r in rows)
    labelled = sum(r[2] for r in rows)
    exact = sum(1 for r in rows if r[0] == r[1] == r[2])
    seconds = [r[3] for r in rows]
    print(
        f"{name}: {len(rows)} photos, {labelled} cards{note}\n"
        f"  recall {right / max(1, labelled):.2%} ({right}/{labelled})  "
        f"precision {right / max(1, reported):.2%} ({right}/{reported})  "
        f"exact photos {exact}/{len(rows)}\n"
        f"  seconds per photo: p50 {percentile(seconds, 50):.3f}  p95 {percentile(seconds, 95):.3f}"
    )
    return {
        "set": name,
        "photos": len(rows),
        "cards": labelled,
        "recall": right / max(1, labelled),
        "precision": right / max(1, reported),
        "exact": exact,
        "p50": percentile(seconds, 50),
        "p95": percentile(seconds, 95),
    }


def labelled_photos(folder: Path):
    """(photo, its bytes, {card: labelled corner boxes}) for each of bidly's labelled photos."""
    from PIL import Image

    for labels in sorted(folder.glob("*-labels.json")):
        photo = folder / (labels.name.split("-net")[0] + ".jpg")
        with Image.open(photo) as image:
            truth = bidly_labels(labels, *image.size)
        yield photo, photo.read_bytes(), truth


def real_set(folder: Path, verbose=False, supply=None):
    rows = []
    for photo, data, truth in labelled_photos(folder):
        start = time.perf_counter()
        found = read_cards(data, supply)
        seconds = time.perf_counter() - start
        right = matched(found, truth)
        rows.append((right, len(found), len(truth), seconds))
        if verbose:
            names = {c.card for c in found}
            missed = sorted(set(truth) - names)
            kept = {id(reading) for reading, _ in matching(found, truth)}
            extra = sorted(f"{c.card}({c.confidence:.2f})" for c in found if id(c) not in kept)
            print(
                f"  {photo.name}: {right}/{len(truth)} right, {len(found)} reported, "
                f"missed {' '.join(missed) or 'none'}, extra {' '.join(extra) or 'none'}, "
                f"{seconds:.3f} s"
            )
    return rows


def table_row(table, truth, hand_of, seconds, cpu=0.0):
    """One table photo's figures: the card figures (right, reported, labelled, seconds) of
    every card read (in a hand or doubtful), then the cards read in their right hand, the
    hands read exactly (each hand's cards just those labelled in it, no card doubtful), the
    hands, the doubtful cards, and the CPU seconds the read took (every thread's: what the
    machine's load does not change)."""
    found = [c for hand in table.hands for c in hand] + [d.reading for d in table.doubtful]
    right = matching(found, truth)
    in_hand = {id(c): k for k, hand in enumerate(table.hands) for c in hand}
    placed = sum(1 for reading, card in right if in_hand.get(id(reading)) == hand_of[card])
    exact = sum(
        1
        for k, hand in enumerate(table.hands)
        if sorted(c.card for c in hand) == sorted(c for c in truth if hand_of[c] == k)
        and not any(k in d.hands for d in table.doubtful)
    )
    doubtful = len(table.doubtful)
    hands = len(table.hands)
    return (len(right), len(found), len(truth), seconds, placed, exact, hands, doubtful, cpu)


def table_report(name, rows, note=""):
    """The card figures (`report`), then the tables': cards in the right hand, hands exact."""
    figures = report(name, rows, note)
    placed, found, labelled, right = (sum(r[k] for r in rows) for k in (4, 1, 2, 0))
    exact, hands, doubtful = (sum(r[k] for r in rows) for k in (5, 6, 7))
    print(
        f"  cards in the right hand: recall {placed / max(1, labelled):.2%} ({placed}/{labelled})"
        f"  precision {placed / max(1, found):.2%} ({placed}/{found})\n"
        f"  hands read exactly {exact}/{hands}  doubtful cards {doubtful}  "
        f"(of the cards read right, {placed / max(1, right):.2%} in the right hand)\n"
        f"  CPU seconds per photo (both threads): mean {sum(r[8] for r in rows) / len(rows):.3f}"
    )
    return figures | {"in_hand_recall": placed / max(1, labelled), "hands_exact": exact}


def real_tables(folder: Path, hands: int, verbose=False, supply=None):
    """bidly's deals read as tables of `hands` hands, as `read_cards --hands` reads them."""
    rows = []
    for photo, data, truth in labelled_photos(folder):
        start, cpu = time.perf_counter(), time.process_time()
        table = read_table(data, hands, supply)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        hand_of = deal_hands(truth, hands, by_eye=BY_EYE.get(photo.name))
        rows.append(table_row(table, truth, hand_of, seconds, cpu))
        if verbose:
            print(f"  {photo.name}: {rows[-1][4]}/{len(truth)} in the right hand, "
                  f"{rows[-1][5]}/{hands} hands exact, {rows[-1][3]:.3f} s")  # fmt: skip
    return rows


def composed_tables(count, seed, photographed=None, verbose=False):
    """Table photos composed with their hands known (bench/vision_tables.py): not the measure."""
    from bench.vision_tables import faces_for_tables, labelled, table_scene

    faces = faces_for_tables(photographed, seed)
    rows = []
    for i in range(count):
        photo, corners, hand_of, hands = table_scene(random.Random(seed * 7919 + i), faces)
        truth = labelled(corners)
        start, cpu = time.perf_counter(), time.process_time()
        table = group_hands(read_pixels(photo), hands)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        rows.append(table_row(table, truth, hand_of, seconds, cpu))
        if verbose:
            print(f"  table {i}: {hands} hands, {rows[-1][4]}/{len(truth)} in the right hand, "
                  f"{rows[-1][5]}/{hands} hands exact, {rows[-1][7]} doubtful")  # fmt: skip
    return rows


def count_reading(what):
    """A line in .vision-build/held-out-reads.log: a held-out set read, with which models."""
    log = ROOT / ".vision-build/held-out-reads.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("a") as out:
        out.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {what}\n")


def held_out_sets(folder: Path, verbose=False):
    """CardCounterML's held-out photos (games/vision/training/real_held_out.txt), read as the
    app reads a file: (photos of one hand, of 1 to real.ONE_HAND cards; the rest). Each
    reading is counted in .vision-build/held-out-reads.log: they are read to measure, never
    to choose, and MODEL.md says how often they were."""
    from games.vision.training import real

    kept = real.originals(folder)
    one_hand, rest = [], []
    for name in real.read_list(real.HELD_OUT):
        photo = kept[name]
        indices = real.labels_of(photo)
        counts = real.cards_in(indices)
        truth = {}
        for index in indices:
            truth.setdefault(index.card, []).append(index.box)
        data = photo.read_bytes()
        start = time.perf_counter()
        found = read_cards(data)
        seconds = time.perf_counter() - start
        right = matched(found, truth, counts)
        labelled = sum(counts.values())
        (one_hand if 1 <= labelled <= real.ONE_HAND else rest).append(
            (right, len(found), labelled, seconds)
        )
        if verbose:
            names = Counter(c.card for c in found)
            missed = " ".join(sorted((counts - names).elements())) or "none"
            extra = " ".join(sorted((names - counts).elements())) or "none"
            print(f"  {name}: {right}/{labelled} right, missed {missed}, extra {extra}")
    return one_hand, rest


def synthetic_set(count, seed, photographed=None, deals=False, card_size=None):
    """Photos composed like the training ones, but from other seeds; not the measure. With
    `deals`, whole deals of 1200x1200 (up to four hands of one deck), their cards `card_size`
    (a share of the photo's side) when given."""
    from games.vision.training import art, scenes
    from games.vision.training.evaluate import score, truth_of

    svg_cards = ROOT / ".vision-build/node_modules/svg-cards/png/2x"
    if not svg_cards.exists():
        print("synthetic set skipped: run the build once, it installs the card art")
        return []
    rng = random.Random(seed)
    faces = art.svg_cards_faces(svg_cards)
    faces += [art.drawn_face(rng, r, s) for r in range(13) for s in range(4)]
    if photographed:
        faces += art.photographed_faces(photographed)
    backs = [f for f in faces if f.is_back] + [art.drawn_back(rng) for _ in range(4)]
    faces = [f for f in faces if not f.is_back]
    rows = []
    for i in range(count):
        photo_rng = random.Random(seed * 7919 + i)
        if deals:
            photo, corners = scenes.deal(photo_rng, faces, backs, card_size=card_size)
        else:
            photo, corners = scenes.compose(photo_rng, faces, backs, (960, 720))
        truth = truth_of(corners)
        start = time.perf_counter()
        found = read_pixels(photo)
        seconds = time.perf_counter() - start
        rows.append((*score(Counter(c.card for c in found), truth), seconds))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--real", type=Path, action="append", default=[], help="labelled folder")
    parser.add_argument(
        "--held-out", type=Path, help="the CardCounterML folder: its held-out photos are read"
    )
    parser.add_argument("--synthetic", type=int, default=0, help="synthetic photos to read")
    parser.add_argument("--deals", type=int, default=0, help="synthetic whole deals to read")
    parser.add_argument(
        "--small-deals",
        type=int,
        default=0,
        help="synthetic whole deals photographed from further away (cards 6-10%% of the side)",
    )
    parser.add_argument(
        "--photographed", type=Path, help="real card-face photos for the synthetic sets"
    )
    parser.add_argument(
        "--hands",
        type=int,
        help="read the --real deals as photos of the table in N hands (read_cards --hands N)",
    )
    parser.add_argument(
        "--tables", type=int, default=0, help="composed table photos (2 to 6 hands) to read"
    )
    parser.add_argument("--finder", type=Path, help="another finder than the committed one")
    parser.add_argument(
        "--namers", type=Path, nargs="+", help="other namers than the committed two (averaged)"
    )
    parser.add_argument(
        "--decks",
        type=at_least(1),
        help="read the --real deals knowing they are D decks without jokers (bidly's: 1), "
        "as read_cards --decks D --jokers 0 reads them",
    )
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--verbose", action="store_true", help="each photo's misses")
    args = parser.parse_args(argv)
    if not (
        args.real
        or args.held_out
        or args.synthetic
        or args.deals
        or args.small_deals
        or args.tables
    ):
        parser.error(
            "give --real FOLDER (bidly's test-deals), --held-out FOLDER (CardCounterML), "
            "--synthetic N, --deals N, --small-deals N or --tables N"
        )
    if args.finder or args.namers:
        reader.use_models(args.finder or reader.MODEL_PATH, args.namers or reader.NAMERS)
    read_cards(_warm_up_photo())
    models = " ".join(str(p) for p in (args.finder or reader.MODEL_PATH, *reader._namers))
    supply = deck_supply(args.decks, jokers=0) if args.decks is not None else None
    decks = f" --decks {args.decks} --jokers 0" * (args.decks is not None)
    for folder in args.real:
        count_reading(
            f"bidly {folder.name} with {models}"
            + f" --hands {args.hands}" * bool(args.hands)
            + decks
        )
        if args.hands:
            rows = real_tables(folder, args.hands, args.verbose, supply)
            table_report(f"real tables: {folder.name}, read into {args.hands} hands{decks}", rows)
        else:
            report(f"real: {folder.name}{decks}", real_set(folder, args.verbose, supply))
    if args.held_out:
        count_reading(f"CardCounterML held out with {models}")
        one_hand, rest = held_out_sets(args.held_out, args.verbose)
        report("real held out: photos of one hand (1-13 cards)", one_hand)
        report("real held out: the rest (more cards, or none)", rest)
    if args.tables:
        rows = composed_tables(args.tables, args.seed + 3, args.photographed, args.verbose)
        table_report("composed tables", rows, " (2 to 6 hands, composed: not the measure)")
    if args.synthetic:
        rows = synthetic_set(args.synthetic, args.seed, args.photographed)
        if rows:
            report(
                "synthetic validation",
                rows,
                " (composed like the training photos: not the measure)",
            )
    if args.deals:
        rows = synthetic_set(args.deals, args.seed + 1, args.photographed, deals=True)
        if rows:
            report("synthetic deals", rows, " (whole deals, composed: not the measure)")
    if args.small_deals:
        rows = synthetic_set(
            args.small_deals, args.seed + 2, args.photographed, deals=True, card_size=(0.06, 0.1)
        )
        if rows:
            report(
                "synthetic small deals", rows, " (whole deals seen from further: not the measure)"
            )


def _warm_up_photo():
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buffer, "PNG")
    return buffer.getvalue()


if __name__ == "__main__":
    main()
