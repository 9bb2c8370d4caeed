"""`manage.py backup PATH`: a consistent copy of the SQLite database while it is being written."""

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

needs_sqlite = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the online backup is SQLite's; PostgreSQL uses pg_dump"
)


@needs_sqlite
def test_backup_while_another_phone_writes_is_a_whole_database(member, tmp_path):
    group = member.memberships.first().group
    stop = threading.Event()
    written = []

    def keep_writing():
        try:
            while not stop.is_set():
                Player.objects.create(group=group, name=f"Player {len(written)}")
                written.append(1)
        finally:
            connection.close()

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        target = tmp_path / "scores.sqlite3"
        call_command("backup", str(target))
    finally:
        stop.set()
        writer.join()
    with closing(sqlite3.connect(target)) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        copied = copy.execute("SELECT count(*) FROM games_player").fetchone()[0]
        users = copy.execute("SELECT username FROM auth_user").fetchall()
    assert 20 <= copied <= Player.objects.count()
    assert users == [("ann",)]
    assert not (tmp_path / "scores.sqlite3.partial").exists()


@needs_sqlite
def test_backup_replaces_an_older_copy(member, tmp_path):
    target = tmp_path / "scores.sqlite3"
    target.write_text("an old backup")
    call_command("backup", str(target))
    with closing(sqlite3.connect(target)) as copy:
        assert copy.execute("SELECT count(*) FROM auth_user").fetchone() == (1,)


@needs_sqlite
@pytest.mark.parametrize(
    ("path", "message"),
    [("missing-folder/scores.sqlite3", "There is no folder"), (".", "is a folder")],
)
def test_backup_to_a_bad_path_says_why(tmp_path, path, message):
    with pytest.raises(CommandError, match=message):
        call_command("backup", str(tmp_path / path))


@needs_sqlite
def test_backup_onto_the_database_itself_is_refused():
    with pytest.raises(CommandError, match="the database itself"):
        call_command("backup", str(connection.settings_dict["NAME"]))


@pytest.mark.skipif(connection.vendor == "sqlite", reason="checks the refusal on PostgreSQL")
def test_backup_on_postgresql_points_to_pg_dump(tmp_path):
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup", str(tmp_path / "x"))


def test_ci_restores_postgresql_with_the_readmes_own_commands():
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    ci = (root / ".ci" / "run").read_text().splitlines()
    commands = [line.strip() for line in ci if line.strip().startswith(("pg_dump", "pg_restore"))]
    assert len(commands) == 2
    for command in commands:
        assert f"\n{command}\n" in readme, command
