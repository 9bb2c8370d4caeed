"""Who is asking: the signed-in member's group, set once per request in one place."""

from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404, HttpRequest
from django_htmx.middleware import HtmxDetails

from .models import Group, Membership


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it."""

    htmx: HtmxDetails


class TableRequest(HtmxHttpRequest):
    """A request to the app's pages: the user and, for a member, their group."""

    user: User | AnonymousUser
    group: Group | None


class CurrentGroupMiddleware:
    """Sets `request.group`, the group whose data this request may see (None for nobody)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.group = None
        if request.user.is_authenticated:
            membership = (
                Membership.objects.select_related("group").filter(user=request.user).first()
            )
            request.group = membership.group if membership else None
        return self.get_response(request)


def member_required(view):
    """Signed in, and a member of a group: a login with no group sees nothing."""

    @login_required
    @wraps(view)
    def checked(request: TableRequest, *args, **kwargs):
        if request.group is None:
            raise Http404("You are not a member of a group")
        return view(request, *args, **kwargs)

    return checked


def client_ip(request: HttpRequest) -> str:
    """The phone's address, for slowing password guessing: behind the TLS proxy, the address
    the proxy appended last to X-Forwarded-For (earlier ones are the client's word, not proof)."""
    if settings.BEHIND_HTTPS_PROXY:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR", "")
