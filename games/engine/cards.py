"""Cards, the RULES.md notation, and the supply of cards a table has in play."""

import re
from collections import Counter
from dataclasses import dataclass

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = (
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
)  # fmt: skip
SUITS = ("C", "D", "H", "S")  # the four suits of a standard deck
STARS = "X"  # Five Crowns' fifth suit
FIVE_SUITS = SUITS + (STARS,)
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "X": "stars"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "X": "★"}
RED_SUITS = frozenset({"D", "H"})

_SUIT_ALIASES = {
    "C": "C", "D": "D", "H": "H", "S": "S",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S",
    "X": "X", "★": "X", "*": "X", "☆": "X",
}  # fmt: skip
_RANK_ALIASES = {label: number for number, label in enumerate(RANK_LABELS, start=1)} | {"T": 10}
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(ValueError):
    """An input the engine refuses; its message is meant for the person who typed it."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card: rank 1 (ace) to 13 (king) and a suit letter, or a printed joker."""

    rank: int  # 0 for a printed joker
    suit: str  # "" for a printed joker

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def label(self) -> str:
        """The rank as printed in the corner: A, 2 … 10, J, Q, K; JK for a joker."""
        return "JK" if self.is_joker else RANK_LABELS[self.rank - 1]

    @property
    def symbol(self) -> str:
        return "" if self.is_joker else SUIT_SYMBOLS[self.suit]

    @property
    def colour(self) -> str:
        """The ink a face is printed in: red, black, star (Five Crowns) or joker."""
        if self.is_joker:
            return "joker"
        if self.suit == STARS:
            return "star"
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def name(self) -> str:
        """How the card is read aloud: "7 of hearts", "Queen of spades", "Joker"."""
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return "JK" if self.is_joker else f"{RANK_LABELS[self.rank - 1]}{self.suit}"


JOKER = Card(0, "")


def parse_card(token: str) -> Card:
    """Read one card in the RULES.md notation (case-insensitive, T for 10, suit symbols too)."""
    text = token.strip().upper()
    if text in ("JK", "JOKER"):
        return JOKER
    if len(text) < 2:
        raise CardError(f'"{token}" is not a card: write a rank and a suit, like 7H or 10S')
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUIT_ALIASES.get(suit_text)
    rank = _RANK_ALIASES.get(rank_text)
    if suit is None and text[0] in _SUIT_ALIASES and text[1:] in _RANK_ALIASES:
        # Suit written first, like "H7": be helpful rather than silent.
        raise CardError(f'"{token}" is not a card: write the rank before the suit, like 7H')
    if suit is None:
        raise CardError(
            f'"{token}" is not a card: the suit must be C, D, H or S (or ♣ ♦ ♥ ♠), '
            "or X for Five Crowns' stars"
        )
    if rank is None:
        raise CardError(f'"{token}" is not a card: the rank must be A, 2-10, J, Q or K')
    return Card(rank, suit)


def parse_hand(text: str) -> list[Card]:
    """Read a hand: cards separated by spaces or commas, in the order written."""
    if not isinstance(text, str):
        raise CardError('the hand must be written as text, like "7H 8H 9H"')
    tokens = [token for token in _SEPARATORS.split(text.strip()) if token]
    return [parse_card(token) for token in tokens]


# A card in canonical notation inside a message ("KS (King of spades) is held 3 times",
# "5H 8C cannot be placed"), with the name the engine may give after it. Examples of what to
# type ("like 7H or 10S") and quoted tokens that are not cards stay text.
CARD_IN_TEXT = re.compile(
    r'(?<![\w"])(?<!\blike )(?<!\bor )(10[CDHSX]|[2-9AJQK][CDHSX]|JK)(?![\w"])(?: \([^)]*\))?'
)


# A text that also holds words nobody checked for cards (a player's name: "JK", "AS") marks its
# cards instead: "⟦7C⟧ is wild but left over". Only the marked ones are then cards.
MARKED_CARD = re.compile(r"⟦(10[CDHSX]|[2-9AJQK][CDHSX]|JK)⟧")


def mark_cards(message: str) -> str:
    """The cards of an engine's message (which names no player) marked, to be joined with
    words that may look like cards (names) and still be read right (`cards_in`)."""
    return CARD_IN_TEXT.sub(lambda found: f"⟦{found.group(1)}⟧", message)


def cards_in(message: str, marked: bool = False) -> re.Pattern:
    """How to find the cards in `message`: its marked ones where it marks them (or where it is
    `marked` text: the look-back's lines, whose names may look like cards), else every card's
    notation."""
    return MARKED_CARD if marked or "⟦" in message else CARD_IN_TEXT


def cards_as_printed(message: str, marked: bool = False) -> str:
    """A message with each card in it as its corner prints it ("7♣", "Q♥", "JK"), not its
    notation: for plain text (a picture, a preview) where a face cannot be drawn. `marked`:
    only the cards marked (`mark_cards`) are cards."""

    def printed(found: re.Match) -> str:
        try:
            card = parse_card(found.group(1))
        except CardError:
            return found.group(0)
        return card.label + card.symbol

    return cards_in(message, marked).sub(printed, message)


def format_cards(cards) -> str:
    """The canonical notation: "AS 10H QD JK"."""
    return " ".join(str(card) for card in cards)


def sort_cards(cards) -> list[Card]:
    """Jokers last, the rest by suit then rank, as a player fans a hand."""
    return sorted(cards, key=lambda card: (card.is_joker, card.suit, card.rank))


def _times_word(count: int) -> str:
    return "twice" if count == 2 else f"{count} times"


def supply_error(counts: Counter, decks: int, jokers: int, where: str) -> str | None:
    """The first card held more often than the decks in play allow, said plainly; None if fine.

    A table with d decks has d copies of each card and as many printed jokers as it chose.
    """
    for card in sort_cards(counts):
        held = counts[card]
        if card.is_joker:
            if held > jokers:
                allowed = "no jokers are" if jokers == 0 else f"only {jokers} jokers are"
                return f"{held} jokers {where}, but {allowed} in play"
        elif held > decks:
            decks_hold = "1 deck has only 1" if decks == 1 else f"{decks} decks have only {decks}"
            return f"{card} ({card.name}) is held {_times_word(held)} {where}, but {decks_hold}"
    return None


def check_hand_supply(cards, decks: int, jokers: int) -> None:
    """A hand holds at most one copy of a card per deck and at most the jokers in play."""
    message = supply_error(Counter(cards), decks, jokers, "in this hand")
    if message:
        raise CardError(message)


def check_deck(cards, suits, ranks, decks: int, jokers: int, game_name: str) -> None:
    """Only cards of the game's decks (its suits and ranks, and the jokers in play), and no more
    copies of a card than the decks hold."""
    for card in cards:
        if not card.is_joker and (card.suit not in suits or card.rank not in ranks):
            raise CardError(f"{card} ({card.name}) is not a card of {game_name}")
    check_hand_supply(cards, decks, jokers)


def check_round_supply(hands, decks: int, jokers: int) -> None:
    """All the hands of one round together obey the same supply limit as a single hand."""
    total = Counter()
    for cards in hands:
        total.update(cards)
    message = supply_error(total, decks, jokers, "across the hands of this round")
    if message:
        raise CardError(message)
