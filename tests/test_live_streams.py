"""The live table's streams (games.live): who may open one, who is told what and when, and what
becomes of a stream whose phone may no longer follow its table. Read from a stream served as
production serves it (the ASGI application under uvicorn), with a plain HTTP client."""

import http.client
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.test import Client
from django.utils import timezone

from games.access.streams import StreamGrant, still_allowed
from games.engine import CARDS
from games.live.changes import CSRF_MARK
from games.live.streams import HOLDER, Holder
from games.models import Entry, Game, Membership
from tests.helpers import on_own_loop

pytestmark = pytest.mark.django_db

SAVED = Entry(CARDS, "KS QD 2C")


@pytest.fixture
def bob(django_user_model, member):
    user = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=user, group=member.memberships.first().group)
    return user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def as_guest(game, device="Dee's phone") -> Client:
    client = Client()
    client.post(game.guest_passes.create().get_absolute_url(), {"device": device})
    return client


def save(game, name="Cid", entry=SAVED):
    game.rounds.get(number=1).save_hand(game.seats.get(player__name=name), entry)


class Stream:
    """A phone's stream, read event by event."""

    def __init__(self, server, client: Client | str, path: str):
        address = urlsplit(server.url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=5)
        name = settings.SESSION_COOKIE_NAME
        if isinstance(client, str):  # a session cookie's value
            headers = {"Cookie": f"{name}={client}"}
        else:
            cookie = client.cookies.get(name)
            headers = {"Cookie": f"{cookie.key}={cookie.value}"} if cookie else {}
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()

    def next_event(self) -> tuple[str, str] | None:
        """The next event but pings, as (name, data); None when the stream has ended."""
        name, data = "", []
        while True:
            line = self.response.readline().decode()
            if line == "":
                return None
            line = line.rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data.append(line.removeprefix("data: "))
            elif line == "" and name:
                if name != "ping":
                    return name, "\n".join(data)
                name, data = "", []

    def close(self):
        self.connection.close()


def test_served_by_a_wsgi_server_a_stream_answers_204_and_the_page_polls(
    signed_in, member, make_game
):
    game = make_game(member)
    response = signed_in.get(f"/games/{game.pk}/stream/")
    assert response.status_code == 204
    assert signed_in.get(f"/nights/{game.night_id}/stream/").status_code == 204


def grant_of(user) -> StreamGrant:
    """The grant a stream opened by this member's phone holds."""
    return StreamGrant(user.pk, signed_in(user).session[HASH_SESSION_KEY], None)


def test_who_may_still_follow_a_game_role_by_role(member, bob, make_game, make_member):
    game = make_game(member)
    ann, bobs, zeds = grant_of(member), grant_of(bob), grant_of(make_member("zed"))
    guest = StreamGrant(None, "", game.guest_passes.create().pk)
    ended = StreamGrant(None, "", game.guest_passes.create(ended_at=timezone.now()).pk)
    grants = {ann, bobs, zeds, guest, ended}
    assert still_allowed("game", game.pk, grants) == {ann, bobs, guest}
    assert still_allowed("night", game.night_id, grants) == {ann, bobs}

    Membership.objects.filter(user=bob).delete()  # removed
    member.set_password("a new one, changed on another phone")
    member.save()
    assert still_allowed("game", game.pk, grants) == {guest}

    game.finish()
    assert still_allowed("game", game.pk, grants) == set()


@pytest.fixture
def table(push_server, member, bob, make_game):
    return push_server, make_game(member, names=("Ann", "Bob", "Cid"))


@pytest.mark.waits  # on a stream, a server or an interval
def test_a_save_is_told_to_every_stream_of_its_game_and_night(table, member, bob):
    server, game = table
    ann = Stream(server, signed_in(member), f"/games/{game.pk}/stream/")
    night = Stream(server, signed_in(bob), f"/nights/{game.night_id}/stream/")
    guest = Stream(server, as_guest(game), f"/games/{game.pk}/stream/")
    version = str(game.version)
    assert ann.next_event() == ("version", version)  # the state the phone catches up from
    assert guest.next_event() == ("version", version)
    assert night.next_event() == ("version", f"1.{version}")

    save(game)
    told = str(game.version + 1)
    assert ann.next_event() == ("version", told)
    assert guest.next_event() == ("version", told)
    assert night.next_event() == ("version", f"1.{told}")
    for stream in (ann, night, guest):
        stream.close()


