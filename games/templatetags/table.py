"""Who a phone may see as the saver of a hand, and whether it may undo a save: `games.access`
decides both. And when a hand was saved, as the round page prints it."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import access

from .cards import card_faces, reasons_list

register = template.Library()


@register.filter
def saver(record, request) -> str:
    """Who saved a hand or made a change, as this phone may see it (`access.shown_saver`)."""
    return access.shown_saver(request, record)


@register.filter
def undoable_by(last_save, request) -> bool:
    """This phone may undo the round's last save (`access.may_undo`)."""
    return access.may_undo(request, last_save)


@register.filter(expects_localtime=True)
def clock(value) -> str:
    """A time of day as `time:"H:i"` prints it ("09:05", in the current time zone; "" for
    none), without the cost of Django's format machinery (~150 calls each time, on every round
    page, summary and change drawn)."""
    if not value:
        return ""
    return f"{value.hour:02d}:{value.minute:02d}"


@register.tag
def kept(parser, token):
    """`{% kept key %}...{% endkept %}`: what it encloses, also kept under `key` in the
    context's `kept` dict where the context has one: a save's drawing keeps each hand's line
    and cards as drawn, and the saving phone's answer is made from them (games.live.changes)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(f"{bits[0]} takes one key")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(nodelist, parser.compile_filter(bits[1]))


class KeptNode(template.Node):
    def __init__(self, nodelist, key):
        self.nodelist, self.key = nodelist, key

    def render(self, context):
        output = self.nodelist.render(context)
        kept = context.get("kept")
        if kept is not None:
            kept[self.key.resolve(context)] = output
        return output


# A hand's line and cards: on the round page once for each hand, and in every change drawn for
# the phones that follow (a save's, an undo's), so made here rather than by the template engine
# (about a thousand interpreter calls a hand each time, an eighth of a save's; issue 45).


@register.simple_tag(takes_context=True)
def hand_line(context, panel, oob=False):
    """A hand's line in its panel's summary: how it ended, its points and who saved it, or that
    it is not entered yet (`oob`: swapped in out of band where a save's answer sends it)."""
    hand = panel.hand
    if hand:
        said = format_html(
            '<span class="saved">{} · <strong>{}</strong> point{}</span> '
            '<span class="saved-by">Saved by {}</span>',
            panel.label,
            hand.points,
            _plural(hand.points),
            access.shown_saver(context["request"], hand),
        )
    else:
        said = mark_safe('<span class="unsaved">not entered</span>')
    return format_html(
        '<span class="hand-line" id="hand-line-{}"{} data-live data-live-key="{}">{}</span>',
        panel.seat.pk,
        _OOB if oob else "",
        panel.live_key,
        said,
    )


@register.simple_tag
def hand_shown(panel, oob=False):
    """A saved hand's melds, leftover and why it counts what it counts, under its panel while
    the panel is closed (empty while it is open or nothing is saved)."""
    parts = [
        format_html(
            '<div class="shown-hand" id="hand-shown-{}"{} data-live data-live-key="{}">',
            panel.seat.pk,
            _OOB if oob else "",
            panel.live_key,
        )
    ]
    hand = panel.hand
    if hand and not panel.open:
        wild_rank = panel.wild_rank
        if hand.cards:
            if hand.melds:
                melds = "".join(
                    f'<div class="meld">{card_faces(meld, True, wild_rank)}</div>'
                    for meld in hand.melds
                )
                parts.append(f'<div class="melds">{melds}</div>')
            left = hand.leftover
            if left:
                parts.append(
                    '<div class="unmelded"><span class="label">Left over</span> '
                    f"{card_faces(left, True, wild_rank)}</div>"
                )
        parts.append(reasons_list(panel.reasons, wild_rank))
    parts.append("</div>")
    return mark_safe("".join(parts))  # noqa: S308 - each part is escaped or built by format_html


_OOB = mark_safe(' hx-swap-oob="true"')


def _plural(value) -> str:
    """As the `pluralize` filter adds its "s": for any number but one (and for nothing else)."""
    try:
        return "" if float(value) == 1 else "s"
    except (TypeError, ValueError):
        return ""
