"""Photos in, the cards in them out: the card reader from the command line, nothing stored.
With --hands N each photo is one of the whole table, read into its N hands in the table's
order (the hand nearest the photo's bottom edge first, then clockwise seen from above)."""

import argparse
import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.vision import (
    HANDS,
    MAX_BYTES,
    PhotoError,
    TableReading,
    deck_supply,
    read_cards,
    read_table,
)
from games.vision.reader import run_at_once
from games.vision.tables import hands_words


def at_least(least):
    """An argparse type: a whole number of at least `least` (--decks, --jokers; the bench's
    --decks too)."""

    def parsed(text):
        try:
            number = int(text)
        except ValueError:
            number = None
        if number is None or number < least:
            raise argparse.ArgumentTypeError(f"a whole number of at least {least}, not {text!r}")
        return number

    return parsed


def _hands(text):
    """--hands: a whole number of hands a table photo may be read into."""
    try:
        hands = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(hands_words(repr(text))) from None
    if hands not in HANDS:
        raise argparse.ArgumentTypeError(hands_words(hands))
    return hands


class Command(BaseCommand):
    help = (
        "Read the cards in photos: one answer per photo, in order (JSON lines with --json); "
        "with --hands N, each photo is of the whole table, read into N hands."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("photos", nargs="+", metavar="PHOTO")
        parser.add_argument("--json", action="store_true", help="one JSON object a line")
        parser.add_argument(
            "--hands",
            type=_hands,
            metavar="N",
            help=(
                f"the photo is of the whole table: read it into N hands ({HANDS[0]} to "
                f"{HANDS[-1]}), the hand nearest the photo's bottom edge first, then clockwise"
            ),
        )
        parser.add_argument(
            "--decks",
            type=at_least(1),
            metavar="D",
            help="the cards come from D standard decks: no card is read more than D times",
        )
        parser.add_argument(
            "--jokers",
            type=at_least(0),
            metavar="J",
            help="with --decks: J printed jokers in play (without it, jokers are not limited)",
        )

    def handle(self, *args, photos, **options):
        run_at_once()  # a command has its cores to itself: the finder's looks run on them at once
        hands = options["hands"]
        if options["jokers"] is not None and options["decks"] is None:
            raise CommandError("--jokers goes with --decks: how many decks the cards come from")
        supply = (
            None if options["decks"] is None else deck_supply(options["decks"], options["jokers"])
        )
        failed = 0
        for photo in photos:
            started = time.perf_counter()
            answer = {"photo": photo}
            try:
                with Path(photo).open("rb") as file:
                    data = file.read(MAX_BYTES + 1)  # one byte over is enough to refuse it
                if hands:
                    answer |= _table(read_table(data, hands, supply))
                else:
                    answer |= _cards(read_cards(data, supply))
            except (OSError, PhotoError) as error:
                failed += 1
                message = error.message if isinstance(error, PhotoError) else _file_error(error)
                answer["error"] = message
                answer |= _table(TableReading(((),) * hands)) if hands else {"cards": []}
            answer["seconds"] = round(time.perf_counter() - started, 3)
            self.stdout.write(json.dumps(answer) if options["json"] else _as_line(answer))
        if failed:
            raise CommandError(f"{failed} of {len(photos)} photos could not be read")


def _cards(cards):
    return {
        "cards": [
            {"card": c.card, "confidence": round(c.confidence, 3), "box": list(c.box)}
            for c in cards
        ]
    }


def _table(table):
    return {
        "hands": [
            [{"card": c.card, "confidence": round(c.confidence, 3)} for c in hand]
            for hand in table.hands
        ],
        "doubtful": [
            {
                "card": d.reading.card,
                "confidence": round(d.reading.confidence, 3),
                "hands": list(d.hands),
            }
            for d in table.doubtful
        ],
    }


def _file_error(error: OSError):
    return f"cannot read this file: {error.strerror or error}"


def _as_line(answer):
    if "error" in answer:
        return f"{answer['photo']}: {answer['error']}"
    if "hands" not in answer:
        cards = " ".join(card["card"] for card in answer["cards"]) or "no cards"
        return f"{answer['photo']}: {cards} ({answer['seconds']:.2f} s)"
    hands = "; ".join(
        f"hand {number}: {' '.join(c['card'] for c in hand) or 'no cards'}"
        for number, hand in enumerate(answer["hands"], start=1)
    )
    doubtful = "".join(
        f"; doubtful: {d['card']} (hand {' or '.join(str(h + 1) for h in d['hands'])})"
        for d in answer["doubtful"]
    )
    return f"{answer['photo']}: {hands}{doubtful} ({answer['seconds']:.2f} s)"
