"""The game's flow on its models: starting, saving, opening the next round and finishing all
happen in the save, the same way for views, importer, demo data and tests."""

from datetime import datetime, time, timedelta
from functools import partial
from unittest.mock import patch

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import DROP, POINTS, WENT_OUT
from games.models import Entry, Game, Group, Player, Refused

pytestmark = pytest.mark.django_db


def play(round_, results, user=None):
    """results: {seat position: points}; the first 0 is the player who went out."""
    seats = {seat.position: seat for seat in round_.game.seats.all()}
    winner = next(position for position, points in results.items() if points == 0)
    for position, points in results.items():
        if position == winner:
            round_.save_hand(seats[position], Entry(WENT_OUT), user)
        else:
            round_.save_hand(seats[position], Entry(POINTS, "", points), user)


def test_the_next_round_opens_when_the_last_hand_is_saved(member, make_game):
    game = make_game(member)
    first = game.rounds.get()
    play(first, {0: 0, 1: 12})
    assert game.rounds.count() == 1  # Cid is still to enter
    first.save_hand(game.seats.get(position=2), Entry(POINTS, "", 7), member)
    second = game.rounds.get(number=2)
    assert second.dealer.position == 1  # the deal passes to the left
    assert game.current_round() == second


def test_the_last_round_finishes_the_game_in_the_save(member, make_game):
    game = make_game(member, kind="five-crowns", names=("Ann", "Bob"))
    for number in range(1, 12):
        play(game.rounds.get(number=number), {number % 2: 0, 1 - number % 2: number})
    game.refresh_from_db()
    assert game.finished_at is not None
    assert game.rounds.count() == 11
    assert game.current_round() is None


def test_a_finished_game_refuses_saves_until_reopened(member, make_game):
    game = make_game(member)
    first = game.rounds.get()
    ann = game.seats.get(position=0)
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    game.finish()
    with pytest.raises(Refused, match="this game is finished"):
        first.save_hand(ann, Entry(POINTS, "", 9, version=1), member)
    assert first.hands.get().points == 4
    game.reopen()
    first.save_hand(ann, Entry(POINTS, "", 9, version=1), member)
    assert first.hands.get().points == 9


def test_pool_play_puts_a_player_out_and_skips_their_deal(member, make_game):
    game = make_game(
        member, kind="rummy13", names=("Ann", "Bob", "Cid"), format="pool", pool_limit=101
    )
    play(game.rounds.get(), {0: 0, 1: 80, 2: 101})
    second = game.rounds.get(number=2)
    assert [seat.player.name for seat in second.playing_seats()] == ["Ann", "Bob"]
    assert second.dealer.player.name == "Bob"
    with pytest.raises(Refused, match="Cid is out of the game in this deal"):
        second.save_hand(game.seats.get(position=2), Entry(DROP), member)
    play(second, {1: 0, 0: 120})
    game.refresh_from_db()
    assert game.finished_at is not None  # one player left


def test_one_way_to_start_a_game_seats_names_in_order_and_reuses_players(member):
    group = member.memberships.first().group
    Player.objects.create(group=group, name="ann")
    game = Game.objects.start(
        group=group, kind="three-thirteen", players=["Bob", "Ann"], rules={"decks": 1}
    )
    assert [seat.player.name for seat in game.seats.select_related("player")] == ["Bob", "ann"]
    assert Player.objects.filter(group=group).count() == 2
    assert game.rules["decks"] == 1 and game.rules["aces"] == "low"
    assert game.rounds.get().dealer.player.name == "Bob"


def test_player_names_are_unique_in_a_group_whatever_their_case(member):
    group = member.memberships.first().group
    Player.objects.create(group=group, name="Ann")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(group=group, name="ANN")


def test_a_game_for_today_joins_tonights_night_not_one_entered_just_now_for_another_date(member):
    """Games of an earlier night written up after the fact, then tonight's first game: tonight
    is a night of its own. The evening's games after midnight still join the night they
    started on (yesterday's date)."""
    group = member.memberships.first().group
    today = timezone.localdate()
    start = partial(Game.objects.start, group=group, kind="three-thirteen", rules={})
    last_week = start(players=["Ann", "Bob"], date=today - timedelta(days=6))
    tonight = start(players=["Ann", "Bob"])
    assert last_week.night.date == today - timedelta(days=6)
    assert tonight.night.date == today and tonight.night_id != last_week.night_id
    assert start(players=["Ann", "Cid"]).night_id == tonight.night_id

    # Written up at 20:00 for yesterday, then tonight's first game: tonight is its own night.
    evening = timezone.make_aware(datetime.combine(today, time(20, 0)))
    writers = Group.objects.create(name="Writers")
    write_up = partial(Game.objects.start, group=writers, kind="three-thirteen", rules={})
    with patch.object(timezone, "now", lambda: evening):
        yesterdays = write_up(players=["Ann", "Bob"], date=today - timedelta(days=1))
        played = write_up(players=["Ann", "Bob"])
    assert yesterdays.night.date == today - timedelta(days=1)
    assert played.night.date == today and played.night_id != yesterdays.night_id

    # Started yesterday at 22:30, played on past midnight: at 00:30 the next game joins it.
    owls = Group.objects.create(name="Night owls")
    late = partial(Game.objects.start, group=owls, kind="three-thirteen", rules={})
    half_past = timezone.make_aware(datetime.combine(today, time(0, 30)))
    before_midnight = late(
        players=["Ann", "Bob"],
        date=today - timedelta(days=1),
        created_at=half_past - timedelta(hours=2),
    )
    with patch.object(timezone, "now", lambda: half_past):
        after_midnight = late(players=["Ann", "Bob"])
    assert after_midnight.night_id == before_midnight.night_id


def test_a_finish_tells_the_nights_other_games_and_stands_if_telling_one_fails(
    member, make_game, django_capture_on_commit_callbacks, caplog
):
    from django.db import OperationalError

    first, second, third = (make_game(member) for _ in range(3))
    assert first.night_id == second.night_id == third.night_id
    versions = {g.pk: Game.objects.get(pk=g.pk).version for g in (first, second, third)}
    real = Game.changed

    def changed(game):
        if game.pk == first.pk:  # the database away for this one game's word
            raise OperationalError("database is locked")
        return real(game)

    with patch.object(Game, "changed", changed), django_capture_on_commit_callbacks(execute=True):
        third.finish()  # its own change counted inside, the others told once committed
    third.refresh_from_db()
    assert third.finished_at is not None
    after = {g.pk: Game.objects.get(pk=g.pk).version for g in (first, second, third)}
    assert after[first.pk] == versions[first.pk]  # not told, and the finish stands
    assert after[second.pk] == versions[second.pk] + 1  # told all the same
    assert after[third.pk] == versions[third.pk] + 1
    assert f"telling game {first.pk} of game {third.pk}" in caplog.text
