"""A group's members: several groups per login, switching, renaming, owners, removing, leaving."""

import pytest

from games.models import Group, Membership
from tests.factories import join

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(django_user_model, member):
    """A second login, a plain member of Ann's group."""
    user = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    join(member.memberships.first().group, user)
    return user


def group_of(user) -> Group:
    return user.memberships.first().group


def test_signing_up_makes_the_new_login_its_groups_owner(client):
    client.post(
        "/signup/",
        {"username": "meera", "password1": "Rummy-night-77", "password2": "Rummy-night-77"},
    )
    assert Membership.objects.get(user__username="meera").role == Membership.OWNER


def test_members_page_lists_members_and_roles(signed_in, bob):
    page = signed_in.get("/group/members/").content.decode()
    assert "ann" in page and "bob" in page
    assert "Owner" in page and "Member" in page


def test_the_current_group_is_in_the_header(signed_in, member):
    page = signed_in.get("/players/").content.decode()
    assert "ann&#x27;s table" in page


def test_a_member_of_two_groups_switches_and_sees_only_the_current_ones_data(
    client, member, bob, make_member, make_game
):
    own = Group.found(bob, "Bob's own table")
    make_game(member, names=("Secret Sam", "Hidden Hal"))
    client.force_login(bob)
    page = client.get("/players/").content.decode()
    assert 'name="group"' in page  # the switcher shows for a member of several groups
    client.post("/group/switch/", {"group": own.pk})
    assert b"Secret Sam" not in client.get("/players/").content
    client.post("/group/switch/", {"group": group_of(member).pk})
    assert b"Secret Sam" in client.get("/players/").content


def test_switching_to_a_group_one_is_not_in_does_nothing(
    client, member, bob, make_member, make_game
):
    stranger = make_member("zed")
    make_game(stranger, names=("Zed's Zoe", "Zed's Zak"))
    client.force_login(bob)
    client.post("/group/switch/", {"group": group_of(stranger).pk})
    assert b"Zed&#x27;s Zoe" not in client.get("/players/").content
    assert b"Zed's Zoe" not in client.get("/players/").content


def test_owner_renames_the_group(signed_in, member):
    response = signed_in.post("/group/rename/", {"name": "  Friday   crew "})
    assert response.status_code == 302
    assert group_of(member).name == "Friday crew"


def test_a_blank_name_is_refused_with_a_message(signed_in, member):
    response = signed_in.post("/group/rename/", {"name": "   "})
    assert response.status_code == 422
    assert "Give the group a name" in response.content.decode()
    assert group_of(member).name == "ann's table"


def test_owner_makes_another_member_an_owner(signed_in, bob):
    membership = bob.memberships.get()
    signed_in.post(f"/group/members/{membership.pk}/owner/")
    membership.refresh_from_db()
    assert membership.role == Membership.OWNER


def test_owner_removes_a_member_who_then_sees_nothing(client, signed_in, member, bob, make_game):
    game = make_game(member)
    membership = bob.memberships.get()
    signed_in.post(f"/group/members/{membership.pk}/remove/")
    assert not Membership.objects.filter(pk=membership.pk).exists()
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/").status_code == 404


def test_a_plain_member_may_not_rename_promote_or_remove(client, member, bob):
    client.force_login(bob)
    owner = member.memberships.get()
    assert client.post("/group/rename/", {"name": "Mine now"}).status_code == 403
    assert client.post(f"/group/members/{bob.memberships.get().pk}/owner/").status_code == 403
    assert client.post(f"/group/members/{owner.pk}/remove/").status_code == 403
    assert group_of(member).name == "ann's table"
    assert bob.memberships.get().role == Membership.MEMBER
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_an_owner_cannot_touch_another_groups_members(signed_in, make_member):
    stranger = make_member("zed").memberships.get()
    assert signed_in.post(f"/group/members/{stranger.pk}/remove/").status_code == 404
    assert signed_in.post(f"/group/members/{stranger.pk}/owner/").status_code == 404
    assert Membership.objects.filter(pk=stranger.pk).exists()


def test_the_last_owner_cannot_leave_or_be_removed(signed_in, member, bob):
    own = member.memberships.get()
    signed_in.post("/group/leave/")
    assert Membership.objects.filter(pk=own.pk).exists()
    signed_in.post(f"/group/members/{own.pk}/remove/")
    assert Membership.objects.filter(pk=own.pk).exists()
    assert "last owner" in signed_in.get("/group/members/").content.decode()


def test_a_member_may_leave(client, member, bob):
    client.force_login(bob)
    client.post("/group/leave/")
    assert not bob.memberships.exists()
    assert client.get("/players/").status_code == 404


def test_an_owner_leaves_once_another_is_owner(signed_in, member, bob):
    bob.memberships.update(role=Membership.OWNER)
    signed_in.post("/group/leave/")
    assert not member.memberships.exists()
