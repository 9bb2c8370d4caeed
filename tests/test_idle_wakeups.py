"""What an idle server does: nothing. The SQLite watch hears of a write from inotify instead of
looking at the files every 0.2 s (games/live/filewrites.py), and the site's uvicorn worker
ticks once a second instead of ten times, yet stops at once when told (scorekeeper/workers.py)."""

import asyncio
import contextlib
import os
import signal
import struct
import sys

import pytest
from uvicorn.config import Config

from games.live.filewrites import IN_DELETE, IN_MODIFY, IN_Q_OVERFLOW, FileWrites, written_names
from scorekeeper.workers import TICKS, QuietServer
from tests.helpers import on_own_loop

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def test_a_write_to_a_watched_file_is_heard_and_one_to_another_file_is_not(tmp_path):
    database, log, index = (tmp_path / name for name in ("db", "db-wal", "db-shm"))
    for path in (database, index, tmp_path / "restored"):
        path.write_bytes(b"")

    async def heard():
        writes = FileWrites.watch([str(database), str(log)])
        assert writes is not None
        try:
            found = {}
            # Nothing written: no word by the timeout.
            found["nothing"] = await writes.next_write(timeout=0.05, settle=0)
            index.write_bytes(b"read marks")  # every read writes the index: not a change
            found["index"] = await writes.next_write(timeout=0.05, settle=0)
            log.write_bytes(b"a frame")  # the log made and written
            found["log made"] = await writes.next_write(timeout=5, settle=0)
            with database.open("ab") as file:  # a checkpoint writes the database
                file.write(b"a page")
            found["database"] = await writes.next_write(timeout=5, settle=0)
            log.unlink()  # the last connection closed: no change
            found["log removed"] = await writes.next_write(timeout=0.05, settle=0)
            closed = database.open("rb+")
            closed.close()  # a connection closed, a reader's too: no change
            found["closed"] = await writes.next_write(timeout=0.05, settle=0)
            database.rename(tmp_path / "old")  # the database replaced by a restore
            (tmp_path / "restored").rename(database)
            found["replaced"] = await writes.next_write(timeout=5, settle=0)
            # Word already read is not heard again.
            found["again"] = await writes.next_write(timeout=0.05, settle=0)
            return found
        finally:
            writes.close()

    assert on_own_loop(heard()) == {
        "nothing": False,
        "index": False,
        "log made": True,
        "database": True,
        "log removed": False,
        "closed": False,
        "replaced": True,
        "again": False,
    }


def test_the_writes_of_one_transaction_are_heard_as_one(tmp_path):
    log = tmp_path / "db-wal"

    async def heard():
        writes = FileWrites.watch([str(tmp_path / "db"), str(log)])
        try:
            waiting = asyncio.ensure_future(writes.next_write(timeout=5, settle=0.2))
            await asyncio.sleep(0)
            with log.open("ab") as file:
                for frame in range(20):  # within the settle: read with the first
                    file.write(b"frame %d" % frame)
                    file.flush()
                    await asyncio.sleep(0.001)
            first = await waiting
            second = await writes.next_write(timeout=0.05, settle=0)
            return first, second
        finally:
            writes.close()

    assert on_own_loop(heard()) == (True, False)


def test_lost_events_count_as_a_write_and_names_are_read_from_the_events():
    def event(mask, name=b""):
        padded = name + b"\0" * (16 - len(name)) if name else b""
        return struct.pack("iIII", 1, mask, 0, len(padded)) + padded

    data = event(IN_MODIFY, b"db-wal") + event(IN_MODIFY, b"db-shm") + event(IN_DELETE, b"db")
    assert written_names(data) == ({"db-wal", "db-shm"}, {"db"}, False)
    assert written_names(event(IN_Q_OVERFLOW)) == (set(), set(), True)


def test_files_of_two_folders_or_none_are_not_watched(tmp_path):
    async def watched(files):
        writes = FileWrites.watch(files)
        if writes is not None:
            writes.close()
        return writes is not None

    apart = [str(tmp_path / "a" / "db"), str(tmp_path / "b" / "db-wal")]
    assert on_own_loop(watched(apart)) is False
    assert on_own_loop(watched([str(tmp_path / "missing-folder" / "db")])) is False
    assert on_own_loop(watched([str(tmp_path / "db")])) is True


async def app(scope, receive, send):  # what the server serves does not matter here
    pass


def test_the_quiet_server_ticks_once_a_second_doing_a_seconds_work_each_time(monkeypatch):
    """uvicorn does its once-a-second work (the Date header, gunicorn's heartbeat) every tenth
    tick: each of the quiet server's ticks is one of those."""
    monkeypatch.setattr("scorekeeper.workers.TICK", 0.01)
    server = QuietServer(Config(app=app))
    counters = []

    async def on_tick(counter):
        counters.append(counter)
        return len(counters) == 4

    server.on_tick = on_tick
    on_own_loop(server.main_loop())
    assert counters == [0, TICKS, 2 * TICKS, 3 * TICKS]


