"""Five Crowns: Three Thirteen's five-suited cousin — ranks 3 to K, stars, six jokers."""

from dataclasses import dataclass, field

from .arrangement import Arrangement
from .cards import FIVE_SUITS, Card, CardError, check_hand_supply
from .options import Rules, option
from .three_thirteen import ROUNDS, check_round_number, is_wild, least_penalty

RANKS = tuple(range(3, 14))  # 3 to King: no aces, no twos
JOKERS_PER_DECK = 3
WILD_RANK_PENALTY = 20
JOKER_PENALTY = 50


@dataclass(frozen=True, slots=True)
class FiveCrownsRules(Rules):
    """The options a table chooses for a game of Five Crowns (RULES.md defaults)."""

    game_name = "Five Crowns"

    decks: int = field(
        default=2,
        metadata=option(
            "Decks",
            low=1,
            high=12,
            help=f"Each deck of 58 cards has {JOKERS_PER_DECK} jokers; two for up to seven "
            "players.",
        ),
    )

    @property
    def jokers(self) -> int:
        """Printed jokers in play: three in every deck."""
        return JOKERS_PER_DECK * self.decks


def card_value(card: Card, wild: int) -> int:
    """A card left out costs its face value, J 11, Q 12, K 13; a card of the round's wild rank
    costs 20 and a joker 50."""
    if card.is_joker:
        return JOKER_PENALTY
    if card.rank == wild:
        return WILD_RANK_PENALTY
    return card.rank


def check_cards(cards: list[Card], rules: FiveCrownsRules) -> None:
    """Only the cards of a Five Crowns deck (five suits, 3 to K, jokers), within the supply."""
    for card in cards:
        if not card.is_joker and (card.rank not in RANKS or card.suit not in FIVE_SUITS):
            raise CardError(
                f"{card} ({card.name}) is not a Five Crowns card: its ranks run from 3 to King"
            )
    check_hand_supply(cards, rules.decks, rules.jokers)


def arrange(cards: list[Card], round_number: int, rules: FiveCrownsRules) -> Arrangement:
    """The arrangement into books and runs that leaves the least penalty (RULES.md)."""
    expected = check_round_number(round_number) + 2
    if len(cards) != expected:
        raise CardError(
            f"a hand in round {round_number} holds {expected} cards; this one has {len(cards)}"
        )
    check_cards(cards, rules)
    wild = round_number + 2
    return least_penalty(
        cards,
        wild,
        lambda card: card_value(card, wild),
        high_aces=False,
        all_wild_melds=True,
        lowest=RANKS[0],
    )


__all__ = ["ROUNDS", "FiveCrownsRules", "arrange", "card_value", "check_cards", "is_wild"]
