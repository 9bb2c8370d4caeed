"""The table's records, a room each: groups of friends (groups), their players (players), game
nights and games with their seats and guest links (games), rounds with their save and undo
(rounds), hands and their history (hands).

Scores are never re-implemented here: a hand's points come from games.engine and are stored,
so the score table is one query. Everything is importable from `games.models` as before.
"""

from .errors import Conflict, Question, Refused
from .games import (
    GAME_KINDS,
    GUEST_LIFE,
    SAME_EVENING,
    Game,
    GameNight,
    GuestPass,
    NightLink,
    Seat,
)
from .groups import (
    INVITATION_LIFE,
    REMOVED,
    Group,
    Invitation,
    Membership,
    Removal,
    in_a_week,
    new_token,
)
from .hands import NOT_ENTERED, Entry, Hand, HandChange, Saver, entry_key, outcome_label
from .live import LiveChange
from .players import NAME_LENGTH, PLAYER_COLOURS, Player, normalise_name
from .rounds import Round, RoundTable

__all__ = [
    "GAME_KINDS",
    "GUEST_LIFE",
    "INVITATION_LIFE",
    "NAME_LENGTH",
    "NOT_ENTERED",
    "PLAYER_COLOURS",
    "REMOVED",
    "SAME_EVENING",
    "Conflict",
    "Entry",
    "Game",
    "GameNight",
    "Group",
    "GuestPass",
    "NightLink",
    "Hand",
    "LiveChange",
    "HandChange",
    "Invitation",
    "Membership",
    "Player",
    "Question",
    "Refused",
    "Removal",
    "Round",
    "RoundTable",
    "Saver",
    "Seat",
    "entry_key",
    "in_a_week",
    "new_token",
    "normalise_name",
    "outcome_label",
]
