from django import template
from django.utils.html import format_html

from games.engine.cards import CardError, parse_card

register = template.Library()


@register.simple_tag
def card_face(card, small=False, wild_rank=None):
    """A card as a little face: rank and suit symbol in its suit's ink, with its name for
    screen readers, marked when it is wild (a joker, or the wild rank). Accepts a Card or its
    notation ("7H")."""
    if isinstance(card, str):
        try:
            card = parse_card(card)
        except CardError:
            return format_html('<span class="face">{}</span>', card)
    wild = card.is_joker or (wild_rank is not None and card.rank == wild_rank)
    classes = " ".join(
        part
        for part in ("face", card.colour, "small" if small else "", "wild" if wild else "")
        if part
    )
    if card.is_joker:
        return format_html(
            '<span class="{}" role="img" aria-label="Joker (wild)">'
            '<span aria-hidden="true">★</span></span>',
            classes,
        )
    return format_html(
        '<span class="{}" role="img" aria-label="{}{}">'
        '<span aria-hidden="true">{}<span class="suit">{}</span></span></span>',
        classes,
        card.name,
        " (wild)" if wild else "",
        card.label,
        card.symbol,
    )
