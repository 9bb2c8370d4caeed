"""Reading the cards in a photo: plain Python and onnxruntime, no Django.

read_cards(data: bytes) -> list[CardReading]   # raises a PhotoError for a bad file
unsure(cards) -> the readings the player should check first
check_words(card) -> "check: 6 of clubs, or 9?"
read_table(data: bytes, hands: int) -> TableReading   # the hands of a table photo, in order
Both take `supply` (`deck_supply(decks, jokers)`, or a game's own): no card is read more often
than the game's decks hold it.
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
from games.vision.readings import LABELS, deck_supply
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
    "LABELS",
    "deck_supply",
    "DamagedPhoto",
    "NotAPhoto",
    "PhotoError",
    "PhotoTooLarge",
    "TooManyPixels",
    "check_words",
    "read_cards",
    "unsure",
]
