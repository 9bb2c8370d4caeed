"""How a hand can end. Which of them a game offers is in its description (kinds.GameKind)."""

CARDS = "cards"
WENT_OUT = "went_out"  # went out (Three Thirteen, Five Crowns); declared and won (Rummy)
POINTS = "points"  # entered as a number
DROP = "drop"
MIDDLE_DROP = "middle_drop"
WRONG_DECLARATION = "wrong_declaration"
DRAWN = "drawn"  # Gin Rummy: the stock ran out and nobody knocked
# Every outcome with its name where no game's own words name it (the stored hand's choices;
# a game's round page says "Went out", "Declared and won" or "Knocked" instead).
NAMES = {
    CARDS: "Cards counted",
    WENT_OUT: "Went out / declared",
    POINTS: "Points entered",
    DROP: "Drop",
    MIDDLE_DROP: "Middle drop",
    WRONG_DECLARATION: "Wrong declaration",
    DRAWN: "Drawn hand",
}
OUTCOMES = tuple(NAMES)
MAX_POINTS = 10_000  # the most a hand may be entered as


def takes_cards(outcome: str) -> bool:
    """The outcomes scored from the cards left in the hand (the others cost fixed points or
    are entered as a number)."""
    return outcome in (CARDS, WENT_OUT)
