"""Five Crowns: Three Thirteen's five-suited cousin — ranks 3 to K, stars, six jokers."""

from dataclasses import dataclass, field

from .answers import arrangement_fields, hand_in, round_in
from .arrangement import Arrangement
from .cards import FIVE_SUITS, Card, check_deck
from .options import Rules, option
from .three_thirteen import ROUNDS, check_round_hand, least_penalty, wild_rank

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
            in_view=True,
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


def arrange(cards: list[Card], round_number: int, rules: FiveCrownsRules) -> Arrangement:
    """The arrangement into books and runs that leaves the least penalty (RULES.md): the
    search of Three Thirteen with Five Crowns' deck and prices."""
    check_round_hand(cards, round_number)
    check_deck(cards, FIVE_SUITS, RANKS, rules.decks, rules.jokers, FiveCrownsRules.game_name)
    wild = wild_rank(round_number)
    return least_penalty(
        cards,
        wild,
        lambda card: card_value(card, wild),
        high_aces=False,
        all_wild_melds=True,
        lowest=RANKS[0],
    )


def command_answer(request: dict, rules: FiveCrownsRules) -> dict:
    """A `score_hands` answer: the penalty, one best arrangement and the cards left out."""
    round_number = round_in(request, FiveCrownsRules.game_name, ROUNDS)
    return arrangement_fields(arrange(hand_in(request), round_number, rules))
