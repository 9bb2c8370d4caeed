"""Each server process's streams, by the game or night they follow, and how the process learns
that one changed: LISTEN on PostgreSQL, a watch of the games' versions on SQLite. Runs on the
ASGI server's event loop; the little database work it does (the watch, the access checks) runs
on one thread of its own, with one connection."""

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.db import DatabaseError, close_old_connections, connection
from django.db.models import Count, Sum

from ..access.streams import StreamGrant, still_allowed
from ..etags import live_etag
from ..models import Game
from . import announce
from .changes import FOLLOWED_FOR, drawn_between, mark_followed, part_for
from .filewrites import FileWrites
from .streams import GUEST, Opened, event

log = logging.getLogger(__name__)

HEARTBEAT = 15  # seconds between pings on a quiet stream (proxies drop silent connections)
WATCH_EVERY = 0.2  # seconds between two looks at the database file (SQLite, without inotify)
SETTLE = 0.01  # seconds from a write to the read of the versions (its transaction's other writes)
LOOK_WATCHED = 30.0  # seconds: the versions read at least this often, the files watched
CARRY_UP_TO = 4  # versions a stream may be behind and still be carried the changes
LOOK_ANYWAY = 2.0  # seconds: the versions read at least this often (file times may be coarse)
LISTEN_RETRY = (0.25, 2)  # first and longest wait before listening again after a lost connection

Topic = tuple[str, int]  # ("game", id) or ("night", id)


@dataclass(eq=False)
class Stream:
    """One phone's open stream: as its view let it open (`opened`: what it follows, who for,
    and for a round page the round, the phone as a change is drawn for it, its CSRF token and
    whose ETags it keeps), and what it has told."""

    opened: Opened
    token: str  # the state it last told
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    told: bool = False  # something to tell: `token` moved
    ended: bool = False  # its phone may no longer follow: told "end", then closed
    closing: bool = False  # the server stops: closed without "end", so the phone comes back
    carry: bytes | None = None  # the change to send with the word, if any

    @property
    def topic(self) -> Topic:
        return (self.opened.page, self.opened.pk)

    @property
    def grant(self) -> StreamGrant:
        return self.opened.grant

    def may_carry(self, token: str | None) -> bool:
        """The changes up to state `token` can be carried to this stream: it shows a round, and
        a version at most CARRY_UP_TO before (two saves within one watch interval, or heard
        late, are carried one after the other instead of each phone asking)."""
        return (
            self.opened.round_number is not None
            and token is not None
            and token.isdigit()
            and self.token.isdigit()
            and 0 < int(token) - int(self.token) <= CARRY_UP_TO
        )

    def ahead_of(self, token: str) -> bool:
        """This stream was told a later version of its game than `token` (a late word of an
        earlier change): it is not told that one. Nights' states are not compared."""
        return self.token.isdigit() and token.isdigit() and int(self.token) > int(token)

    def carried(self, pk: int, token: str, drawn: dict) -> bytes | None:
        """The events that carry the drawn changes from this stream's version to `token`
        (`drawn`: by version, its round and parts), one a version, or None when one does not
        fit (not drawn, another round, a viewer not drawn for): the phone is told and asks."""
        opened = self.opened
        events = []
        for version in range(int(self.token) + 1, int(token) + 1):
            change = drawn.get(version)
            if change is None or change[0] != opened.round_number:
                return None
            part = part_for(change[1], opened.looks, opened.zone, opened.csrf)
            if part is None:
                return None
            etag = live_etag(opened.viewer, version, "round", pk, opened.round_number)
            lines = f"{version - 1} {etag}\n{part}"
            events.append(event("change", lines, str(version)))
        return b"".join(events)


