"""A phone without an account at one game: it enters hands there and sees nothing else."""

from datetime import date, timedelta
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Entry, Game, GameNight, GuestPass, HandChange
from tests.helpers import hand_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(member, make_game):
    return make_game(member)


@pytest.fixture
def guest_pass(game, member):
    return GuestPass.objects.create(game=game, created_by=member)


@pytest.fixture
def guest(guest_pass):
    phone = Client()
    response = phone.post(guest_pass.get_absolute_url(), {"device": "Bob's phone"})
    assert response.status_code == 302
    return phone


def test_join_this_game_shows_a_qr_code_for_a_guest_link(signed_in, game):
    assert "Join this game" in signed_in.get(f"/games/{game.pk}/").content.decode()
    response = signed_in.post(f"/games/{game.pk}/guests/")
    guest_pass = GuestPass.objects.get(game=game)
    assert response["Location"] == f"/games/{game.pk}/guests/{guest_pass.pk}/"
    page = signed_in.get(response["Location"]).content.decode()
    assert 'class="qr"' in page and "<svg" in page and "style=" not in page
    assert f"http://testserver/games/{game.pk}/guest/{guest_pass.token}/" in page


def test_the_guest_link_asks_the_phone_for_a_name(client, guest_pass):
    page = client.get(guest_pass.get_absolute_url()).content.decode()
    assert "Name this phone" in page
    response = client.post(guest_pass.get_absolute_url(), {"device": "   "})
    assert response.status_code == 422
    assert "Type a name for this phone" in response.content.decode()
    assert client.get(f"/games/{guest_pass.game_id}/").status_code == 302  # still not in


def test_a_guest_sees_the_table_and_rounds_and_saves_hands_recorded_as_guest(guest, game):
    assert guest.get(f"/games/{game.pk}/").status_code == 200
    assert guest.get(f"/games/{game.pk}/rounds/1/").status_code == 200
    seat = game.seats.order_by("position").first()
    response = guest.post(
        hand_url(game, 1, seat), {"outcome": "cards", "cards": "5H 6S 9C", "save": "1"}
    )
    assert response.status_code == 302
    hand = game.rounds.get(number=1).hands.get(seat=seat)
    assert hand.updated_by_name == "guest on Bob's phone"
    assert hand.updated_by is None
    assert HandChange.objects.get(seat=hand.seat).changed_by_name == "guest on Bob's phone"
    page = guest.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Saved by guest on Bob&#x27;s phone" in page


def test_a_guest_picks_whose_hand_to_enter(guest, game):
    seat = game.seats.order_by("position").last()
    page = guest.get(f"/games/{game.pk}/rounds/1/?seat={seat.pk}").content.decode()
    assert "I'm entering for" in page
    assert f'<option value="{seat.pk}" selected>' in page
    first_panel = page.index('class="hand-panel"')
    assert page.index(f'class="hand-panel" id="hand-{seat.pk}"') == first_panel
    assert page.count("<details open>") == 1


def test_a_guest_sees_nothing_else_of_the_group(guest, game, member, make_game):
    other = make_game(member, names=("Dee", "Eve"))
    # A game of another night (the guest's pass is for this evening's games only).
    yesterday = GameNight.objects.create(group=game.group, date=date(2026, 11, 1))
    Game.objects.filter(pk=other.pk).update(night=yesterday)
    refused = [
        f"/games/{other.pk}/",
        f"/games/{other.pk}/rounds/1/",
        "/nights/",
        f"/nights/{game.night_id}/",
        f"/players/{game.seats.first().player_id}/",
        "/group/",
        "/group/export.json",
        "/group/members/",
        "/players/",
        "/games/new/",
    ]
    for url in refused:
        response = guest.get(url)
        assert response.status_code in (302, 403, 404), url
        assert response.status_code != 302 or response["Location"].startswith("/login/"), url
    assert guest.post(f"/games/{game.pk}/finish/").status_code == 302
    game.refresh_from_db()
    assert game.finished_at is None


def test_a_guest_link_expires_after_twelve_hours(guest, guest_pass, game, client):
    GuestPass.objects.filter(pk=guest_pass.pk).update(
        created_at=timezone.now() - timedelta(hours=12, minutes=1)
    )
    # The guest's phone is told its pass has ended, not shown a login form.
    response = guest.get(f"/games/{game.pk}/rounds/1/")
    assert response.status_code == 403
    assert "guest pass has ended" in response.content.decode()
    assert 'name="password"' not in response.content.decode()
    seat = game.seats.first()
    guest.post(hand_url(game, 1, seat), {"outcome": "cards", "cards": "5H", "save": "1"})
    assert not game.rounds.get(number=1).hands.exists()
    page = client.get(guest_pass.get_absolute_url())
    assert page.status_code == 410
    assert "expired" in page.content.decode()


