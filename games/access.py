"""Who is asking: the signed-in member's group, set once per request in one place."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from .models import Group, Membership


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


class TableRequest(HtmxHttpRequest):
    """A request to the app's pages: the user and, for a member, their current group."""

    user: User | AnonymousUser
    group: Group | None
    membership: Membership | None
    memberships: list[Membership]


GROUP_KEY = "group_id"


class CurrentGroupMiddleware:
    """Sets `request.group`, the group whose data this request may see (None for nobody).

    The chosen group is kept in the session and checked against the login's memberships on
    every request, so a removed member loses it at once; otherwise their first group."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.group, request.membership, request.memberships = None, None, []
        if request.user.is_authenticated:
            request.memberships = list(
                Membership.objects.select_related("group").filter(user=request.user)
            )
            chosen = request.session.get(GROUP_KEY)
            current = next((m for m in request.memberships if m.group_id == chosen), None)
            request.membership = current or next(iter(request.memberships), None)
            request.group = request.membership.group if request.membership else None
        return self.get_response(request)


def switch_group(request: TableRequest, group: Group) -> None:
    """Make `group` this session's current group (the caller has checked the membership)."""
    request.session[GROUP_KEY] = group.pk
    request.group = group


def member_required(view):
    """Signed in, and a member of a group: a login with no group sees nothing."""

    @login_required
    @wraps(view)
    def checked(request: TableRequest, *args, **kwargs):
        if request.group is None:
            raise Http404("You are not a member of a group")
        return view(request, *args, **kwargs)

    return checked


def owner_required(view):
    """A member who is an owner of the current group; other members are refused (403)."""

    @member_required
    @wraps(view)
    def checked(request: TableRequest, *args, **kwargs):
        if not request.membership.is_owner:
            raise PermissionDenied("Only the group's owners can do this")
        return view(request, *args, **kwargs)

    return checked