def save_through_the_view(client, game, name, cards):
    """A save as a phone makes it, through the view as the ASGI application runs it (which draws
    the change for the streams)."""
    token = HOLDER.set(Holder())
    try:
        seat = game.seats.get(player__name=name)
        game.refresh_from_db()
        hand = seat.hands.first()
        return client.post(
            f"/games/{game.pk}/rounds/1/seats/{seat.pk}/",
            {"outcome": CARDS, "cards": cards, "version": hand.version if hand else 0, "save": "1"},
            HTTP_HX_REQUEST="true",
        )
    finally:
        HOLDER.reset(token)


@pytest.mark.waits  # on a stream, a server or an interval
def test_a_saves_change_is_carried_drawn_as_each_phone_may_see_it(table, member, bob):
    server, game = table
    other_link = as_guest(game, "Eve's phone")  # a second guest link
    guest_phone = as_guest(game)
    ann = Stream(server, signed_in(member), f"/games/{game.pk}/stream/?round=1")
    guest = Stream(server, guest_phone, f"/games/{game.pk}/stream/?round=1")
    eve = Stream(server, other_link, f"/games/{game.pk}/stream/?round=1")
    other_round = Stream(server, signed_in(bob), f"/games/{game.pk}/stream/?round=2")
    score_table = Stream(server, signed_in(bob), f"/games/{game.pk}/stream/")
    for stream in (ann, guest, eve, other_round, score_table):
        assert stream.next_event() == ("version", str(game.version))
    assert followed(game)  # its round pages' streams marked it: its saves draw their changes

    # Ann saves Cid's hand from her phone.
    assert save_through_the_view(signed_in(member), game, "Cid", "KS QD 2C").status_code == 200
    before, after = game.version, game.version + 1
    name, data = ann.next_event()
    assert name == "change"
    head, parts = data.split("\n", 1)
    assert head.startswith(f'{before} "{after}.')  # from the version before, with its ETag
    assert "Cid</span> <strong>22</strong>" in parts and "Saved by ann" in parts
    assert "Undo last save: Cid" in parts  # a member may undo it, with the phone's own token
    assert 'name="csrfmiddlewaretoken"' in parts and CSRF_MARK not in parts
    for looking in (guest, eve):
        name, data = looking.next_event()
        assert name == "change"
        assert "Saved by a member" in data and "Saved by ann" not in data
        assert "Undo" not in data  # a guest link undoes only its own saves
    # Streams of another page are told the version, and ask.
    assert other_round.next_event() == ("version", str(after))
    assert score_table.next_event() == ("version", str(after))

    # The guest saves Bob's hand: its phone may undo that save, the other link's may not.
    assert save_through_the_view(guest_phone, game, "Bob", "9S 9D 8C").status_code == 200
    assert "Undo last save: Bob" in guest.next_event()[1]
    assert "Undo last save: Bob" in ann.next_event()[1]
    name, data = eve.next_event()
    assert name == "change" and "Bob</span>" in data and "Undo" not in data
    for stream in (ann, guest, eve, other_round, score_table):
        stream.close()


@pytest.mark.waits  # on a stream, a server or an interval
def test_a_removed_member_and_a_finished_games_guest_are_told_nothing_more(table, member, bob):
    server, game = table
    bobs = Stream(server, signed_in(bob), f"/games/{game.pk}/stream/")
    guest = Stream(server, as_guest(game), f"/games/{game.pk}/stream/")
    ann = Stream(server, signed_in(member), f"/games/{game.pk}/stream/")
    for stream in (bobs, guest, ann):
        assert stream.next_event()[0] == "version"

    Membership.objects.filter(user=bob).delete()
    save(game)
    assert bobs.next_event() == ("end", "")
    assert bobs.next_event() is None  # closed
    assert guest.next_event()[0] == "version"
    assert ann.next_event()[0] == "version"

    game.finish()
    assert guest.next_event() == ("end", "")
    assert guest.next_event() is None
    assert ann.next_event()[0] == "version"
    # And none of them may open a stream again.
    assert Stream(server, signed_in(bob), f"/games/{game.pk}/stream/").response.status == 404
    stranger = Stream(server, Client(), f"/games/{game.pk}/stream/")
    assert stranger.response.status == 302  # to log in
    ann.close()


