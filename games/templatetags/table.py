"""Who a phone may see as the saver of a hand, and whether it may undo a save: `games.access`
decides both. And when a hand was saved, as the round page prints it."""

from django import template

from games import access

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
