"""A consistent copy of the embedded SQLite database, taken while the server runs."""

import sqlite3
from contextlib import closing
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the SQLite database to PATH while the server runs "
        "(SQLite's online backup). For PostgreSQL use pg_dump."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to write; an existing file is replaced")

    def handle(self, *args, path, **options):
        connection = connections["default"]
        if connection.vendor != "sqlite":
            raise CommandError(
                f"The database is {connection.display_name}, not SQLite: back it up with "
                "pg_dump (see the README, 'Backing up')."
            )
        source_name = str(connection.settings_dict["NAME"])
        target = Path(path).expanduser()
        if target.resolve() == Path(source_name).resolve():
            raise CommandError("PATH is the database itself: choose another file.")
        if target.is_dir():
            raise CommandError(
                f"{target} is a folder: give a file name, such as {target}/scores.sqlite3."
            )
        if not target.parent.is_dir():
            raise CommandError(f"There is no folder {target.parent} to write the backup into.")
        partial = target.with_name(target.name + ".partial")
        try:
            # The backup API copies page by page and restarts if a write lands meanwhile, so the
            # copy is one consistent state; writing beside the target keeps a half copy from
            # ever standing under the target's name.
            partial.unlink(missing_ok=True)
            with (
                closing(sqlite3.connect(source_name)) as source,
                closing(sqlite3.connect(partial)) as copy,
            ):
                source.backup(copy)
            partial.replace(target)
        except (sqlite3.Error, OSError) as problem:
            partial.unlink(missing_ok=True)
            raise CommandError(
                f"The backup could not be written to {target}: {problem}"
            ) from problem
        size = target.stat().st_size
        self.stdout.write(f"Backed up {source_name} to {target} ({size:,} bytes).")
