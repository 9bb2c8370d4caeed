"""The demo data a newcomer loads, and loads again."""

import io

import pytest
from django.core.management import call_command

from games.models import Game, Group, Player

pytestmark = pytest.mark.django_db


def test_the_demo_can_be_made_again_over_the_last_one():
    call_command("seed_demo", nights=3, stdout=io.StringIO())
    call_command("seed_demo", nights=3, seed=7, stdout=io.StringIO())
    group = Group.objects.get(name="Demo table")
    assert Group.objects.filter(name="Demo table").count() == 1
    assert Player.objects.filter(group=group).count() == 5
    games = Game.objects.filter(group=group)
    assert games.exists() and all(game.finished_at for game in games)
    for game in games:  # each as its rules say: the right number of players, rounds complete
        low, high = game.kind_def.players
        assert low <= game.seats.count() <= high
        assert not game.rounds.filter(completed_at__isnull=True, hands__isnull=False).exists()


def test_the_demos_games_take_time_at_the_table():
    """Each demo game is played over an hour (its rounds ending one after another), so a
    year's hours at the table are an hour or two a night, not the moment the demo took."""
    from games.history import year
    from games.history.kept import kept
    from games.models import GameNight

    call_command("seed_demo", nights=3, stdout=io.StringIO())
    group = Group.objects.get(name="Demo table")
    for year_played in {night.date.year for night in GameNight.objects.filter(group=group)}:
        found = year.review(kept(group.pk), year_played)
        assert found.nights <= found.hours <= 2 * found.nights, (found.nights, found.hours)
