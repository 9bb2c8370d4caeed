"""A hand read from a photo, for its panel: the cards the reader found that the game's deck
has, those it is unsure of with what they may be instead, in words for the page. The reading
itself is games.vision's (plain Python, no Django); the photo lives only in memory."""

import io
from dataclasses import dataclass

from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

from games import vision
from games.engine.cards import CardError, parse_card


@dataclass(frozen=True)
class PhotoReading:
    """What the panel is told of a photo: the cards in the notation the picker uses, the
    unsure ones each with the words that say what to check, and a line for the page."""

    cards: tuple[str, ...]
    unsure: tuple[tuple[str, str], ...]  # (card, "check: 6 of clubs, or 9?")
    note: str


def read_hand_photo(data: bytes, kind, rules, round_number: int) -> PhotoReading:
    """The cards of a photo of a hand of this game, in this round. Raises vision.PhotoError,
    whose message says what is wrong with the file, for the page."""
    found = vision.read_cards(data, supply_of(kind, rules))
    return reading_of(found, set(vision.unsure(found)), kind, rules, round_number)


def supply_of(kind, rules) -> dict[str, int]:
    """How many copies of each card the reader names the game's decks hold (its printed jokers
    too, where it plays with them): a photo is never read as more of a card than that. A card
    the game does not have is not limited: it is read, then left out of the hand and counted
    in the note ("a printed joker where the game plays without them")."""
    deck = {str(card): card for card in kind.deck(rules)}
    supply = {}
    for label in vision.LABELS:
        try:
            card = deck.get(str(parse_card(label)))
        except CardError:
            continue
        if card is not None:
            supply[label] = kind.copies(card, rules)
    return supply


def reading_of(found, doubtful, kind, rules, round_number: int) -> PhotoReading:
    """The panel's reading of the cards found for one hand (`doubtful`: those to check)."""
    deck = {str(card) for card in kind.deck(rules)}
    cards, unsure, others = [], [], 0
    for reading in found:
        try:
            card = str(parse_card(reading.card))
        except CardError:
            card = reading.card
        if card not in deck:
            others += 1  # a printed joker where the game plays without them
            continue
        cards.append(card)
        if reading in doubtful:
            unsure.append((card, vision.check_words(reading)))
    holds = _holds(kind, rules, round_number)
    note = _note(len(cards), len(unsure), others, holds)
    return PhotoReading(tuple(cards), tuple(unsure), note)


def reading_again(cards, unsure, kind, rules, round_number: int) -> PhotoReading:
    """A reading whose cards were moved by the player (from one hand to another): the same
    words, counted again."""
    holds = _holds(kind, rules, round_number)
    return PhotoReading(tuple(cards), tuple(unsure), _note(len(cards), len(unsure), 0, holds))


def _holds(kind, rules, round_number: int) -> tuple[int, ...]:
    """Every count of cards a hand may hold this round, however it ended (a Gin hand 10, or
    11 for Big Gin)."""
    counts = {n for outcome, _ in kind.outcomes(rules) for n in kind.holds(round_number, outcome)}
    return tuple(sorted(counts))


def _note(count: int, unsure: int, others: int, holds: tuple[int, ...]) -> str:
    """The line the panel shows over a reading: how many cards the photo showed against how
    many the hand holds, so that a card the photo missed is seen before Save."""
    of = " or ".join(str(n) for n in holds)
    if not count:
        said = "No cards were found in this photo: lay the hand face up so each corner shows."
    elif count in holds:
        said = f"Found {count} of the {of} cards this hand holds."
    elif count < holds[0]:
        missing = holds[0] - count
        said = (
            f"Found {count} of the {of} cards this hand holds: {_cards(missing)} missing. "
            "Add what is missing below, or take the photo again with each corner showing."
        )
    else:
        said = f"Found {count} cards, but this hand holds {of}: take out any that is not in it."
    if count and unsure:
        said += f" Check the {_cards(unsure, 'marked card')} against the table."
    if others:
        said += f" Left out: {_cards(others, 'printed joker')} (this game plays without them)."
    return said + " Nothing is saved until you tap Save."


def _cards(count: int, word: str = "card") -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def uploaded_photo(request, missing: str) -> tuple[bytes | None, str | None]:
    """The photo sent (kept in memory by PhotoInMemory), or why there is none to read:
    too large, or none chosen (`missing` says what to choose)."""
    if int(request.META.get("CONTENT_LENGTH") or 0) > vision.MAX_BYTES + 2**16:
        return None, too_large()
    upload = request.FILES.get("photo")
    if getattr(request, "photo_too_large", False):
        return None, too_large()
    if upload is None:
        return None, missing
    return upload.read(), None


def too_large() -> str:
    return f"This photo is too large: send one under {vision.MAX_BYTES // 2**20} MB."


class PhotoInMemory(FileUploadHandler):
    """Keeps an uploaded photo in memory only (never in a temporary file), up to the reader's
    size limit; past it the rest of the upload is read and dropped, and the request is marked
    (`request.photo_too_large`) so the page says so."""

    def __init__(self, request=None):
        super().__init__(request)
        self.parts: list[bytes] = []
        self.size = 0

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.parts, self.size = [], 0

    def receive_data_chunk(self, raw_data, start):
        self.size += len(raw_data)
        if self.size > vision.MAX_BYTES:
            self.request.photo_too_large = True
            raise StopUpload(connection_reset=False)
        self.parts.append(raw_data)
        return None

    def file_complete(self, file_size):
        return InMemoryUploadedFile(
            io.BytesIO(b"".join(self.parts)),
            self.field_name,
            self.file_name,
            self.content_type,
            file_size,
            self.charset,
            self.content_type_extra,
        )
