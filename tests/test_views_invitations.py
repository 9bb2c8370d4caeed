"""Invitation links: made and revoked by owners, opened by anyone, joining nobody once unusable."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Group, Invitation, Membership
from tests.factories import join

pytestmark = pytest.mark.django_db


@pytest.fixture
def group(member) -> Group:
    return member.memberships.get().group


@pytest.fixture
def invitation(group, member) -> Invitation:
    return Invitation.objects.create(group=group, created_by=member)


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user(username="nia", password="Nia-pass-4242")


def test_an_owner_makes_a_link_shown_as_a_qr_code_and_a_link(signed_in, group):
    response = signed_in.post("/group/invitations/new/", {"days": 7, "max_uses": ""})
    invitation = Invitation.objects.get(group=group)
    assert response["Location"] == f"/group/invitations/{invitation.pk}/"
    assert invitation.max_uses is None
    assert timedelta(days=6, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=7)
    page = signed_in.get(response["Location"]).content.decode()
    assert '<svg viewBox="' in page and 'class="qr"' in page
    assert f"http://testserver/invite/{invitation.token}/" in page
    assert "style=" not in page
    assert "data-copy-button" in page


def test_a_limited_link_counts_its_uses(signed_in, group):
    signed_in.post("/group/invitations/new/", {"days": 1, "max_uses": 2})
    assert Invitation.objects.get(group=group).max_uses == 2


def test_a_plain_member_cannot_make_or_see_links(client, group, invitation, newcomer):
    join(group, newcomer)
    client.force_login(newcomer)
    assert client.post("/group/invitations/new/", {"days": 7}).status_code == 403
    assert client.get(f"/group/invitations/{invitation.pk}/").status_code == 403
    assert client.post(f"/group/invitations/{invitation.pk}/revoke/").status_code == 403
    assert invitation.token not in client.get("/group/members/").content.decode()


def test_the_link_logged_out_names_the_group_and_offers_log_in_or_sign_up(client, invitation):
    response = client.get(f"/invite/{invitation.token}/")
    page = response.content.decode()
    assert "Join ann&#x27;s table" in page
    # A secret link: for whoever holds it, not for search engines.
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in page
    assert f"/signup/?next=/invite/{invitation.token}/" in page
    assert f"/login/?next=/invite/{invitation.token}/" in page


def test_signing_up_from_the_link_comes_back_and_joins(client, invitation, group):
    url = f"/invite/{invitation.token}/"
    response = client.post(
        f"/signup/?next={url}",
        {
            "username": "nia",
            "password1": "Rummy-night-77",
            "password2": "Rummy-night-77",
            "next": url,
        },
    )
    assert response["Location"] == url
    assert "Join ann&#x27;s table" in client.get(url).content.decode()
    client.post(url)
    assert Membership.objects.filter(user__username="nia", group=group).exists()
    assert "ann&#x27;s table" in client.get("/").content.decode()


def test_accepting_joins_switches_and_counts_a_use(
    client, invitation, group, newcomer, member, make_game
):
    make_game(member, names=("Secret Sam", "Hidden Hal"))
    client.force_login(newcomer)
    response = client.post(f"/invite/{invitation.token}/")
    assert response.status_code == 302
    assert Membership.objects.get(user=newcomer, group=group).role == Membership.MEMBER
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert b"Secret Sam" in client.get("/players/").content


def test_a_member_of_another_group_ends_in_both_and_is_switched(
    client, invitation, group, make_member
):
    other = make_member("zed")
    own = other.memberships.get().group
    client.force_login(other)
    client.post(f"/invite/{invitation.token}/")
    assert set(other.memberships.values_list("group", flat=True)) == {own.pk, group.pk}
    page = client.get("/players/").content.decode()
    assert "selected>ann&#x27;s table</option>" in page


def test_someone_already_a_member_is_told_so_and_uses_nothing(
    client, signed_in, invitation, group, member
):
    Group.found(member, "Another table")
    signed_in.post("/group/switch/", {"group": Group.objects.get(name="Another table").pk})
    assert "already a member" in signed_in.get(f"/invite/{invitation.token}/").content.decode()
    signed_in.post(f"/invite/{invitation.token}/")
    invitation.refresh_from_db()
    assert invitation.uses == 0
    assert member.memberships.count() == 2
    page = signed_in.get("/players/").content.decode()
    assert "selected>ann&#x27;s table</option>" in page
    assert "already a member" in page


@pytest.mark.parametrize(
    "spoil, words",
    [
        ({"expires_at": timezone.now() - timedelta(minutes=1)}, "expired"),
        ({"revoked_at": timezone.now()}, "revoked"),
        ({"max_uses": 1, "uses": 1}, "used as many times"),
    ],
)
def test_an_unusable_link_says_why_and_joins_nobody(
    client, invitation, newcomer, group, spoil, words
):
    Invitation.objects.filter(pk=invitation.pk).update(**spoil)
    client.force_login(newcomer)
    page = client.get(f"/invite/{invitation.token}/")
    assert page.status_code == 410
    assert words in page.content.decode()
    response = client.post(f"/invite/{invitation.token}/")
    assert response.status_code == 410
    assert not Membership.objects.filter(user=newcomer, group=group).exists()


def test_the_last_use_of_a_limited_link_is_the_last(
    client, group, member, newcomer, django_user_model
):
    invitation = Invitation.objects.create(group=group, created_by=member, max_uses=1)
    client.force_login(newcomer)
    client.post(f"/invite/{invitation.token}/")
    late = django_user_model.objects.create_user(username="late", password="Late-pass-4242")
    client.force_login(late)
    assert client.post(f"/invite/{invitation.token}/").status_code == 410
    assert not late.memberships.filter(group=group).exists()


def test_an_unknown_token_is_not_found_in_the_apps_style(client):
    response = client.get("/invite/not-a-real-token/")
    assert response.status_code == 404
    assert "not known" in response.content.decode()


def test_an_owner_revokes_a_link(signed_in, invitation, client, newcomer):
    signed_in.post(f"/group/invitations/{invitation.pk}/revoke/")
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert invitation.token not in signed_in.get("/group/members/").content.decode()


def test_posting_while_logged_out_asks_to_log_in_and_joins_nobody(client, invitation):
    response = client.post(f"/invite/{invitation.token}/")
    assert response["Location"].startswith("/login/?next=/invite/")
    assert invitation.group.memberships.count() == 1
