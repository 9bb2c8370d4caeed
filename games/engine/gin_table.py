"""Gin Rummy at the table: what the game description (games.GIN) needs from gin.py, in the
shapes every game shares. A hand is entered from each player's phone: the knocker's ("Knocked",
with the first upcard in Oklahoma), the other's ("Did not knock"), or "Drawn hand"; the round
is scored once both are in, from both hands together."""

from dataclasses import dataclass, field

from . import gin
from .arrangement import Arrangement
from .cards import CardError, parse_card, parse_hand
from .outcomes import CARDS, DRAWN, WENT_OUT

UPCARD = "upcard"
LAID_DOWN = "laid_down"

# How well a hand was won, best first: what the look-back calls a game's best hand.
RESULT_MERITS = {gin.BIG_GIN: 3, gin.GIN: 2, gin.UNDERCUT: 1}
RESULT_NAMES = {
    gin.KNOCK: "Knock",
    gin.GIN: "Gin",
    gin.BIG_GIN: "Big Gin",
    gin.UNDERCUT: "Undercut",
    gin.DRAWN: "Drawn",
}


@dataclass
class HandReport:
    """One hand as the round page shows it once the round is scored."""

    hand: int  # its place in the round's hands
    role: str
    melds: list[list[str]]
    layoffs: list[tuple[str, int]]  # a card laid off, onto which of the knocker's melds (1-)
    unmelded: list[str]
    deadwood: int


@dataclass
class ChoiceReport:
    """One way the knocker could have laid down the least deadwood, and what it gives."""

    index: int
    melds: list[list[str]]
    words: str  # with {0}, {1}... for the players' names, by their hand's place
    chosen: bool


@dataclass
class RoundReport:
    """What the round page says of a round scored from all its hands together; the words
    hold {0}, {1}... where the players' names go, by their hand's place in the round."""

    headline: str
    notes: list[str] = field(default_factory=list)
    hands: list[HandReport] = field(default_factory=list)
    choices: list[ChoiceReport] = field(default_factory=list)
    choice_hand: int | None = None  # the hand whose save picks a choice
    choice_name: str = LAID_DOWN  # what more the hand's entry says to pick a choice


def upcard_of(extra: dict | None):
    """The first upcard an entry names, if any; a card that cannot be read is refused."""
    text = (extra or {}).get(UPCARD) or ""
    if not str(text).strip():
        return None
    try:
        return parse_card(str(text).strip())
    except CardError as error:
        raise CardError(f"the upcard: {error}") from error


def laid_down_of(extra: dict | None) -> int | None:
    """The layout the knocker says they laid down, if they picked one."""
    text = str((extra or {}).get(LAID_DOWN) or "").strip()
    return int(text) if text.isdigit() and len(text) < 4 else None


def card_counts(outcome: str) -> tuple[int, ...]:
    """The cards a hand holds when it is entered: the knocker 10, or 11 for Big Gin."""
    return (gin.HAND_SIZE, gin.BIG_GIN_SIZE) if outcome == WENT_OUT else (gin.HAND_SIZE,)


def own_arrangement(cards, rules, knocked: bool, extra: dict | None) -> Arrangement:
    """A hand's own best melds and deadwood; a knock is checked against the knock limit (the
    upcard's in Oklahoma), and 11 cards are only Big Gin."""
    laid = gin.arrangements(cards)[0]
    if not knocked:
        return laid
    upcard = upcard_of(extra) if rules.variant == gin.OKLAHOMA else None
    if rules.variant == gin.OKLAHOMA and upcard is None:
        raise CardError(
            "Oklahoma needs the first upcard of the hand: its value is the knock limit; "
            'write it like "7H"'
        )
    gin.check_knock(laid.points, len(cards), gin.knock_limit(rules, upcard))
    return laid


def _texts(cards) -> list[str]:
    return [str(card) for card in cards]


def _melds(melds) -> list[list[str]]:
    return [_texts(meld) for meld in melds]


