"""What scoring a hand produces, shared by every game."""

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One best way to lay out a hand: its melds, the cards left out, and what they cost."""

    points: int
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