class Hub:
    def __init__(self):
        self.topics: dict[Topic, set[Stream]] = {}
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-hub")
        self.task: asyncio.Task | None = None
        self.postgres = connection.vendor == "postgresql"
        # Games marked followed here since the last round of marks: whether by guests too.
        self.marked: dict[int, bool] = {}
        self.marking: asyncio.Task | None = None

    # ------------------------------------------------------------ streams

    async def serve(self, opened: Opened, receive, send) -> None:
        """Keep a stream open until its phone goes, telling it of each change; a ping on a
        quiet stream every HEARTBEAT seconds."""
        stream = Stream(opened, opened.token)
        self.join(stream)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while not gone.done():
                woken = asyncio.ensure_future(stream.wake.wait())
                await asyncio.wait({woken, gone}, timeout=HEARTBEAT, return_when="FIRST_COMPLETED")
                woken.cancel()
                if gone.done():
                    return
                stream.wake.clear()
                if stream.closing:
                    break
                if stream.ended:
                    await _send(send, event("end"))
                    break
                if stream.told:
                    stream.told = False
                    carry, stream.carry = stream.carry, None
                    await _send(send, carry or event("version", stream.token, stream.token))
                else:
                    await _send(send, event("ping"))
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            self.leave(stream)

    def join(self, stream: Stream) -> None:
        self.topics.setdefault(stream.topic, set()).add(stream)
        if self.task is None or self.task.done():
            follow = self.listen if self.postgres else self.watch
            self.task = asyncio.ensure_future(follow())
        if stream.opened.round_number is not None:
            self.follow_round(stream.opened.pk, stream.opened.looks.startswith(GUEST))
        if self.postgres:
            # A change notified between the view's read and now was told to no one: look once.
            asyncio.ensure_future(self.look([stream.topic]))

    def leave(self, stream: Stream) -> None:
        streams = self.topics.get(stream.topic)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.topics[stream.topic]
        if self.topics:
            return
        if self.task is not None:
            self.task.cancel()  # nothing to follow: no query, no LISTEN connection held
            self.task = None
        if self.marking is not None:
            self.marking.cancel()
            self.marking = None
            self.marked.clear()

    def follow_round(self, game_id: int, by_guest: bool = False) -> None:
        """A round page's stream of the game is held here (a guest's if `by_guest`): mark it
        followed (its saves draw their changes, on whatever worker they are made; for guests
        only if a guest follows), unless marked so a moment ago, and go on marking every game
        followed here while streams stay."""
        was = self.marked.get(game_id)
        if was is None or (by_guest and not was):
            self.marked[game_id] = by_guest or bool(was)
            asyncio.ensure_future(self.mark([game_id], [game_id] if by_guest else []))
        if self.marking is None or self.marking.done():
            self.marking = asyncio.ensure_future(self.keep_marking())

    async def keep_marking(self) -> None:
        """Mark again, a third of FOLLOWED_FOR apart, the games whose round pages' streams are
        held here (and those of them a guest's stream follows); forget the others."""
        every = FOLLOWED_FOR.total_seconds() / 3
        while self.topics:
            await asyncio.sleep(every)
            rounds = [
                stream.opened
                for streams in self.topics.values()
                for stream in streams
                if stream.opened.round_number is not None
            ]
            marked: dict[int, bool] = {}
            for opened in rounds:
                marked[opened.pk] = marked.get(opened.pk, False) or opened.looks.startswith(GUEST)
            self.marked = marked
            if marked:
                by_guests = sorted(pk for pk, guests in marked.items() if guests)
                await self.mark(sorted(marked), by_guests)

    async def mark(self, game_ids: list[int], by_guests: list[int]) -> None:
        try:
            await self.run(mark_followed, game_ids, by_guests)
        except DatabaseError:  # out of reach: the next mark (or the phones' asks) will do
            log.warning("live: marking %s followed failed", game_ids, exc_info=True)
            for game_id in game_ids:
                self.marked.pop(game_id, None)

    def close(self) -> None:
        """The server has stopped: its database connection is closed."""
        self.db.submit(lambda: connection.close()).result()
        self.db.shutdown()

    def drain(self) -> None:
        """The server is stopping: close every stream (its phone opens it again elsewhere)."""
        for streams in self.topics.values():
            for stream in streams:
                stream.closing = True
                stream.wake.set()

    async def tell(self, topic: Topic, token: str | None) -> None:
        """`topic` is now in state `token`: every stream of it not told that yet is told, if
        its phone may still follow it, and ended if not. With no token (the state unknown, or
        who may follow it changed) no one is told anything, and those who may not are ended.

        A round page's stream one version behind is sent the change itself, drawn where it was
        made and committed with the version (games.live.changes), read in the same trip as the
        access check; a change not drawn (no stream followed the game then) is told as the
        version, and the phone asks."""
        streams = [s for s in self.topics.get(topic, ()) if not (s.ended or s.closing)]
        if token is not None:
            streams = [s for s in streams if s.token != token and not s.ahead_of(token)]
        if not streams:
            return
        carriers = {stream for stream in streams if stream.may_carry(token)}
        grants = {stream.grant for stream in streams}
        versions = None
        if carriers:
            versions = (min(int(stream.token) for stream in carriers) + 1, int(token))
        try:
            allowed, drawn = await self.run(
                _allowed_and_drawn, topic[0], topic[1], grants, versions
            )
        except DatabaseError:  # the database out of reach: nothing told; the next change tells
            log.warning("live: checking who may follow %s failed", topic, exc_info=True)
            return
        for stream in streams:
            if stream.grant not in allowed:
                stream.ended = True
            elif token is not None:
                if stream.token == token or stream.ahead_of(token):  # told meanwhile
                    continue
                # A change not sent yet is dropped: the phone is told this state instead.
                carried = stream.carried(topic[1], token, drawn) if stream in carriers else None
                stream.token, stream.told, stream.carry = token, True, carried
            else:
                continue
            stream.wake.set()

    async def run(self, work, *args):
        return await asyncio.get_running_loop().run_in_executor(self.db, _in_thread, work, args)

    # ------------------------------------------------------------ learning of changes

    async def watch(self) -> None:
        """SQLite: read the versions of every game the streams show, and of every game of the
        nights they show, in one query, SETTLE after the database's files are written (at
        most once every WATCH_EVERY, and once more WATCH_EVERY after the writes), and at least
        every LOOK_WATCHED; tell the streams whose state moved. Nothing runs while nothing is
        written: the loop hears of a write from inotify (games/live/filewrites.py). Where
        there is no inotify, `poll` instead."""
        files = _database_files()
        writes = FileWrites.watch(files) if files else None
        if writes is None:
            await self.poll(files)
            return
        loop = asyncio.get_running_loop()
        try:
            looked, written = loop.time(), False
            await self.look()  # what moved before the watch began
            while self.topics:
                # A write is read SETTLE after it, and at most one read of writes every
                # WATCH_EVERY: the writes meanwhile are read together. A read after writes is
                # read again WATCH_EVERY later even if nothing more is written: a commit is
                # visible only once the writer has marked it in the `-shm` index, which it may
                # do just after its last write to the log; that second read does not hold back
                # the next write's.
                wait = WATCH_EVERY if written else LOOK_WATCHED
                written = await writes.next_write(wait, SETTLE, looked + WATCH_EVERY)
                if written:
                    looked = loop.time()
                await self.look()
        finally:
            writes.close()

    async def poll(self, files: list[str]) -> None:
        """The watch without inotify: a stat of the files on the loop every WATCH_EVERY (no
        thread woken, no query while nothing is written), the versions read when they moved
        and at least every LOOK_ANYWAY."""
        loop = asyncio.get_running_loop()
        seen, looked = None, 0.0
        while self.topics:
            await asyncio.sleep(WATCH_EVERY)
            stamps = _stamps(files)
            if stamps is None or stamps != seen or loop.time() - looked >= LOOK_ANYWAY:
                seen, looked = stamps, loop.time()  # taken before: a write meanwhile shows next
                await self.look()

    async def listen(self) -> None:
        """PostgreSQL: LISTEN on the channel every save notifies. Each time it begins to listen
        (again, after a lost connection: a database restart) it reads the state of every game
        and night followed here, since changes may have gone unheard meanwhile."""
        import psycopg

        wait = LISTEN_RETRY[0]
        while self.topics:
            try:
                params = await self.run(_connection_params)
                async with await psycopg.AsyncConnection.connect(autocommit=True, **params) as db:
                    await db.execute(f"LISTEN {announce.CHANNEL}")
                    wait = LISTEN_RETRY[0]
                    await self.look()
                    async for note in db.notifies():
                        await self.heard(note.payload)
                        if not self.topics:
                            return
            except (psycopg.Error, OSError):
                log.warning("live: listening failed; again in %s s", wait, exc_info=True)
                await asyncio.sleep(wait)
                wait = min(wait * 2, LISTEN_RETRY[1])

    async def look(self, topics: list[Topic] | None = None) -> None:
        """Read the state of the games and nights followed here (`topics`, or all of them) in
        one query, and tell the streams whose state moved."""
        topics = [topic for topic in (topics or list(self.topics)) if topic in self.topics]
        if not topics:
            return
        games = [pk for page, pk in topics if page == "game"]
        nights = [pk for page, pk in topics if page == "night"]
        try:
            states = await self.run(_states, games, nights)
        except DatabaseError:  # out of reach: the next change tells
            log.warning("live: reading the versions failed", exc_info=True)
            return
        for topic in topics:
            await self.tell(topic, states.get(topic))

    async def heard(self, payload: str) -> None:
        said = announce.parse(payload)
        if said is None:
            return
        what, numbers = said
        if what == "game" and len(numbers) == 3:
            game, night, version = numbers
            await self.tell(("game", game), game_token(version))
            await self.look([("night", night)])
        elif what == "night" and len(numbers) == 1:
            await self.look([("night", numbers[0])])
        elif what == "members" and len(numbers) == 1:
            for topic, streams in list(self.topics.items()):
                if any(stream.opened.group_id == numbers[0] for stream in streams):
                    await self.tell(topic, None)