@pytest.mark.waits  # on a stream, a server or an interval
def test_a_stopping_server_closes_its_streams_without_ending_them(table, member):
    server, game = table
    stream = Stream(server, signed_in(member), f"/games/{game.pk}/stream/")
    assert stream.next_event()[0] == "version"
    assert server.holding(1)
    server.app.loop.call_soon_threadsafe(server.app.hub.drain)
    assert stream.next_event() is None  # no "end": the phone opens its stream again


@pytest.mark.waits  # on a stream, a server or an interval
def test_pages_are_served_beside_the_streams(table, member):
    server, game = table
    stream = Stream(server, signed_in(member), f"/games/{game.pk}/stream/")
    assert stream.next_event()[0] == "version"
    page = Stream(server, signed_in(member), f"/games/{game.pk}/rounds/1/")
    assert page.response.status == 200
    assert b"Round 1" in page.response.read()
    assert server.streams() == 1
    stream.close()


def test_production_serves_the_live_application_around_djangos_pages():
    from games.live.asgi import LiveApplication
    from scorekeeper.asgi import application

    assert isinstance(application, LiveApplication)
    assert application.threads >= 1


def followed(game, timeout: float = 5) -> bool:
    """Wait until a hub has marked the game followed (it does once a round page's stream of it
    is held)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db(fields=["followed_until"])
        if game.followed_until is not None:
            return True
        time.sleep(0.01)
    return False


def round_stream(game, member, looks="member", csrf=""):
    """A phone's stream of the game's first round, as its view would open it for `member`'s
    phone (`looks`: as a change is drawn for it)."""
    from games.access.quick import Viewer
    from games.live.hub import Stream
    from games.live.streams import Opened

    opened = Opened(
        "game",
        game.pk,
        game.group_id,
        str(game.version),
        grant_of(member),
        round_number=1,
        looks=looks,
        csrf=csrf,
        viewer=Viewer(member.pk, game.group_id, ""),
    )
    return Stream(opened, opened.token)


@pytest.mark.django_db(transaction=True)  # the hub reads on a thread of its own
def test_a_change_is_carried_where_drawn_with_its_version_and_told_where_not(member, make_game):
    """A save made while a round page follows the game commits its drawn change with its
    version: the hub carries it at once, with no wait. One made while none followed is told as
    the version (the phone asks)."""
    import asyncio
    from types import SimpleNamespace

    from games.live.changes import drawing_save
    from games.live.hub import Hub

    game = make_game(member, names=("Ann", "Bob", "Cid"))
    topic = ("game", game.pk)
    hub = Hub()
    stream = round_stream(game, member, csrf="the-phones-token")

    async def joined():
        hub.join(stream)  # marks the game followed, on the hub's thread
        for _ in range(500):
            if await hub.run(lambda: Game.objects.get(pk=game.pk).followed_until):
                return
            await asyncio.sleep(0.01)

    async def told(version: int) -> None:
        stream.told = False
        await hub.tell(topic, str(version))
        assert stream.told and stream.token == str(version)  # at once: nothing to wait for

    run = on_own_loop
    phone = SimpleNamespace(time_zone="")
    try:
        run(joined())
        game.rounds.get(number=1).save_hand(
            game.seats.get(player__name="Cid"), SAVED, member, within=drawing_save(phone)
        )
        run(told(game.version + 1))
        assert stream.carry.startswith(f"id: {game.version + 1}\nevent: change\n".encode())
        assert b"the-phones-token" in stream.carry and CSRF_MARK.encode() not in stream.carry

        # Two saves within one look: both changes carried, one after the other, not an ask.
        for name, cards in (("Bob", "9S 9D 8C"), ("Ann", "7S 7D 7C")):
            game.rounds.get(number=1).save_hand(
                game.seats.get(player__name=name),
                Entry(CARDS, cards),
                member,
                within=drawing_save(phone),
            )
        run(told(game.version + 3))
        assert stream.carry.count(b"event: change\n") == 2
        first, second = (f"data: {game.version + n} " for n in (1, 2))
        assert stream.carry.index(first.encode()) < stream.carry.index(second.encode())

        Game.objects.filter(pk=game.pk).update(followed_until=None)  # none follows
        game.rounds.get(number=1).save_hand(
            game.seats.get(player__name="Bob"),
            Entry(CARDS, "9S 9D 9C", version=1),
            member,
            within=drawing_save(phone),
        )
        run(told(game.version + 4))
        assert stream.carry is None  # the version only: the phone asks
    finally:
        hub.close()


@pytest.mark.waits  # on a stream, a server or an interval
@pytest.mark.django_db(transaction=True)  # the hub reads on a thread of its own
@pytest.mark.parametrize(
    ("inotify", "max_age"),
    [(True, None), (True, 0), (False, None)],
    ids=["inotify", "inotify-connection-a-read", "polled"],
)
def test_an_idle_sqlite_hub_reads_nothing_until_the_database_is_written(
    member, make_game, inotify, max_age
):
    """The watch hears of the database's writes from inotify (or, without it, looks at the
    files' times on the loop); the versions are read (a thread woken, a query) only when the
    files were written (with inotify, once more WATCH_EVERY later), or every LOOK_WATCHED
    (LOOK_ANYWAY polled). The hub closing its own connection at each read (CONN_MAX_AGE=0) is
    no write."""
    import asyncio
    from unittest import mock

    from django.db import connection

    from games.live import hub as hubs

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's watch: a hub on PostgreSQL listens for the saves' notifications")
    game = make_game(member, names=("Ann", "Bob", "Cid"))
    hub = hubs.Hub()
    reads = []
    every = hubs.WATCH_EVERY / 4
    states = hubs._states

    def counted(*args):
        reads.append(args)
        return states(*args)

    async def watched():
        hub.topics[("game", game.pk)] = {object()}
        watching = asyncio.ensure_future(hub.watch())
        for _ in range(1000):  # the first read, at the start, however busy the machine
            if reads:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(8 * every)  # nothing written: no read after the first
        idle = len(reads)
        await hub.run(save, game, "Cid")
        for _ in range(1000):  # the reads the write brings, however busy the machine
            if len(reads) - idle >= (2 if inotify else 1):
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(6 * every)  # and no more after them
        written = len(reads) - idle
        watching.cancel()
        return idle, written

    watch = hubs.FileWrites.watch if inotify else lambda files: None
    polled = []
    poll = hub.poll

    async def counted_poll(files):
        polled.append(files)
        await poll(files)

    settings = connection.settings_dict
    age = settings["CONN_MAX_AGE"]
    if max_age is not None:
        settings["CONN_MAX_AGE"] = max_age
    try:
        with (
            mock.patch.object(hubs, "_states", counted),
            mock.patch.object(hub, "tell"),
            mock.patch.object(hub, "poll", counted_poll),
            mock.patch.object(hubs.FileWrites, "watch", watch),
            # The intervals a quarter of the site's (the test's waits count them, not seconds);
            # the reads made anyway (every LOOK_ANYWAY, 2 s, polled) put past the test's end, so
            # that a machine slow enough to take that long counts no read the test did not ask.
            mock.patch.object(hubs, "WATCH_EVERY", every),
            mock.patch.object(hubs, "LOOK_ANYWAY", 600.0),
            mock.patch.object(hubs, "LOOK_WATCHED", 600.0),
        ):
            idle, written = on_own_loop(watched())
    finally:
        settings["CONN_MAX_AGE"] = age
        hub.close()
    assert bool(polled) is not inotify  # the watch that was asked for
    assert idle == 1 and written == (2 if inotify else 1)


@pytest.mark.django_db(transaction=True)  # the hub reads on a thread of its own
def test_a_hub_marks_a_game_followed_by_guests_only_while_a_guests_round_page_follows(
    member, make_game
):
    """A member's round page marks the game followed (its changes drawn for members); a
    guest's marks it followed by guests too (drawn for guests as well)."""
    import asyncio

    from games.live.hub import Hub, Stream

    game = make_game(member, names=("Ann", "Bob", "Cid"))
    hub = Hub()

    def marks():
        return Game.objects.values_list("followed_until", "guests_followed_until").get(pk=game.pk)

    async def joined(stream: Stream, field: int):
        hub.join(stream)
        for _ in range(500):
            if (await hub.run(marks))[field] is not None:
                return await hub.run(marks)
            await asyncio.sleep(0.01)
        raise AssertionError("never marked")

    try:
        members, guests = on_own_loop(joined(round_stream(game, member), 0))
        assert members is not None and guests is None
        members, guests = on_own_loop(joined(round_stream(game, member, "guest:7"), 1))
        assert guests is not None and members == guests
    finally:
        hub.close()
