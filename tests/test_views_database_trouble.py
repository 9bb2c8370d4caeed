"""Which database trouble a 503 names: a full disk, a server out of connections, or a database
out of reach (read from the driver's error, no database needed)."""

import sqlite3

import psycopg
import pytest
from django.db import OperationalError

from games.views.errors import BUSY, DISK_FULL, UNREACHABLE, trouble


def sqlite_error(message, code):
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    ("cause", "said"),
    [
        (sqlite_error("database or disk is full", 13), DISK_FULL),
        (psycopg.errors.DiskFull("could not extend file: No space left on device"), DISK_FULL),
        (
            psycopg.OperationalError("port 5432 failed: FATAL:  sorry, too many clients already"),
            BUSY,
        ),
        (psycopg.errors.TooManyConnections("too many connections for role"), BUSY),
        (sqlite_error("unable to open database file", 14), UNREACHABLE),
        (psycopg.OperationalError("connection refused"), UNREACHABLE),
    ],
)
def test_each_database_trouble_is_told_in_its_own_words(cause, said):
    try:
        try:
            raise cause
        except Exception as error:
            raise OperationalError(str(error)) from error
    except OperationalError as wrapped:
        assert trouble(wrapped)[1] == said
