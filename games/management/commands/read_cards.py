"""Photos in, the cards in them out: the card reader from the command line, nothing stored."""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.vision import MAX_BYTES, PhotoError, read_cards


class Command(BaseCommand):
    help = "Read the cards in photos: one answer per photo, in order (JSON lines with --json)."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("photos", nargs="+", metavar="PHOTO")
        parser.add_argument("--json", action="store_true", help="one JSON object a line")

    def handle(self, *args, photos, **options):
        failed = 0
        for photo in photos:
            started = time.perf_counter()
            answer = {"photo": photo}
            try:
                with Path(photo).open("rb") as file:
                    data = file.read(MAX_BYTES + 1)  # one byte over is enough to refuse it
                cards = read_cards(data)
            except (OSError, PhotoError) as error:
                failed += 1
                message = error.message if isinstance(error, PhotoError) else _file_error(error)
                answer |= {"error": message, "cards": []}
            else:
                answer["cards"] = [
                    {"card": c.card, "confidence": round(c.confidence, 3), "box": list(c.box)}
                    for c in cards
                ]
            answer["seconds"] = round(time.perf_counter() - started, 3)
            self.stdout.write(json.dumps(answer) if options["json"] else _as_line(answer))
        if failed:
            raise CommandError(f"{failed} of {len(photos)} photos could not be read")


def _file_error(error: OSError):
    return f"cannot read this file: {error.strerror or error}"


def _as_line(answer):
    if "error" in answer:
        return f"{answer['photo']}: {answer['error']}"
    cards = " ".join(card["card"] for card in answer["cards"]) or "no cards"
    return f"{answer['photo']}: {cards} ({answer['seconds']:.2f} s)"
