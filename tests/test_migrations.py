"""Migrations keep what is stored: player names become unique whatever their case, and two
names that clash are reported for a person to settle, never merged silently."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0002_player_colours_and_change_names")]
AFTER = [("games", "0003_game_kinds_as_data")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_0002(transactional_db):
    apps = migrate(BEFORE)
    yield apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_names_that_differ_only_in_case_stop_the_migration_and_are_named(at_0002):
    Group = at_0002.get_model("games", "Group")
    Player = at_0002.get_model("games", "Player")
    group = Group.objects.create(name="Table")
    Player.objects.create(group=group, name="Ann")
    Player.objects.create(group=group, name="ANN")
    with pytest.raises(RuntimeError, match="'Ann' and 'ANN'"):
        migrate(AFTER)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["ANN", "Ann"]
    Player.objects.filter(name="ANN").update(name="Annie")
    apps = migrate(AFTER)
    assert sorted(apps.get_model("games", "Player").objects.values_list("name", flat=True)) == [
        "Ann",
        "Annie",
    ]


@pytest.fixture
def at_0004(transactional_db):
    apps = migrate([("games", "0004_game_version")])
    yield apps
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_each_existing_login_stays_the_owner_of_its_group(at_0004):
    from django.contrib.auth.models import User

    Group = at_0004.get_model("games", "Group")
    Membership = at_0004.get_model("games", "Membership")
    Player = at_0004.get_model("games", "Player")
    for name in ("ann", "bob"):
        user = User.objects.create_user(username=name)
        group = Group.objects.create(name=f"{name}'s table")
        Membership.objects.create(user_id=user.pk, group=group)
        Player.objects.create(group=group, name=name.title())
    apps = migrate([("games", "0005_groups_with_members")])
    Membership = apps.get_model("games", "Membership")
    rows = sorted(Membership.objects.values_list("user__username", "group__name", "role"))
    assert rows == [("ann", "ann's table", "owner"), ("bob", "bob's table", "owner")]
    Player = apps.get_model("games", "Player")
    assert sorted(Player.objects.values_list("group__name", "name")) == [
        ("ann's table", "Ann"), ("bob's table", "Bob"),
    ]  # fmt: skip


def test_changes_learn_their_round_and_seat_and_are_not_undoable(transactional_db):
    apps = migrate([("games", "0008_group_time_zone")])
    try:
        model = lambda name: apps.get_model("games", name)  # noqa: E731
        group = model("Group").objects.create(name="Table")
        player = model("Player").objects.create(group=group, name="Ann")
        night = model("GameNight").objects.create(group=group, date="2026-01-02")
        game = model("Game").objects.create(group=group, night=night, kind="three-thirteen")
        seat = model("Seat").objects.create(game=game, player=player, position=0)
        round_ = model("Round").objects.create(game=game, number=1, dealer=seat)
        hand = model("Hand").objects.create(round=round_, seat=seat, points=4)
        model("HandChange").objects.create(hand=hand, new_summary="4 points entered",
                                           new_points=4)  # fmt: skip
        latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
        change = migrate(latest).get_model("games", "HandChange").objects.get()
        assert (change.round_id, change.seat_id) == (round_.pk, seat.pk)
        assert change.before is None  # saved before undo existed: not offered for undo
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