def test_a_finished_game_shows_its_guest_the_final_scores(guest, game, member):
    ann, bob, cid = game.seats.order_by("position")
    first = game.rounds.get(number=1)
    first.save_hand(ann, Entry("went_out", "5H 6H 7H"), member)
    first.save_hand(bob, Entry("cards", "KS QD 2C"), member)
    first.save_hand(cid, Entry("points", "", 7), member)
    game.finish()
    response = guest.get(f"/games/{game.pk}/")
    page = response.content.decode()
    assert response.status_code == 200 and "This game is finished" in page
    assert "Final standings" in page and '<span class="pts">22</span>' in page
    assert 'name="password"' not in page


def test_a_guest_stays_in_for_the_rematch_and_the_next_games_of_the_night(
    guest, guest_pass, game, member, make_game, django_capture_on_commit_callbacks
):
    game.finish()
    before = guest.get(f"/games/{game.pk}/live/").content.decode()
    assert before.split('id="game-tonight"')[1].count('class="game-link"') == 1
    rematch = make_game(member, names=("Bob", "Cid", "Ann"))
    assert rematch.night_id == game.night_id
    # The finished game's page, following the table, lists the game started since.
    followed = guest.get(f"/games/{game.pk}/live/").content.decode()
    tonight = followed.split('id="game-tonight"')[1]
    assert "Tonight's games" in tonight and f'href="/games/{rematch.pk}/"' in tonight
    assert tonight.count('class="game-link"') == 2
    assert tonight.count("In play") == 1
    assert '<span class="game-kind">Three Thirteen, game 2</span>' in tonight
    # The rematch finished too: the first game's page, asking as it follows the table (with
    # the ETag of what it shows), is told of it.
    etag = guest.get(f"/games/{game.pk}/live/")["ETag"]
    assert guest.get(f"/games/{game.pk}/live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        rematch.finish()
    told = guest.get(f"/games/{game.pk}/live/", HTTP_IF_NONE_MATCH=etag)
    assert told.status_code == 200
    assert told.content.decode().split('id="game-tonight"')[1].count("In play") == 0
    rematch.reopen()
    page = guest.get(f"/games/{game.pk}/").content.decode()
    assert "Tonight's games" in page and f'href="/games/{rematch.pk}/"' in page
    assert guest.get(f"/games/{rematch.pk}/rounds/1/").status_code == 200
    bob = rematch.seats.order_by("position").first()
    response = guest.post(
        hand_url(rematch, 1, bob), {"outcome": "cards", "cards": "KS QD 2C", "save": "1"}
    )
    assert response.status_code == 302
    assert rematch.rounds.get().hands.get().updated_by_name == "guest on Bob's phone"
    # The link, opened by a new phone once its game is finished, leads to the game in play.
    joined = Client().post(guest_pass.get_absolute_url(), {"device": "Dee's phone"})
    assert joined["Location"] == f"/games/{rematch.pk}/rounds/1/"


def test_an_unknown_guest_token_is_not_found(client, game):
    assert client.get(f"/games/{game.pk}/guest/nope/").status_code == 404


def test_another_group_cannot_make_or_see_guest_links(client, game, guest_pass, make_member):
    client.force_login(make_member("zed"))
    assert client.post(f"/games/{game.pk}/guests/").status_code == 404
    assert client.get(f"/games/{game.pk}/guests/{guest_pass.pk}/").status_code == 404
    assert GuestPass.objects.filter(game=game).count() == 1


def test_a_guest_phone_named_for_a_player_keeps_everyone_once_chosen(guest, game):
    bob = game.seats.get(player__name="Bob")
    picked = f'<option value="{bob.pk}" selected>Bob</option>'
    url = f"/games/{game.pk}/rounds/1/"
    assert picked in guest.get(url).content.decode()  # "Bob's phone" starts on Bob's hand
    guest.get(url, {"seat": ""})  # Everyone
    assert picked not in guest.get(url).content.decode()


def test_the_phone_that_undid_a_save_reads_you_and_the_others_its_name(guest, game, signed_in):
    """On the phone that tapped Undo the note says "You"; every other phone names that phone."""
    seat = game.seats.order_by("position").first()
    guest.post(hand_url(game, 1, seat), {"outcome": "cards", "cards": "5H 6S 9C", "save": "1"})
    change = HandChange.objects.get()
    answer = guest.post(
        f"/games/{game.pk}/rounds/1/undo/", {"change": change.pk}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "↶ You undid the last save of Ann's hand: not entered now." in unescape(answer)
    assert "back in <a href=" in answer
    member_page = unescape(signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode())
    assert "↶ guest on Bob's phone undid the last save of Ann's hand" in member_page
    assert "↶ You" not in member_page
