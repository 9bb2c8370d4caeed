"""The small rough edges of issue 10: a date filter that makes no sense lists nothing, the
table's words fit the game, a finished game crowns no leader, counts are said in good English,
the welcome fits a new table, and times are shown in the group's (or the phone's) time zone."""

import io
import json
import re
from datetime import UTC, datetime

import pytest

from games.engine import POINTS, WENT_OUT
from games.models import Entry, Group, HandChange
from tests.helpers import seats, without_tokens

pytestmark = pytest.mark.django_db


def play_first_round(game, member):
    first = game.rounds.get(number=1)
    ann, *others = seats(game)
    first.save_hand(ann, Entry(WENT_OUT), member)
    for points, seat in enumerate(others, start=5):
        first.save_hand(seat, Entry(POINTS, "", points), member)
    return first


def test_a_leaderboard_from_after_to_shows_the_error_and_no_board(signed_in, member, make_game):
    game = make_game(member)
    play_first_round(game, member)
    game.finish()
    assert "Ann" in signed_in.get("/group/").content.decode()
    page = without_tokens(
        signed_in.get("/group/", {"start": "2026-05-01", "end": "2026-04-01"}).content
    )
    assert "The start date is after the end date." in page
    assert "Ann" not in page and "<table" not in page


def test_the_rummy_table_legend_speaks_of_deals(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    legend = re.search(r'<p class="legend">(.*?)</p>', page, re.S).group(1)
    assert "tap a deal number to see every hand" in legend
    assert "round" not in legend
    assert "declared" in legend


def test_a_finished_game_marks_no_leader(signed_in, member, make_game):
    game = make_game(member)
    play_first_round(game, member)
    assert 'class="leader"' in signed_in.get(f"/games/{game.pk}/").content.decode()
    game.finish()
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "leader" not in page
    assert "Final standings" in page


def test_an_import_of_one_night_says_one_game_night(
    signed_in, member, make_game, make_member, client
):
    game = make_game(member, names=("Ann", "Bob"))
    first = game.rounds.get()
    first.save_hand(seats(game)[0], Entry(WENT_OUT), member)
    exported = json.loads(signed_in.get("/group/export.json").content)
    client.force_login(make_member("zoe"))
    upload = io.BytesIO(json.dumps(exported).encode())
    upload.name = "history.json"
    response = client.post("/group/import/", {"file": upload}, follow=True)
    assert "Imported 1 game night, 1 game and 1 hand." in response.content.decode()


def test_the_player_page_counts_one_game_in_the_singular(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    first = game.rounds.get()
    ann, bob = seats(game)
    first.save_hand(ann, Entry(WENT_OUT), member)
    first.save_hand(bob, Entry(POINTS, "", 1), member)
    game.finish()
    page = signed_in.get(f"/players/{bob.player_id}/").content.decode()
    assert "<strong>1</strong> game played" in page
    assert ": 1 point, place 2<" in page
    ann_page = signed_in.get(f"/players/{ann.player_id}/").content.decode()
    assert "<strong>1</strong> round gone out" in ann_page
    history = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "1 point entered (1)" in history


def test_a_new_table_is_not_told_to_add_players(client):
    password = "Shuffle-and-deal-9"
    account = {"username": "newbie", "password1": password, "password2": password}
    response = client.post("/signup/", account, follow=True)
    page = response.content.decode()
    assert "<h1>New game</h1>" in page
    assert "Add your players" not in page and "Your players" not in page
    assert "list the players as they sit" in page


# ---------------------------------------------------------------- time zones


def change_at(hand, when):
    HandChange.objects.filter(seat=hand.seat).update(changed_at=when)


def test_change_times_are_in_the_phones_zone_when_the_group_chose_none(
    signed_in, member, make_game
):
    game = make_game(member)
    first = game.rounds.get()
    hand, _ = first.save_hand(seats(game)[0], Entry(POINTS, "", 4), member)
    change_at(hand, datetime(2026, 7, 1, 18, 5, tzinfo=UTC))
    url = f"/games/{game.pk}/rounds/1/"
    assert '<span class="when">18:05</span>' in signed_in.get(url).content.decode()
    signed_in.cookies["tz"] = "Europe/Paris"  # set by app.js from the browser's Intl zone
    assert '<span class="when">20:05</span>' in signed_in.get(url).content.decode()
    signed_in.cookies["tz"] = "Not/A_Zone"
    assert '<span class="when">18:05</span>' in signed_in.get(url).content.decode()


def test_the_groups_time_zone_wins_over_the_phones(signed_in, member, make_game):
    game = make_game(member)
    first = game.rounds.get()
    hand, _ = first.save_hand(seats(game)[0], Entry(POINTS, "", 4), member)
    change_at(hand, datetime(2026, 1, 10, 23, 30, tzinfo=UTC))
    signed_in.cookies["tz"] = "Europe/Paris"
    page = signed_in.get("/group/").content.decode()
    assert "Each phone&#x27;s own (this one: Europe/Paris)" in page
    response = signed_in.post("/group/time-zone/", {"time_zone": "America/New_York"}, follow=True)
    assert "Times are now shown in America/New York." in response.content.decode()
    assert Group.objects.get().time_zone == "America/New_York"
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert '<span class="when">18:30</span>' in page
    signed_in.post("/group/time-zone/", {"time_zone": ""})
    assert Group.objects.get().time_zone == ""
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert '<span class="when">00:30</span>' in page


def test_an_unknown_time_zone_is_refused_by_name(signed_in, member):
    response = signed_in.post("/group/time-zone/", {"time_zone": "Mars/Olympus"})
    assert response.status_code == 422
    assert "Mars/Olympus is not one of the available choices" in response.content.decode()
    assert Group.objects.get().time_zone == ""


def test_only_a_member_changes_their_own_groups_time_zone(client, member, make_member):
    response = client.post("/group/time-zone/", {"time_zone": "Europe/Paris"})
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    client.force_login(make_member("zed"))
    client.post("/group/time-zone/", {"time_zone": "Europe/Paris"})
    assert member.memberships.get().group.time_zone == ""
    assert Group.objects.get(memberships__user__username="zed").time_zone == "Europe/Paris"


def test_a_game_night_is_dated_in_the_groups_time_zone(signed_in, member):
    group = member.memberships.get().group
    group.time_zone = "Pacific/Kiritimati"  # UTC+14: always a day or so ahead of UTC
    group.save()
    form = signed_in.get("/games/new/").context["form"]
    from zoneinfo import ZoneInfo

    assert form.fields["date"].initial == datetime.now(ZoneInfo("Pacific/Kiritimati")).date()
