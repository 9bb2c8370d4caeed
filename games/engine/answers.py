"""Pieces of a `score_hands` answer (RULES.md, "Scoring from the command line") that every game
reads or writes the same way; each game's own answer is in its module."""

from .arrangement import Arrangement
from .cards import Card, CardError, parse_hand


def hand_in(request: dict) -> list[Card]:
    """The cards of a request's "hand" field."""
    if "hand" not in request:
        raise CardError('"hand" is missing: write the cards, like "7H 8H 9H"')
    return parse_hand(request["hand"])


def round_in(request: dict, game_name: str, rounds: int) -> int:
    """The round a request names, for games whose round decides the hand (1 to `rounds`)."""
    if "round" not in request:
        raise CardError(f'"round" is missing: {game_name} needs the round, 1 to {rounds}')
    number = request["round"]
    if isinstance(number, bool) or not isinstance(number, int):
        raise CardError(f"the round must be a whole number from 1 to {rounds}")
    if not 1 <= number <= rounds:
        raise CardError(f"there is no round {number}: {game_name} has rounds 1 to {rounds}")
    return number


def cards_out(cards) -> list[str]:
    return [str(card) for card in cards]


def arrangement_fields(arrangement: Arrangement) -> dict:
    """An arrangement as the command writes it: its points, melds and the cards left out."""
    return {
        "points": arrangement.points,
        "melds": [cards_out(meld) for meld in arrangement.melds],
        "unmelded": cards_out(arrangement.unmelded),
    }
