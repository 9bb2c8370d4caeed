"""The live polls' one-query look at who is asking (`games.access.quick`) decides as the rules
in `games.access` do, for every role and every live URL: whom it lets in, the ordinary way lets
in too, seeing the same group as the same login, and whom the ordinary way refuses it never
lets in."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user
from django.test import Client, RequestFactory
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from games.access import admit_guest, resolve_table, sees_game
from games.access.quick import quick_look
from games.models import GuestPass, Membership
from tests.factories import join

pytestmark = pytest.mark.django_db


def request_for(client: Client):
    """A request carrying the client's session, as the middleware receives it."""
    request = RequestFactory().get("/")
    request.session = client.session
    request.user = SimpleLazyObject(lambda: get_user(request))
    request.group, request.membership, request.memberships = None, None, []
    request.guest, request.time_zone = None, ""
    request.as_guest = False  # as the middleware starts every request
    return request


def ordinary_way(client: Client, page: str, row) -> tuple | None:
    """Who the middleware and the decorators let see the row: (login, group), or None."""
    request = request_for(client)
    resolve_table(request)
    guest = False
    if page == "game":
        guest = admit_guest(request, row.pk)
        if (request.group is None and not guest) or not sees_game(request, row):
            return None
    elif request.group is None or row.group_id != request.group.pk:
        return None
    group = None if guest else request.group.pk
    return (request.user.pk if request.user.is_authenticated else None, group)


def quick_way(client: Client, page: str, row) -> tuple | None:
    found = quick_look(request_for(client), page, row.pk)
    return None if found is None else (found[0].user_id, found[0].group_id)


# ---------------------------------------------------------------- the roles


def signed_in(user, chosen=None) -> Client:
    client = Client()
    client.force_login(user)
    if chosen is not None:
        client.post("/group/switch/", {"group": chosen.pk})
    return client


def guest(guest_pass) -> Client:
    client = Client()
    client.post(guest_pass.get_absolute_url(), {"device": "Bob's phone"})
    return client


def roles(game, member, make_member, make_game, django_user_model) -> dict:
    group = game.group
    own_pass = GuestPass.objects.create(game=game)
    other_game = make_game(member, names=("Dee", "Eve"))
    other_pass = GuestPass.objects.create(game=other_game)
    stranger = make_member("zed")
    two_groups = make_member("tia")
    join(group, two_groups)
    removed = make_member("rob")
    join(group, removed)
    removed_client = signed_in(removed, chosen=group)
    Membership.objects.filter(user=removed, group=group).delete()
    changed = make_member("cal")
    join(group, changed)
    changed_client = signed_in(changed, chosen=group)
    changed.set_password("A-new-password-77")
    changed.save()
    idle = make_member("ida")
    join(group, idle)
    idle_client = signed_in(idle, chosen=group)
    idle.is_active = False
    idle.save()
    no_group = django_user_model.objects.create_user(username="nog", password="Nog-pass-4242")
    expired_pass = GuestPass.objects.create(game=game)
    expired_client = guest(expired_pass)
    GuestPass.objects.filter(pk=expired_pass.pk).update(
        created_at=timezone.now() - timedelta(hours=13)
    )
    member_with_link = signed_in(member)
    member_with_link.post(own_pass.get_absolute_url(), {"device": "Ann's phone"})
    return {
        "member": signed_in(member),
        "member, its other group chosen": signed_in(
            two_groups, chosen=two_groups.memberships.get(group__name="tia's table").group
        ),
        "member, this group chosen": signed_in(two_groups, chosen=group),
        "member of another group": signed_in(stranger),
        "removed member": removed_client,
        "password changed since": changed_client,
        "login made inactive": idle_client,
        "login with no group": signed_in(no_group),
        "visitor": Client(),
        "guest of this game": guest(own_pass),
        "guest of another game": guest(other_pass),
        "guest whose link expired": expired_client,
        "member holding a guest link": member_with_link,
    }


def test_the_quick_look_lets_in_exactly_whom_the_rules_let_in(
    member, make_member, make_game, django_user_model
):
    game = make_game(member)
    game.rounds.get(number=1)
    clients = roles(game, member, make_member, make_game, django_user_model)
    let_in = set()
    for page, row in (("game", game), ("night", game.night)):
        for role, client in clients.items():
            rules, quick = ordinary_way(client, page, row), quick_way(client, page, row)
            assert quick == rules, (page, role, quick, rules)
            if quick is not None:
                let_in.add((page, role))
    # The test would catch a difference: the quick look does let members and guests in.
    assert ("game", "member") in let_in and ("game", "guest of this game") in let_in
    assert ("night", "member") in let_in and ("game", "member of another group") not in let_in
    finished = game
    finished.finish()
    for role in ("guest of this game", "member"):
        client = clients[role]
        rules, quick = ordinary_way(client, "game", finished), quick_way(client, "game", finished)
        # Not certain of a finished game's guest, the quick look leaves it to the rules.
        assert quick == rules or (role != "member" and quick is None), (role, quick, rules)
    # A guest stays for the evening: its finished game's final scores are still its to see.
    assert ordinary_way(clients["guest of this game"], "game", finished) == (None, None)


def test_a_sessions_password_check_kept_once_worked_out_still_ends_at_a_new_password_or_key(
    member, settings
):
    """`session_matches` keeps each login's session hash once worked out: it still answers as
    Django's `get_session_auth_hash` does for the password and secret key as they are now, and
    forgets everything rather than grow past its bound."""
    from games import access

    client = Client()
    client.force_login(member)
    session = client.session
    assert access.session_matches(session, member)
    assert access.session_matches(session, member)  # kept: the same answer
    member.set_password("An-other-password-77")
    assert not access.session_matches(session, member)
    member.refresh_from_db()
    assert access.session_matches(session, member)
    settings.SECRET_KEY = "another-key-" + "y" * 40
    assert not access.session_matches(session, member)  # Django's check would refuse it too
    assert member.get_session_auth_hash() == access._auth_hash(member)
    kept = dict(access._AUTH_HASHES)
    try:
        access._AUTH_HASHES.update({(str(i), "k"): "h" for i in range(access.AUTH_HASHES_KEPT)})
        settings.SECRET_KEY = "a-third-key-" + "z" * 40
        access._auth_hash(member)  # one more than kept: all forgotten
        assert len(access._AUTH_HASHES) == 0
        assert access._auth_hash(member) == member.get_session_auth_hash()
    finally:
        access._AUTH_HASHES.clear()
        access._AUTH_HASHES.update(kept)
