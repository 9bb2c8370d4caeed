"""Who a live stream may go on telling: decided when it opens by the views' own decorators, and
again, for every stream of a game or night at once, each time there is something to tell. A
removed member, a login whose password changed and a finished game's guest drop out at the
first change after theirs, and are told nothing more."""

from dataclasses import dataclass

from django.contrib.auth import HASH_SESSION_KEY
from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from ..models import GUEST_LIFE, Game, GameNight, GuestPass
from . import TableRequest


@dataclass(frozen=True)
class StreamGrant:
    """Who a stream was opened for: a member's login as its session held it, or a guest link."""

    user_id: int | None
    session_hash: str
    guest_pass_id: int | None


def stream_grant(request: TableRequest) -> StreamGrant:
    """The grant of a request the decorators let in."""
    if request.as_guest:
        return StreamGrant(None, "", request.guest.pass_id)
    return StreamGrant(request.user.pk, str(request.session.get(HASH_SESSION_KEY, "")), None)


def still_allowed(page: str, pk: int, grants) -> set[StreamGrant]:
    """The grants that may still follow the game or game night (`page`) `pk`: members of its
    group whose login is active with the password their session began with, and, for a game
    not finished, guests whose link has not ended or expired."""
    grants = set(grants)
    rows = Game.objects if page == "game" else GameNight.objects
    fields = ["group_id", "finished_at"] if page == "game" else ["group_id"]
    row = rows.filter(pk=pk).values(*fields).first()
    if row is None:
        return set()
    users = {grant.user_id for grant in grants if grant.user_id is not None}
    passwords = dict(
        User.objects.filter(
            pk__in=users, is_active=True, memberships__group_id=row["group_id"]
        ).values_list("pk", "password")
    )
    passes = set()
    links = {grant.guest_pass_id for grant in grants if grant.guest_pass_id is not None}
    if links and page == "game" and row["finished_at"] is None:
        passes = set(
            GuestPass.objects.filter(
                pk__in=links,
                game_id=pk,
                ended_at=None,
                created_at__gt=timezone.now() - GUEST_LIFE,
            ).values_list("pk", flat=True)
        )
    hashes = {
        user_id: User(pk=user_id, password=password).get_session_auth_hash()
        for user_id, password in passwords.items()
    }
    return {
        grant
        for grant in grants
        if (
            grant.user_id in hashes
            and constant_time_compare(grant.session_hash, hashes[grant.user_id])
        )
        or grant.guest_pass_id in passes
    }
