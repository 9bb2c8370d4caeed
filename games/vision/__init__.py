"""Reading the cards in a photo: plain Python and onnxruntime, no Django.

read_cards(data: bytes) -> list[CardReading]   # raises a PhotoError for a bad file
unsure(cards) -> the readings the player should check first
check_words(card) -> "check: 6 of clubs, or 9?"
read_table(data: bytes, hands: int) -> TableReading   # the hands of a table photo, in order
"""

from games.vision.photo import (
    LONGEST_SIDE,
    MAX_BYTES,
    MAX_PIXELS,
    DamagedPhoto,
    NotAPhoto,
    PhotoError,
    PhotoTooLarge,
    TooManyPixels,
)
from games.vision.reader import UNSURE_BELOW, CardReading, read_cards, unsure
from games.vision.tables import HANDS, DoubtfulCard, TableReading, group_hands, read_table
from games.vision.words import check_words

__all__ = [
    "HANDS",
    "DoubtfulCard",
    "TableReading",
    "group_hands",
    "read_table",
    "LONGEST_SIDE",
    "MAX_BYTES",
    "MAX_PIXELS",
    "UNSURE_BELOW",
    "CardReading",
    "DamagedPhoto",
    "NotAPhoto",
    "PhotoError",
    "PhotoTooLarge",
    "TooManyPixels",
    "check_words",
    "read_cards",
    "unsure",
]
