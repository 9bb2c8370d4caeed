"""The doors a finished game, a removal and a guest link leave: closed. A guest link ends for
good with its game, a removed member needs a new invitation, and a guest undoes only its own
saves and never sees a member's login."""

import re

import pytest
from django.test import Client

from games.engine import POINTS
from games.models import Entry, HandChange, Invitation, Membership
from tests.helpers import save, seats

pytestmark = pytest.mark.django_db


def guest_phone(game, device="Bob's phone"):
    client = Client()
    guest_pass = game.guest_passes.create()
    client.post(guest_pass.get_absolute_url(), {"device": device})
    return client, guest_pass


def test_a_guest_link_lasts_the_evening_through_finishing_and_reopening(
    member, make_game, signed_in
):
    game = make_game(member)
    guest, guest_pass = guest_phone(game)
    assert guest.get(f"/games/{game.pk}/").status_code == 200
    signed_in.post(f"/games/{game.pk}/finish/")
    assert "This game is finished" in guest.get(f"/games/{game.pk}/").content.decode()
    signed_in.post(f"/games/{game.pk}/reopen/")
    game.refresh_from_db()
    assert game.finished_at is None
    # The phone let in before is still in, and the link still lets a phone in.
    assert guest.get(f"/games/{game.pk}/rounds/1/").status_code == 200
    fresh, _ = guest_phone(game, "Cid's phone")
    assert fresh.get(f"/games/{game.pk}/").status_code == 200


def test_a_removed_member_comes_back_only_through_a_new_invitation(
    member, signed_in, django_user_model
):
    group = member.memberships.get().group
    bob = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    old_link = Invitation.objects.create(group=group, created_by=member)  # no limit of uses
    bob_phone = Client()
    bob_phone.force_login(bob)
    assert bob_phone.post(old_link.get_absolute_url()).status_code == 302
    membership = Membership.objects.get(user=bob, group=group)
    page = signed_in.get("/group/members/").content.decode()
    assert "can come back only through a new invitation" in page
    removed = signed_in.post(f"/group/members/{membership.pk}/remove/", follow=True)
    assert "only a new invitation can" in removed.content.decode()
    refused = bob_phone.post(old_link.get_absolute_url())
    assert refused.status_code == 410
    assert "ask an owner for a new invitation" in refused.content.decode()
    assert not Membership.objects.filter(user=bob, group=group).exists()
    new_link = Invitation.objects.create(group=group, created_by=member)
    assert bob_phone.post(new_link.get_absolute_url()).status_code == 302
    assert Membership.objects.filter(user=bob, group=group).exists()


def test_a_removed_member_is_not_let_in_by_an_older_guest_link(
    member, make_game, signed_in, django_user_model
):
    game = make_game(member)
    bob = django_user_model.objects.create_user(username="bob", password="Bob-pass-4242")
    membership = Membership.objects.create(user=bob, group=game.group)
    guest_pass = game.guest_passes.create()
    signed_in.post(f"/group/members/{membership.pk}/remove/")
    bob_phone = Client()
    bob_phone.force_login(bob)
    response = bob_phone.post(guest_pass.get_absolute_url(), {"device": "Bob's phone"})
    assert response.status_code == 403
    assert bob_phone.get(f"/games/{game.pk}/").status_code == 404


def test_a_guest_undoes_only_the_saves_made_through_its_own_link(member, make_game, signed_in):
    game = make_game(member)
    ann, bob, cid = seats(game)
    guest, _ = guest_phone(game)
    other, _ = guest_phone(game, "Cid's phone")
    save(signed_in, game, 1, ann, outcome=POINTS, points=4)  # a member's save
    page = guest.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Undo last save" not in page
    last = HandChange.objects.get()
    refused = guest.post(f"/games/{game.pk}/rounds/1/undo/", {"change": last.pk}, follow=True)
    assert "saved from another phone: only it can undo that" in refused.content.decode()
    assert not HandChange.objects.filter(undo=True).exists()
    save(other, game, 1, cid, outcome=POINTS, points=6)  # another guest link's save
    assert "Undo last save" not in guest.get(f"/games/{game.pk}/rounds/1/").content.decode()
    mine = save(guest, game, 1, bob, outcome=POINTS, points=9)  # this phone's own
    assert mine.status_code == 302, mine.content.decode()[-800:]
    page = guest.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Undo last save: Bob's hand" in page
    change = HandChange.objects.latest("pk")
    guest.post(f"/games/{game.pk}/rounds/1/undo/", {"change": change.pk})
    assert HandChange.objects.filter(undo=True).count() == 1
    # A member may still undo any save.
    assert (
        "Undo last save: Cid's hand"
        in signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    )


def test_a_guest_sees_a_member_not_their_login(member, make_game, signed_in):
    game = make_game(member)
    ann, bob, _ = seats(game)
    game.rounds.get().save_hand(ann, Entry(POINTS, "", 4), member)
    guest, _ = guest_phone(game)
    save(guest, game, 1, bob, outcome=POINTS, points=9)
    page = guest.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert re.search(r"\bann\b", page) is None  # the member's login, never (Ann is the player)
    assert "Saved by a member" in page and "a member saved <strong>Ann</strong>" in page
    assert "Saved by guest on Bob&#x27;s phone" in page
    # Members see the login.
    members_page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Saved by ann" in members_page
    # The conflict view too: Ann's hand changed by a member while the guest entered it.
    conflict = save(guest, game, 1, ann, "5H 6H 7H")
    assert conflict.status_code == 409
    assert "Saved from another phone</strong> by a member" in conflict.content.decode()
