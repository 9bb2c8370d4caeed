"""Who a phone may see as the saver of a hand, and whether it may undo a save: `games.access`
decides both."""

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
