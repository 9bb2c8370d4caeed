"""Every URL of the site, by a table: an outsider, a member of another group, a removed member
and a game's guest are refused all they may not see or change (GET, POST and htmx), never
shown the group's data, and change nothing."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, GuestPass, Hand, Invitation, Membership, NightLink
from tests.helpers import site_urls, url_names

pytestmark = pytest.mark.django_db

# Who may reach each named URL. A new URL fails test_every_url_is_in_the_access_table until
# it is placed here, so no view can be forgotten.
PUBLIC = {"home", "signup", "login", "logout", "manifest", "service_worker", "offline"}
BY_LINK = {
    "invitation",
    "guest_join",
    "guest_picture",
    "shared_night",
    "shared_picture",
}  # holding the secret token is the permission
GUEST_OK = {
    "game",
    "round",
    "hand_entry",
    "hand_photo",
    "table_photo",
    "table_move",
    "game_live",
    "round_live",
    "game_stream",
    "undo_save",
}
ACCOUNT = {"password_change", "password_change_done"}  # any signed-in login, its own account
MEMBERS_ONLY = {
    "players",
    "new_game",
    "finish_game",
    "reopen_game",
    "nights",
    "night",
    "export_night",
    "player",
    "leaderboard",
    "export_group",
    "import",
    "members",
    "switch_group",
    "rename_group",
    "leave_group",
    "make_owner",
    "remove_member",
    "new_invitation",
    "share_invitation",
    "revoke_invitation",
    "new_guest_pass",
    "guest_pass",
    "night_live",
    "night_stream",
    "group_time_zone",
    "night_share",
    "night_picture",
    "night_link",
    "records",
    "year_latest",
    "year",
}
# Pages of "the current group" with no id in their URL: a member of another group reaches them
# and sees (or changes) their own group there, never this one.
OWN_GROUP = {
    "players",
    "new_game",
    "nights",
    "leaderboard",
    "export_group",
    "import",
    "members",
    "switch_group",
    "rename_group",
    "leave_group",
    "new_invitation",
    "group_time_zone",
    "records",
    "year_latest",
    "year",
}
SECRETS = ("Secret Sam", "Hidden Hal", "Ann&#x27;s crew")
ATTEMPT = {
    "outcome": "cards",
    "cards": "KS QD 2C",
    "save": "1",
    "name": "Taken over",
    "days": "7",
    "device": "Mallory",
    "players": "X, Y",
    "kind": "three-thirteen",
}


def test_every_url_is_in_the_access_table():
    tables = [PUBLIC, BY_LINK, GUEST_OK, ACCOUNT, MEMBERS_ONLY]
    assert set().union(*tables) == url_names()
    assert sum(len(t) for t in tables) == len(url_names())


@pytest.fixture
def ann_game(member, make_game):
    group = member.memberships.get().group
    group.name = "Ann's crew"
    group.save()
    game = make_game(member, names=("Secret Sam", "Hidden Hal"))
    Invitation.objects.create(group=group, created_by=member)
    GuestPass.objects.create(game=game, created_by=member)
    return game


def state(game):
    group = game.group
    group.refresh_from_db()
    return (
        Hand.objects.filter(round__game__group=group).count(),
        group.games.count(),
        group.memberships.count(),
        list(group.memberships.values_list("role", flat=True)),
        game.group.name,
        list(group.invitations.values_list("revoked_at", "uses")),
        GuestPass.objects.filter(game__group=group).count(),
        Game.objects.get(pk=game.pk).finished_at,
        game.group.players.count(),
        list(NightLink.objects.filter(night__group=group).values_list("token", flat=True)),
    )


def outsider(game, **_):
    return Client()


def other_group_member(game, make_member, **_):
    client = Client()
    client.force_login(make_member("zed"))
    return client


def removed_member(game, django_user_model, **_):
    bob = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    membership = Membership.objects.create(user=bob, group=game.group)
    client = Client()
    client.force_login(bob)
    client.post("/group/switch/", {"group": game.group_id})  # the session still names the group
    client.get("/")  # shows (and so clears) the message from when bob was a member
    membership.delete()
    return client


def guest_of_another_game(game, member, make_game, **_):
    other = make_game(member, names=("Dee", "Eve"))
    guest_pass = GuestPass.objects.create(game=other)
    client = Client()
    client.post(guest_pass.get_absolute_url(), {"device": "Mallory's phone"})
    return client


def guest_whose_pass_expired(game, **_):
    """A guest let in 12 hours ago: its pass has ended, for every game of the night."""
    client = guest_of_this_game(game)
    game.guest_passes.update(created_at=timezone.now() - timedelta(hours=12, minutes=1))
    return client


def guest_of_this_game(game, **_):
    client = Client()
    client.post(game.guest_passes.first().get_absolute_url(), {"device": "Bob's phone"})
    return client


def refused(response, signed_out: bool) -> bool:
    # 405: a method the page never takes is refused before anything is looked up.
    if response.status_code in (403, 404, 405):
        return True
    login = response.status_code == 302 and response["Location"].startswith("/login/")
    return signed_out and login


@pytest.mark.parametrize(
    "visitor, signed_out, own_group",
    [
        (outsider, True, False),
        (other_group_member, False, True),
        (removed_member, False, False),
        (guest_of_another_game, True, False),
        (guest_whose_pass_expired, True, False),
    ],
)
def test_visitors_are_refused_every_page_of_the_group(
    visitor, signed_out, own_group, ann_game, member, make_member, make_game, django_user_model
):
    client = visitor(
        ann_game,
        member=member,
        make_member=make_member,
        make_game=make_game,
        django_user_model=django_user_model,
    )
    urls = site_urls(ann_game)  # (the night's link made, as a member would)
    before = state(ann_game)
    for name in sorted(MEMBERS_ONLY | GUEST_OK | ACCOUNT):
        for method in ("get", "post"):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                data = ATTEMPT | {"group": ann_game.group_id} if method == "post" else None
                response = getattr(client, method)(urls[name], data, **headers)
                if (own_group and name in OWN_GROUP) or (not signed_out and name in ACCOUNT):
                    assert response.status_code < 500, (name, method)
                else:
                    assert refused(response, signed_out), (
                        name,
                        method,
                        headers,
                        response.status_code,
                    )
                body = response.content.decode()
                assert not any(secret in body for secret in SECRETS), (name, method)
    assert state(ann_game) == before


def test_a_guest_is_let_into_its_game_only(ann_game, member, make_game):
    client = guest_of_this_game(ann_game)
    urls = site_urls(ann_game)
    for name in sorted(MEMBERS_ONLY | ACCOUNT):
        for method in ("get", "post"):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = getattr(client, method)(urls[name], ATTEMPT, **headers)
                assert refused(response, True), (name, method, headers, response.status_code)
    for name in ("game", "round"):
        assert client.get(urls[name]).status_code == 200
        assert client.get(urls[name], HTTP_HX_REQUEST="true").status_code == 200
    assert "Secret Sam" in client.get(urls["game"]).content.decode()
    response = client.post(urls["hand_entry"], ATTEMPT, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Hand.objects.get().updated_by_name == "guest on Bob's phone"


def test_links_with_a_wrong_token_show_nothing(client, ann_game):
    for url in (
        "/invite/wrong-token/",
        f"/games/{ann_game.pk}/guest/wrong-token/",
        "/shared/wrong-token/",
        "/shared/wrong-token/picture.png",
    ):
        for method in ("get", "post"):
            response = getattr(client, method)(url, ATTEMPT)
            # (A shared night's page only answers GET: a POST is refused before the look-up.)
            assert response.status_code == 404 or (method, response.status_code) == ("post", 405)
            assert not any(secret in response.content.decode() for secret in SECRETS)
    assert ann_game.group.memberships.count() == 1