def _database_files() -> list[str]:
    """The SQLite database's file and its write-ahead log, whose times and sizes move with
    every commit; none for a database in memory."""
    name = str(connection.settings_dict["NAME"])
    if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        return []
    name = os.path.realpath(name)  # SQLite writes its log beside the file a link points to
    return [name, f"{name}-wal"]


def _stamps(files: list[str]) -> tuple | None:
    """What the files' metadata says now (None: nothing to go by, read the versions)."""
    if not files:
        return None
    stamps = []
    for name in files:
        try:
            found = os.stat(name)
        except OSError:
            stamps.append(None)
        else:
            stamps.append((found.st_ino, found.st_size, found.st_mtime_ns))
    return tuple(stamps)


def game_token(version: int) -> str:
    return str(version)


def night_token(games: int, versions: int) -> str:
    """A night's state: how many games it has and the sum of their versions (each only grows)."""
    return f"{games}.{versions}"


def _states(games: list[int], nights: list[int]) -> dict[Topic, str]:
    """The state of each game and night followed: one query, and one more for nights."""
    states: dict[Topic, str] = {}
    if games:
        for pk, version in Game.objects.filter(pk__in=games).values_list("pk", "version"):
            states[("game", pk)] = game_token(version)
    if nights:
        states |= {("night", pk): night_token(0, 0) for pk in nights}
        totals = (
            Game.objects.filter(night_id__in=nights)
            .values("night_id")
            .annotate(games=Count("pk"), versions=Sum("version"))
        )
        for row in totals:
            states[("night", row["night_id"])] = night_token(row["games"], row["versions"])
    return states


def _allowed_and_drawn(page: str, pk: int, grants, versions: tuple[int, int] | None):
    """Who may still follow `page` `pk`, and (given `versions`, the first and last) the changes
    to it as drawn, by version."""
    allowed = still_allowed(page, pk, grants)
    return allowed, drawn_between(pk, *versions) if versions is not None and allowed else {}


def _connection_params() -> dict:
    """What psycopg needs to open a connection like Django's own (no cursor factory)."""
    params = connection.get_connection_params()
    return {
        key: value
        for key, value in params.items()
        if key not in ("cursor_factory", "context", "prepare_threshold")
    }


def _in_thread(work, args):
    """Run `work` on the hub's connection; once more on a new one if that connection was lost
    (the database restarted)."""
    close_old_connections()
    try:
        return work(*args)
    except DatabaseError:
        connection.close()
        return work(*args)


async def _disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _send(send, body: bytes) -> None:
    await send({"type": "http.response.body", "body": body, "more_body": True})
