"""What the reader finds in a photo: the corner indices the finder sees, and the cards read
from them."""

from dataclasses import dataclass

import numpy as np

from games.vision.labels import JOKER_RANK, RANKS, SUITS

# Every card the model can name.
LABELS = tuple(f"{rank}{suit}" for rank in RANKS[:JOKER_RANK] for suit in SUITS) + ("JK",)


def deck_supply(decks: int, jokers: int | None = None) -> dict[str, int]:
    """How many copies of each label `decks` standard decks hold, for the reader's `supply`:
    and `jokers` printed jokers (None: as many jokers as the photo shows)."""
    supply = dict.fromkeys(LABELS[:-1], decks)
    if jokers is not None:
        supply["JK"] = jokers
    return supply


@dataclass(frozen=True)
class CardReading:
    """One card found: its label in RULES.md's notation, how sure the reader is, the box of
    its clearest corner index in the photo's pixels, the best other label it could be, and
    where the card lies: its centre and its reach (from a corner index to the centre), in the
    photo's pixels."""

    card: str
    confidence: float
    box: tuple[int, int, int, int]
    alternative: str
    alternative_confidence: float
    centre: tuple[float, float] = (0.0, 0.0)
    reach: float = 0.0

    def as_dict(self):
        return {
            "card": self.card,
            "confidence": round(self.confidence, 3),
            "box": list(self.box),
            "alternative": self.alternative,
            "alternative_confidence": round(self.alternative_confidence, 3),
        }


@dataclass(frozen=True)
class Corner:
    """One corner index seen by the model, in the pixels of the image it was given."""

    centre: tuple[float, float]
    box: tuple[float, float, float, float]
    to_card_centre: tuple[float, float]
    score: float
    labels: np.ndarray  # probability of each of LABELS
    real: float = 1.0  # how likely the namer thinks it is an index at all

    def scaled(self, factor):
        return Corner(
            (self.centre[0] * factor, self.centre[1] * factor),
            tuple(v * factor for v in self.box),
            (self.to_card_centre[0] * factor, self.to_card_centre[1] * factor),
            self.score,
            self.labels,
            self.real,
        )