def _why(hand: gin.GinHand, rules, k: int, d: int) -> list[str]:
    """Why the hand scores what it does, in the rules' words: the defender's layoffs, and the
    sum that gives the points (a knock, an undercut, gin or Big Gin), with {k} and {d} for the
    knocker's and the defender's names."""
    knocker, defender = f"{{{k}}}", f"{{{d}}}"
    kept, left = hand.knocker.points, hand.defender.deadwood
    reasons = []
    if hand.defender.layoffs:
        cards = " ".join(str(card) for card, _ in hand.defender.layoffs)
        reasons.append(f"{defender} laid off {cards} onto {knocker}'s melds: they do not count")
    if hand.result == gin.KNOCK:
        sum_ = f"{knocker} knocked with {kept} deadwood and {defender} has {left}: {left} − {kept}"
    elif hand.result == gin.UNDERCUT:
        sum_ = (
            f"Undercut: {defender}'s deadwood ({left}) is not more than {knocker}'s ({kept}): "
            f"{kept} − {left} + {rules.undercut_bonus} undercut bonus"
        )
    elif hand.result == gin.BIG_GIN:
        sum_ = (
            f"Big Gin: nothing can be laid off on it; {defender}'s {left} + "
            f"{rules.big_gin_bonus} Big Gin bonus"
        )
    else:
        sum_ = (
            f"Gin: nothing can be laid off on it; {defender}'s {left} + {rules.gin_bonus} gin bonus"
        )
    double = ", doubled for a spade upcard" if hand.doubled else ""
    reasons.append(f"{sum_}{double} = {hand.points}")
    return reasons


def _outcome_words(result: str, scorer: int, points: int, doubled: bool) -> str:
    name = RESULT_NAMES[result]
    double = " (doubled: a spade upcard)" if doubled else ""
    return f"{name}: {{{scorer}}} scores {points}{double}"


def settle(hands, rules) -> tuple[list[int], str, RoundReport | None]:
    """Each hand's points once the round is known, the round's result and its report, from
    the round's hands (outcome, cards, extra): the knocker's and the other's scored together,
    the points to whoever wins the hand; a drawn hand scores nothing."""
    points = [0] * len(hands)
    knockers = [i for i, hand in enumerate(hands) if hand.outcome == WENT_OUT]
    others = [i for i, hand in enumerate(hands) if hand.outcome == CARDS]
    if not knockers and any(hand.outcome == DRAWN for hand in hands):
        return points, gin.DRAWN, RoundReport("Drawn hand: nobody knocked, nobody scores.")
    if len(knockers) != 1 or len(others) != 1:
        return points, "", None
    k, d = knockers[0], others[0]
    knocker, defender = hands[k], hands[d]
    try:
        upcard = upcard_of(knocker.extra) if rules.variant == gin.OKLAHOMA else None
        cards = parse_hand(knocker.cards), parse_hand(defender.cards)
        laid_down = laid_down_of(knocker.extra)
        try:
            hand = gin.score_hand(*cards, rules, upcard, laid_down)
        except CardError:
            if laid_down is None:
                raise
            hand = gin.score_hand(*cards, rules, upcard)  # a choice the hand no longer has
    except CardError:
        return points, "", None  # each hand's own save says what is wrong with it
    seat = {gin.KNOCKER: k, gin.DEFENDER: d}
    scorer = seat[hand.scorer]
    points[scorer] = hand.points
    notes = [f"Knock limit {hand.knock_limit}" + (" (gin only)." if not hand.knock_limit else ".")]
    if hand.doubled:
        notes.append("A spade was the first upcard: the hand scores double.")
    notes += _why(hand, rules, k, d)
    report = RoundReport(
        _outcome_words(hand.result, scorer, hand.points, hand.doubled),
        notes,
        [
            HandReport(
                k,
                "Knocked",
                _melds(hand.knocker.melds),
                [],
                _texts(hand.knocker.unmelded),
                hand.knocker.points,
            ),
            HandReport(
                d,
                "Defends",
                _melds(hand.defender.melds),
                [(str(card), index + 1) for card, index in hand.defender.layoffs],
                _texts(hand.defender.unmelded),
                hand.defender.deadwood,
            ),
        ],
    )
    if hand.choice_matters:
        report.choice_hand = k
        report.choices = [
            ChoiceReport(
                index,
                _melds(choice.knocker.melds),
                _outcome_words(choice.result, seat[choice.scorer], choice.points, hand.doubled),
                index == hand.chosen,
            )
            for index, choice in enumerate(hand.choices)
        ]
    return points, hand.result, report


def is_over(totals: list[int], rules) -> bool:
    return gin.game_over(totals, rules)


def bonus_lines(totals: list[int], hands_won: list[int], rules) -> list[list[tuple[str, int]]]:
    return gin.final_lines(totals, hands_won, rules)
