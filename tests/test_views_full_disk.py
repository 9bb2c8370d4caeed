"""A full disk under SQLite: a save that cannot be written answers 503 saying so, nothing saved
before is lost, and the same save goes through once there is room again. The database lives on
a 4 MiB tmpfs made for the test, filled until it refuses a byte more."""

import sqlite3
from contextlib import closing

import pytest

from games.models import Hand, HandChange
from games.views.errors import DISK_FULL
from tests.helpers import hand_url, seats

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_save_on_a_full_disk_is_refused_saying_so_and_goes_through_once_there_is_room(
    phone_client, member, make_game, small_disk
):
    game = make_game(member)
    ann, bob = seats(game)[:2]
    htmx = {"HX-Request": "true"}
    entry = {"outcome": "cards", "cards": "KS QD 2C", "save": "1", "version": 0}
    saved = phone_client.post(hand_url(game, 1, ann), entry, headers=htmx)
    assert saved.status_code == 200
    moved = small_disk.hold_database()
    assert phone_client.get(f"/games/{game.pk}/rounds/1/").status_code == 200

    filled = small_disk.fill()
    assert filled > 0 and small_disk.free() == 0
    refused = [phone_client.post(hand_url(game, 1, bob), entry, headers=htmx) for _ in range(3)]

    assert [response.status_code for response in refused] == [503, 503, 503]
    fragment = refused[0].content.decode()
    assert "data-unreachable" in fragment and "disk is full" in fragment
    assert "your hand is kept on this phone" in fragment
    assert DISK_FULL.replace("'", "&#x27;") in fragment
    assert refused[0]["Retry-After"] == "5"
    page = phone_client.get(f"/games/{game.pk}/rounds/1/")
    assert page.status_code == 200, "reading goes on while the disk is full"
    with closing(sqlite3.connect(moved)) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert [(hand.seat_id, hand.points) for hand in Hand.objects.all()] == [(ann.pk, 22)]
    assert HandChange.objects.count() == 1

    small_disk.make_room()
    again = phone_client.post(hand_url(game, 1, bob), entry, headers=htmx)
    assert again.status_code == 200
    assert sorted((hand.seat_id, hand.points) for hand in Hand.objects.all()) == [
        (ann.pk, 22),
        (bob.pk, 22),
    ]
    assert HandChange.objects.count() == 2


def test_a_full_disk_page_says_so_in_the_apps_style(phone_client, member, make_game, small_disk):
    game = make_game(member)
    small_disk.hold_database()
    assert phone_client.get("/").status_code == 200
    small_disk.fill()
    entry = {"outcome": "cards", "cards": "KS QD 2C", "save": "1", "version": 0}
    response = phone_client.post(hand_url(game, 1, seats(game)[0]), entry)
    assert response.status_code == 503
    page = response.content.decode()
    assert "<h1>The scores can&#x27;t be written</h1>" in page
    assert "The server&#x27;s disk is full" in page
