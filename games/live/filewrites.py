"""Word of a write to some files of one folder, on the event loop, without waking while nothing
is written: Linux's inotify on the folder (its file descriptor read by the loop), reached
through the C library. Elsewhere, or where inotify cannot be had (too many watches, a folder
that cannot be watched), `FileWrites.watch` gives None and the caller looks every so often.

The SQLite watch (games/live/hub.py) uses it on the database file and its write-ahead log: a
commit writes one of them. The `-shm` index, which every read touches, is not watched, so the
watch's own reads never wake it."""

import asyncio
import ctypes
import ctypes.util
import os
import struct
import sys

# From <sys/inotify.h>.
IN_MODIFY = 0x002
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_Q_OVERFLOW = 0x4000  # events were lost: anything may have been written
IN_IGNORED = 0x8000  # the folder's watch is gone (the folder was removed)
# Not IN_CLOSE_WRITE: closing any connection, a reader's too, closes the log opened for writing.
WATCHED = IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
REPLACED = IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
ANY_FILE = IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF
EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, NUL-padded to len


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError):
        return None
    return libc


def written_names(data: bytes) -> tuple[set[str], set[str], bool]:
    """What the events in `data` (read from an inotify descriptor) say: the names of the files
    written, of those made, removed or moved, and whether any file may have been (lost events,
    the folder gone)."""
    written: set[str] = set()
    replaced: set[str] = set()
    anything = False
    offset = 0
    while offset + EVENT.size <= len(data):
        _, mask, _, length = EVENT.unpack_from(data, offset)
        name = data[offset + EVENT.size : offset + EVENT.size + length].split(b"\0", 1)[0]
        offset += EVENT.size + length
        if mask & ANY_FILE:
            anything = True
        elif name and mask & IN_MODIFY:
            written.add(os.fsdecode(name))
        elif name and mask & REPLACED:
            replaced.add(os.fsdecode(name))
    return written, replaced, anything


def _done(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


class FileWrites:
    """Word of each write to one of `files` (all in one folder), and of the first of them made,
    removed or moved (the database replaced; the log, which SQLite removes when its last
    connection closes and makes again with the next, only when written). The descriptor is
    read only while `next_write` waits for one: between two waits the kernel keeps (and
    merges) the events, and nothing is woken. `close()` stops."""

    def __init__(self, descriptor: int, names: list[str]):
        self.descriptor = descriptor
        self.names = set(names)
        self.first = names[0]
        self.loop = asyncio.get_running_loop()

    @classmethod
    def watch(cls, files: list[str]) -> "FileWrites | None":
        """Watch `files` from the running loop; None where inotify is not to be had."""
        paths = [os.path.abspath(name) for name in files]  # a link resolved by the caller
        folders = {os.path.dirname(path) for path in paths}
        libc = _libc() if len(folders) == 1 else None
        if libc is None:
            return None
        descriptor = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if descriptor < 0:
            return None
        if libc.inotify_add_watch(descriptor, os.fsencode(folders.pop()), WATCHED) < 0:
            os.close(descriptor)
            return None
        return cls(descriptor, [os.path.basename(path) for path in paths])

    def drain(self) -> bool:
        """Read every event waiting; True if one is of a write to one of the files (or says
        events were lost, or the folder's watch is gone)."""
        written = False
        while True:
            try:
                data = os.read(self.descriptor, 64 * 1024)
            except BlockingIOError:
                return written
            except OSError:
                return True
            names, replaced, anything = written_names(data)
            written = written or anything or bool(names & self.names) or self.first in replaced

    async def next_write(self, timeout: float, settle: float, earliest: float = 0.0) -> bool:
        """Wait for a write to one of the files, or `timeout` seconds (False); after the first
        write, `settle` seconds more, so that the rest of its transaction's writes are read
        with it, and not before the loop's time `earliest`. The events up to then are read: a
        write after that is the next one."""
        deadline = self.loop.time() + timeout
        while (left := deadline - self.loop.time()) > 0:
            readable = self.loop.create_future()
            # uvloop may still call a reader whose future was cancelled (the watch stopped).
            self.loop.add_reader(self.descriptor, _done, readable)
            try:
                await asyncio.wait_for(readable, left)
            except TimeoutError:
                return False
            finally:
                self.loop.remove_reader(self.descriptor)
            await asyncio.sleep(max(settle, earliest - self.loop.time()))
            if self.drain():
                return True
        return False

    def close(self) -> None:
        os.close(self.descriptor)
