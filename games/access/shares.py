"""What a night's picture to share may show, by who asks: a member, the games of their group's
night (the views find the night in `request.group`); a guest link's preview (anyone holding
the link, a chat's preview fetcher included), the games that link lets its guest into, while
the link is good; a night's shared link, the night's games while a member shares it; and
nothing by either link to a login removed from the group since the link was made. The picture
itself holds first names and points, never a link."""

from ..models import GuestPass, NightLink
from . import TableRequest, removed_since


def link_preview_games(request: TableRequest, guest_pass: GuestPass):
    """The games a guest link's preview picture may show, or None when it may show nothing."""
    if guest_pass.problem():
        return None
    if removed_since(request.user, guest_pass.game.group_id, guest_pass.created_at):
        return None
    return guest_pass.night_games()


def shared_night_games(request: TableRequest, link: NightLink):
    """The games a night's shared link shows (every game of the night), or None."""
    if removed_since(request.user, link.night.group_id, link.created_at):
        return None
    return link.night.games.all()
