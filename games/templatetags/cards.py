from django import template
from django.utils.html import format_html

from games.engine.cards import CardError, parse_card

register = template.Library()


@register.simple_tag
def card_face(card, small=False):
    """A card as a little face: rank and suit symbol, red or black, with its name for
    screen readers. Accepts a Card or its notation ("7H")."""
    if isinstance(card, str):
        try:
            card = parse_card(card)
        except CardError:
            return format_html('<span class="face">{}</span>', card)
    colour = "joker" if card.is_joker else ("red" if card.is_red else "black")
    size = " small" if small else ""
    if card.is_joker:
        return format_html(
            '<span class="face {}{}" role="img" aria-label="Joker">'
            '<span aria-hidden="true">★</span></span>',
            colour,
            size,
        )
    return format_html(
        '<span class="face {}{}" role="img" aria-label="{}">'
        '<span aria-hidden="true">{}<span class="suit">{}</span></span></span>',
        colour,
        size,
        card.name,
        card.label,
        card.symbol,
    )
