"""How a hand can end. Which of them a game offers is in its description (games.GameKind)."""

CARDS = "cards"
WENT_OUT = "went_out"  # went out (Three Thirteen, Five Crowns); declared and won (Rummy)
POINTS = "points"  # entered as a number
DROP = "drop"
MIDDLE_DROP = "middle_drop"
WRONG_DECLARATION = "wrong_declaration"
DRAWN = "drawn"  # Gin Rummy: the stock ran out and nobody knocked
OUTCOMES = (CARDS, WENT_OUT, POINTS, DROP, MIDDLE_DROP, WRONG_DECLARATION, DRAWN)
FIXED_NAMES = {
    DROP: "Drop",
    MIDDLE_DROP: "Middle drop",
    WRONG_DECLARATION: "Wrong declaration",
    DRAWN: "Drawn hand",
}
MAX_POINTS = 10_000  # the most a hand may be entered as


def takes_cards(outcome: str) -> bool:
    """The outcomes scored from the cards left in the hand (the others cost fixed points or
    are entered as a number)."""
    return outcome in (CARDS, WENT_OUT)
