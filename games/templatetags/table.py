"""Who a phone may see as the saver of a hand, and whether it may undo a save."""

from django import template

from games.models import HandChange

register = template.Library()


@register.filter
def saver(record, request) -> str:
    """Who saved a hand or made a change, as this phone may see it: a guest sees a member as
    "a member", never their login's name; members see every name."""
    name = record.changed_by_name if isinstance(record, HandChange) else record.updated_by_name
    if getattr(request, "as_guest", False) and record.guest_pass_id is None:
        return "a member"
    return name or "someone"


@register.filter
def undoable_by(last_save, request) -> bool:
    """Members may undo the round's last save; a guest, only one made through its own link."""
    if last_save is None:
        return False
    if getattr(request, "as_guest", False):
        return last_save.guest_pass_id == request.guest.pass_id
    return True
