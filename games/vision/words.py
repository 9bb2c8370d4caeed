"""What the page says about a card the reader is unsure of."""

from games.engine.cards import RANK_NAMES, SUIT_NAMES, parse_card


def check_words(reading) -> str:
    """ "check: 6 of clubs, or 9?" — the card read, then only what differs in the runner-up."""
    card = parse_card(reading.card)
    other = parse_card(reading.alternative)
    if card.is_joker or other.is_joker or (card.rank != other.rank and card.suit != other.suit):
        return f"check: {card.name}, or {other.name}?"
    if card.rank != other.rank:
        return f"check: {card.name}, or {RANK_NAMES[other.rank - 1]}?"
    return f"check: {card.name}, or {SUIT_NAMES[other.suit]}?"
