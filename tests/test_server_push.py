"""The live table as production serves it, through what a real table's network does: a phone
whose worker is killed under its stream catches up once the server is back, and two app
servers on one database behind a balancer that is not sticky tell each other's saves to their
phones. On SQLite (a file) and, in CI, on PostgreSQL (LISTEN/NOTIFY across the servers)."""

import os
import secrets
import signal
import time

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import expect

from games.engine import CARDS
from games.models import Entry
from tests.browser import panel_for, signed_in_phone
from tests.factories import game as new_game
from tests.factories import member as new_member
from tests.faults import Balancer, Server, database_env, production_env
from tests.servers import make_tables, manage, post_save, postgres, postgres_bin, restart_postgres
from tests.test_live_streams import Stream
from tests.test_live_streams import signed_in as client_of

pytestmark = [pytest.mark.server, pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BACK_WITHIN = 3_000  # ms after the server is back: a cut stream shows every change it missed
SHOWN_WITHIN = 0.5  # s: a save on one server reaches a stream held by the other


def save_on_the_server(game, name: str, cards: str):
    game.rounds.get(number=1).save_hand(game.seats.get(player__name=name), Entry(CARDS, cards))


def test_a_phone_whose_worker_is_killed_under_its_stream_catches_up(browser):
    server = Server(connection.settings_dict, settings.SECRET_KEY, workers=2, pages=True)
    ann = new_member("ann")
    game = new_game(ann, names=("Ann", "Bob", "Cid"))
    context, page = signed_in_phone(browser, server, ann)
    try:
        page.goto(f"/games/{game.pk}/rounds/1/")
        expect(page.locator("[data-live-url]")).to_have_attribute("data-live-state", "stream")
        for worker in server.workers():
            os.kill(worker, signal.SIGKILL)
        save_on_the_server(game, "Cid", "KS QD 2C")  # while no worker holds the stream
        save_on_the_server(game, "Bob", "9S 9D 8C")
        while not server.answers():  # gunicorn starts new workers
            time.sleep(0.05)
        expect(panel_for(page, "Cid").locator("summary")).to_contain_text(
            "Cards left · 22", timeout=BACK_WITHIN
        )
        expect(panel_for(page, "Bob").locator("summary")).to_contain_text(
            "Cards left · 26", timeout=BACK_WITHIN
        )
        # The stream is open again on a new worker: the next save comes by it.
        expect(page.locator("[data-live-url]")).to_have_attribute(
            "data-live-state", "stream", timeout=BACK_WITHIN
        )
        save_on_the_server(game, "Ann", "5H 6H 7H")
        expect(panel_for(page, "Ann").locator("summary")).to_contain_text("· 0")
    finally:
        context.close()
        server.stop()


def test_two_servers_behind_a_balancer_tell_each_others_saves(browser):
    one = Server(connection.settings_dict, settings.SECRET_KEY, workers=1, pages=True)
    two = Server(connection.settings_dict, settings.SECRET_KEY, workers=1, pages=True)
    balancer = Balancer([one.port, two.port])
    balancer.start()
    ann = new_member("ann")
    game = new_game(ann, names=("Ann", "Bob", "Cid"))
    session = client_of(ann).cookies[settings.SESSION_COOKIE_NAME].value
    context, page = signed_in_phone(browser, balancer, ann)
    try:
        # A stream held by each server; each save posted to the other one.
        streams = {
            one: Stream(two, client_of(ann), f"/games/{game.pk}/stream/"),
            two: Stream(one, client_of(ann), f"/games/{game.pk}/stream/"),
        }
        for stream in streams.values():
            assert stream.next_event()[0] == "version"
        page.goto(f"/games/{game.pk}/rounds/1/")
        expect(page.locator("[data-live-url]")).to_have_attribute("data-live-state", "stream")
        delays = []
        for server, (name, cards, shown) in zip(
            (one, two, one),
            [
                ("Cid", "KS QD 2C", "Cards left · 22"),
                ("Bob", "9S 9D 8C", "Cards left · 26"),
                ("Ann", "5H 6H 10C", "Cards left · 21"),
            ],
            strict=True,
        ):
            seat = game.seats.get(player__name=name)
            version = 0
            started = time.monotonic()
            status, _ = post_save(
                server.port,
                session,
                f"/games/{game.pk}/rounds/1/seats/{seat.pk}/",
                {"outcome": "cards", "cards": cards, "save": "1", "version": version},
            )
            assert status == 200
            assert streams[server].next_event()[0] == "version"
            delays.append(time.monotonic() - started)
            expect(panel_for(page, name).locator("summary")).to_contain_text(shown)
        print(f"save on one server to the other's stream: {[round(d, 3) for d in delays]} s")
        assert max(delays) <= SHOWN_WITHIN
    finally:
        context.close()
        balancer.close()
        one.stop()
        two.stop()


@pytest.mark.skipif(
    postgres_bin() is None or os.geteuid() != 0,
    reason="starts its own PostgreSQL server (Debian's binaries, run as postgres by root)",
)
def test_streams_hear_again_after_a_postgresql_restart():
    with postgres() as postgres_server:
        database = postgres_server | {"NAME": "scores"}
        url = database_env(database)["DATABASE_URL"]
        with psycopg.connect(url.replace("/scores", "/postgres"), autocommit=True) as admin:
            admin.execute("CREATE DATABASE scores")
        secret_key = "test-" + secrets.token_hex(24)
        env = production_env(database, secret_key)
        manage(env, "migrate", "-v0")
        tables = make_tables(env, count=1)
        game, seats = tables["games"][0]["pk"], tables["games"][0]["seats"]
        server = Server(database, secret_key, workers=1)
        try:
            stream = Stream(server, tables["session"], f"/games/{game}/stream/")
            assert stream.next_event() == ("version", "1")
            restart_postgres(postgres_server["PORT"])  # the worker's LISTEN connection drops
            path = f"/games/{game}/rounds/1/seats/{seats[0]}/"
            fields = {"outcome": "cards", "cards": "KS QD 2C", "save": "1", "version": 0}
            for _ in range(50):  # the page's queue sends it again while the database is away
                status, _ = post_save(server.port, tables["session"], path, fields)
                if status != 503:
                    break
            assert status == 200
            # The worker listens again (and reads what it may have missed): the stream is told.
            assert stream.next_event() == ("version", "2")
        finally:
            server.stop()
