from functools import lru_cache

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.text import capfirst

from games.engine.cards import Card, CardError, cards_in, parse_card

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
    return _card_face(card, bool(small), wild_rank)


@register.simple_tag
def card_faces(cards, small=False, wild_rank=None):
    """`card_face` of each of `cards`, one after the other: one tag for a meld or a hand's
    leftover, where a loop of one tag a card cost a round's change most of its drawing."""
    return mark_safe("".join(card_face(card, small, wild_rank) for card in cards))


@lru_cache(maxsize=4096)
def _card_face(card: Card, small: bool, wild_rank):
    wild = card.is_joker or (wild_rank is not None and card.rank == wild_rank)
    classes = " ".join(
        part
        for part in ("face", card.colour, "small" if small else "", "wild" if wild else "")
        if part
    )
    if card.is_joker:
        return format_html(
            '<span class="{}" role="img" aria-label="Joker (wild)">★</span>', classes
        )
    # An image's name is what is read: its text (rank and suit symbol) is drawn, not spoken.
    return format_html(
        '<span class="{}" role="img" aria-label="{}{}">{}<span class="suit">{}</span></span>',
        classes,
        card.name,
        " (wild)" if wild else "",
        card.label,
        card.symbol,
    )


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def pick_name(card: Card, held: int, limit: int) -> str:
    """What a picker button says it does: add the card, add another copy of it ("Add a second
    9 of diamonds"), or nothing more once every copy in play is chosen. static/js/entry.js
    says the same as cards are tapped."""
    if not held:
        return card.name
    if held >= limit:
        return f"{card.name}: all {limit} chosen" if limit > 1 else f"{card.name}: chosen"
    nth = ORDINALS[held] if held < len(ORDINALS) else f"{held + 1}th"
    article = "an" if nth[0] in "e8" or nth.startswith("11") else "a"
    return f"Add {article} {nth} {card.name}"


@register.simple_tag
def picker_button(item):
    """One card of a hand's picker (a panels.PickerCard): a tap adds it to the chosen cards,
    a long press takes one out. Its face is drawn, its name read (`pick_name`); the badge
    counts the copies chosen."""
    return _picker_button(item.card, item.held, item.full, item.wild, item.limit)


@lru_cache(maxsize=4096)
def _picker_button(card: Card, held: int, full: bool, wild: bool, limit: int):
    # Kept once made: the round page draws a picker for every hand, the same cards each time.
    if card.is_joker:
        face = mark_safe('★<span class="joker-word"> Joker</span>')
    else:
        face = format_html('{}<span class="suit">{}</span>', card.label, card.symbol)
    classes = " ".join(
        part for part in ("pick", card.colour, "held" * bool(held), "wild" * wild) if part
    )
    # No type attribute: a form's button sends it all the same, and htmx takes in every
    # [type=submit] of a page as it starts (a round page has hundreds of cards).
    return format_html(
        '<button name="tap" value="{}" data-limit="{}" data-name="{}"{} class="{}"{}>'
        '<span class="face-text" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span>{}</button>',
        card,
        limit,
        card.name,
        mark_safe(' title="Wild"') if wild else "",
        classes,
        mark_safe(' aria-disabled="true"') if full else "",
        face,
        pick_name(card, held, limit),
        # How many are chosen, only where some are (entry.js adds it to a card as it is tapped).
        format_html('<span class="badge" aria-hidden="true">{}</span>', held) if held else "",
    )


@register.filter
def card_text(message, wild_rank=None):
    """A message for the table with every card in it drawn as its face, not its notation."""
    return _faces_in(str(message), cards_in(str(message)), wild_rank)


@register.filter
def told_cards(line):
    """A line of the look-back (a story, a record, a player's hand) with its marked cards drawn
    as faces: its players' names may look like cards ("JK", "AS") and stay words."""
    return _faces_in(str(line), cards_in(str(line), marked=True), None)


def _faces_in(message: str, pattern, wild_rank):
    parts, end = [], 0
    for found in pattern.finditer(message):
        try:
            card = parse_card(found.group(1))
        except CardError:
            continue
        parts.append(escape(message[end : found.start()]))
        parts.append(card_face(card, True, wild_rank))
        end = found.end()
    parts.append(escape(message[end:]))
    return mark_safe("".join(parts))  # noqa: S308 - each part is escaped or built by format_html


@register.simple_tag
def hand_preview(
    seat_id, scored, kind, wild_rank, *, complete, problem, read, reasons, points, entry_key=""
):
    """A hand's melds and points as entered (`round.html`'s panel), and the whole answer to a
    tap's scoring (`views.rounds._preview`): the one as the other, made here rather than in a
    template because every tap of a card asks for it again (issue 45)."""
    complete_score = scored is not None and scored.complete
    parts = [
        format_html(
            '<div class="preview" id="preview-{}" aria-live="polite" data-cards="{}" '
            'data-entry-key="{}" data-points="{}" data-points-word="{}">',
            seat_id,
            read,
            entry_key,
            points if complete_score and points is not None else "",
            kind.own_points_word,
        )
    ]
    if problem:
        parts.append(f'<p class="field-error">{card_text(capfirst(problem), wild_rank)}</p>')
    if scored is not None:
        parts.append(melds_drawn(scored.melds, scored.unmelded if complete else (), wild_rank))
    if complete_score:
        parts.append(reasons_list(reasons, wild_rank))
    if scored is not None and scored.note:
        parts.append(format_html('<p class="help">{}.</p>', capfirst(scored.note)))
    if complete_score:
        pure = f" · {escape(kind.pure_remark)}" if scored.all_pure else ""
        parts.append(
            format_html(
                '<p class="points-line"><strong>{}</strong> {}', points, kind.own_points_word
            )
            + mark_safe(f"{pure}</p>")  # noqa: S308 - the remark is escaped
        )
    parts.append("</div>")
    return mark_safe("".join(parts))  # noqa: S308 - each part is escaped or built by format_html


def reasons_list(reasons, wild_rank) -> str:
    """Why a hand counts what it counts, as a list under it (nothing where there is no reason),
    its cards drawn as faces."""
    if not reasons:
        return ""
    said = "".join(f"<li>{card_text(reason, wild_rank)}</li>" for reason in reasons)
    return mark_safe(f'<ul class="reasons" aria-label="Why">{said}</ul>')  # noqa: S308 - escaped


def melds_drawn(melds, leftover, wild_rank) -> str:
    """A hand's melds, each a row of small faces, and what is left over (either may be empty):
    under a hand as entered (`hand_preview`) and as saved (`table.hand_shown`)."""
    parts = []
    if melds:
        drawn = "".join(f'<div class="meld">{card_faces(m, True, wild_rank)}</div>' for m in melds)
        parts.append(f'<div class="melds">{drawn}</div>')
    if leftover:
        parts.append(
            '<div class="unmelded"><span class="label">Left over</span> '
            f"{card_faces(leftover, True, wild_rank)}</div>"
        )
    return mark_safe("".join(parts))  # noqa: S308 - faces built by format_html
