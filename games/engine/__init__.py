"""Every rule of every game, in plain Python with no Django import: the app, the importer and
the `score_hands` command read games through this package."""

from .cards import CardError
from .kinds import (
    KINDS,
    MOST_PLAYERS,
    Extra,
    GameKind,
    HandInRound,
    RoundScore,
    Scored,
    Seating,
    Standing,
    kind_of,
    next_dealer,
    standings,
)
from .outcomes import (
    CARDS,
    DRAWN,
    DROP,
    MAX_POINTS,
    MIDDLE_DROP,
    NAMES,
    OUTCOMES,
    POINTS,
    WENT_OUT,
    WRONG_DECLARATION,
    takes_cards,
)

__all__ = [
    "CARDS",
    "DRAWN",
    "DROP",
    "NAMES",
    "KINDS",
    "MOST_PLAYERS",
    "MAX_POINTS",
    "MIDDLE_DROP",
    "OUTCOMES",
    "POINTS",
    "WENT_OUT",
    "WRONG_DECLARATION",
    "CardError",
    "Extra",
    "GameKind",
    "HandInRound",
    "RoundScore",
    "Scored",
    "Seating",
    "Standing",
    "kind_of",
    "next_dealer",
    "standings",
    "takes_cards",
]
