"""What scoring a hand produces, shared by every game."""

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One best way to lay out a hand: its melds, the cards left out, and what they cost.
    `runs` says of each meld whether it is a run (a sequence) where wild cards stand in, so
    their part can be told (`wilds.wild_reasons`); empty where no wild card is melded."""

    points: int
    melds: tuple[tuple[Card, ...], ...]
    unmelded: tuple[Card, ...]
    runs: tuple[bool, ...] = ()
