"""Migrations keep what is stored, from any earlier state: a database made by the old chain of
migrations (0001 to 0010, squashed since into one) upgrades through them; a new one is made by
the squashed migration. Player names become unique whatever their case, two names that clash
are reported for a person to settle, never merged silently, and each login stays the owner of
its group."""

from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

SQUASHED = ("games", "0001_squashed_0010_groups_games_and_undo")


def migrate(targets, squashed=True):
    """Migrate to `targets`; without `squashed`, through the old chain's own migrations."""
    executor = MigrationExecutor(connection)
    if not squashed:
        executor.loader = MigrationLoader(connection, replace_migrations=False)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1]]).apps


def latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@contextmanager
def empty_database(tmp_path, called):
    """The tests' connection turned to an empty database of its own while in the block, the
    apps but this one at their latest: walked forward from nothing, as a deployment made before
    the squash was, instead of taking the shared test database back to the squash and up again
    (Django renders the migration state for each migration a walk back undoes: most of these
    tests' time)."""
    settings = connection.settings_dict
    shared = settings["NAME"]
    if connection.vendor == "sqlite":
        empty = str(tmp_path / f"{called}.sqlite3")
    else:
        empty = f"{shared}_{called}"
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{empty}"')
            cursor.execute(f'CREATE DATABASE "{empty}"')
    connection.close()
    settings["NAME"] = empty
    try:
        migrate([leaf for leaf in latest() if leaf[0] != "games"])
        yield
    finally:
        connection.close()
        settings["NAME"] = shared
        if connection.vendor != "sqlite":
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE "{empty}"')


@pytest.fixture
def walked(transactional_db, tmp_path):
    """An empty database for the test to walk the migrations in."""
    with empty_database(tmp_path, "walked"):
        yield


def test_names_that_differ_only_in_case_stop_the_migration_and_are_named(walked):
    apps = migrate([("games", "0002_player_colours_and_change_names")], squashed=False)
    Group = apps.get_model("games", "Group")
    Player = apps.get_model("games", "Player")
    group = Group.objects.create(name="Table")
    Player.objects.create(group=group, name="Ann")
    Player.objects.create(group=group, name="ANN")
    after = [("games", "0003_game_kinds_as_data")]
    with pytest.raises(RuntimeError, match="'Ann' and 'ANN'"):
        migrate(after, squashed=False)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["ANN", "Ann"]
    Player.objects.filter(name="ANN").update(name="Annie")
    apps = migrate(after, squashed=False)
    names = apps.get_model("games", "Player").objects.values_list("name", flat=True)
    assert sorted(names) == ["Ann", "Annie"]


def test_each_existing_login_stays_the_owner_of_its_group(walked):
    from django.contrib.auth.models import User

    apps = migrate([("games", "0004_game_version")], squashed=False)
    Group = apps.get_model("games", "Group")
    Membership = apps.get_model("games", "Membership")
    Player = apps.get_model("games", "Player")
    for name in ("ann", "bob"):
        user = User.objects.create_user(username=name)
        group = Group.objects.create(name=f"{name}'s table")
        Membership.objects.create(user_id=user.pk, group=group)
        Player.objects.create(group=group, name=name.title())
    apps = migrate([("games", "0005_groups_with_members")], squashed=False)
    Membership = apps.get_model("games", "Membership")
    rows = sorted(Membership.objects.values_list("user__username", "group__name", "role"))
    assert rows == [("ann", "ann's table", "owner"), ("bob", "bob's table", "owner")]
    Player = apps.get_model("games", "Player")
    assert sorted(Player.objects.values_list("group__name", "name")) == [
        ("ann's table", "Ann"),
        ("bob's table", "Bob"),
    ]


def test_a_database_of_the_old_chain_upgrades_to_the_latest_keeping_its_changes(walked):
    apps = migrate([("games", "0008_group_time_zone")], squashed=False)

    def model(name):
        return apps.get_model("games", name)

    group = model("Group").objects.create(name="Table")
    player = model("Player").objects.create(group=group, name="Ann")
    night = model("GameNight").objects.create(group=group, date="2026-01-02")
    game = model("Game").objects.create(group=group, night=night, kind="three-thirteen")
    seat = model("Seat").objects.create(game=game, player=player, position=0)
    round_ = model("Round").objects.create(game=game, number=1, dealer=seat)
    hand = model("Hand").objects.create(round=round_, seat=seat, points=4)
    model("HandChange").objects.create(hand=hand, new_summary="4 points entered", new_points=4)
    # The rest of the old chain, then what came after the squash, as a deployment would.
    change = migrate(latest()).get_model("games", "HandChange").objects.get()
    assert (change.round_id, change.seat_id) == (round_.pk, seat.pk)
    assert (change.before, change.after, change.new_points) == ({}, {}, 4)


def test_the_squashed_migration_makes_the_same_tables_as_the_old_chain(transactional_db, tmp_path):
    def columns():
        with connection.cursor() as cursor:
            tables = [t for t in connection.introspection.table_names(cursor) if "games_" in t]
            return {
                table: sorted(
                    (c.name, c.null_ok)
                    for c in connection.introspection.get_table_description(cursor, table)
                )
                for table in tables
            }

    with empty_database(tmp_path, "squashed"):
        migrate([SQUASHED])
        squashed = columns()
    with empty_database(tmp_path, "old_chain"):
        migrate([("games", "0010_hand_change_round_and_seat_required")], squashed=False)
        assert columns() == squashed