def test_the_quiet_server_stops_at_once_when_told_not_at_its_next_tick():
    server = QuietServer(Config(app=app))

    async def stopped():
        loop = asyncio.get_running_loop()
        main = asyncio.ensure_future(server.main_loop())
        await asyncio.sleep(0.05)  # asleep until its next tick, a second away
        loop.call_soon(server.handle_exit, signal.SIGTERM, None)
        await asyncio.wait_for(main, timeout=0.5)  # a second's tick would time out

    on_own_loop(stopped())
    assert server.should_exit


def inotify_descriptors() -> int:
    """The process's inotify descriptors (the watch's own kind: counting every descriptor would
    count the sockets the session's live server opens and closes meanwhile on its thread)."""
    found = 0
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # closed since it was listed
            found += os.readlink(f"/proc/self/fd/{name}") == "anon_inode:inotify"
    return found


def test_a_watch_stopped_as_a_write_comes_logs_nothing_and_keeps_no_descriptor(tmp_path):
    """The last phone leaves just after a save: the watch is cancelled with word of the write
    waiting. uvloop (the server's loop) then still calls the reader of the cancelled wait."""
    import uvloop

    log = tmp_path / "db-wal"
    problems = []

    async def stopped():
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda loop, context: problems.append(context["message"]))
        descriptors = inotify_descriptors()
        writes = FileWrites.watch([str(tmp_path / "db"), str(log)])
        waiting = asyncio.ensure_future(writes.next_write(timeout=30, settle=0.01))
        await asyncio.sleep(0.05)
        with log.open("ab") as file:
            file.write(b"a frame")
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        writes.close()
        await asyncio.sleep(0.05)
        return inotify_descriptors() - descriptors

    left = on_own_loop(stopped(), runner=uvloop.run)
    assert (problems, left) == ([], 0)


def test_a_database_reached_through_a_link_is_watched_where_sqlite_writes_its_log(
    tmp_path, monkeypatch
):
    from django.db import connection

    from games.live.hub import _database_files

    real = tmp_path / "data" / "db.sqlite3"
    real.parent.mkdir()
    real.write_bytes(b"")
    link = tmp_path / "db.sqlite3"
    link.symlink_to(real)
    monkeypatch.setitem(connection.settings_dict, "NAME", str(link))
    found = os.path.realpath(real)
    assert _database_files() == [found, f"{found}-wal"]


def test_a_read_of_writes_waits_for_its_earliest_time_and_no_longer(tmp_path):
    """The watch's limit of one read of writes every WATCH_EVERY is a time the read may not
    come before (`earliest`): a write heard after it is read `settle` after the write."""
    log = tmp_path / "db-wal"

    async def heard(earliest_in: float):
        writes = FileWrites.watch([str(tmp_path / "db"), str(log)])
        loop = asyncio.get_running_loop()
        try:
            started = loop.time()
            waiting = asyncio.ensure_future(
                writes.next_write(timeout=5, settle=0, earliest=started + earliest_in)
            )
            await asyncio.sleep(0)
            with log.open("ab") as file:
                file.write(b"frame")
            assert await waiting
            return loop.time() - started
        finally:
            writes.close()

    assert on_own_loop(heard(0.3)) >= 0.3  # held back to its earliest time


def test_the_sqlite_watch_reads_a_write_settle_after_it_not_a_watch_interval(monkeypatch):
    """A save made a while after the watch's last read is read SETTLE after its write: the
    once-every-WATCH_EVERY limit is given as the read's earliest time, from the last read of
    writes, never as a wait after every write (each save then reached the other phones 0.2 s
    late, in Chromium p50 276 ms where 127 ms now)."""
    from games.live import hub as hubs

    asked = []

    class Writes:
        async def next_write(self, timeout, settle, earliest=0.0):
            asked.append((settle, earliest - asyncio.get_running_loop().time()))
            if len(asked) == 3:
                hub.topics.clear()  # the watch ends
            return len(asked) == 1  # a write, then none: read again once

        def close(self):
            pass

    hub = hubs.Hub()
    hub.topics[("game", 1)] = {object()}

    async def look(topics=None):
        await asyncio.sleep(0.05)  # the read's own time

    monkeypatch.setattr(hubs, "_database_files", lambda: ["db"])
    monkeypatch.setattr(hubs.FileWrites, "watch", staticmethod(lambda files: Writes()))
    monkeypatch.setattr(hub, "look", look)
    try:
        on_own_loop(hub.watch())
    finally:
        hub.db.shutdown()
    settles = [settle for settle, _ in asked]
    assert settles == [hubs.SETTLE] * 3
    first, after_write, after_reread = (earliest for _, earliest in asked)
    assert 0 < first <= hubs.WATCH_EVERY  # the first read of the watch was just now
    assert 0 < after_write <= hubs.WATCH_EVERY  # a read of writes was just now
    # The read again (no write) does not move the limit: from the read of writes, 2 reads ago.
    assert after_reread < after_write - 0.04
