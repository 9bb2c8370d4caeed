"""PostgreSQL out of connections: gunicorn runs more workers (4) than the server's
max_connections (3) lets connect, and other clients hold them. A save that finds no connection
answers 503 saying the server is busy (never a 500), the phone resends it as the page's queue
does, and every save is stored once: the hands hold each phone's last acknowledged entry, one
change per acknowledged save."""

import os
import secrets
import threading
import time

import psycopg
import pytest

from games.views.errors import BUSY
from tests.faults import Server, database_env, production_env
from tests.servers import make_tables, manage, post_save, postgres, postgres_bin

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        postgres_bin() is None or os.geteuid() != 0,
        reason="starts its own PostgreSQL server (Debian's binaries, run as postgres by root)",
    ),
]

SAVES_A_PHONE = 3


def hands_of(place: int) -> list[str]:
    """A seat's entries, each new, in a suit of its own (no card more often than the decks)."""
    suit = "SHD"[place]
    return [f"K{suit} Q{suit} 2{suit}", f"K{suit} Q{suit} 4{suit}", f"K{suit} J{suit} 5{suit}"]


def test_more_threads_than_connections_answer_busy_never_500_and_lose_no_save():
    with postgres(max_connections=3, superuser_reserved_connections=0) as postgres_server:
        database = postgres_server | {"NAME": "scores"}
        url = database_env(database)["DATABASE_URL"]
        with psycopg.connect(url.replace("/scores", "/postgres"), autocommit=True) as admin:
            admin.execute("CREATE DATABASE scores")
        secret_key = "test-" + secrets.token_hex(24)
        env = production_env(database, secret_key)  # CONN_MAX_AGE 60: connections kept
        manage(env, "migrate", "-v0")
        tables = make_tables(env, count=2)
        # 6 phones, one a seat, each saving its own hand
        phones = [
            (game["pk"], seat, place)
            for game in tables["games"]
            for place, seat in enumerate(game["seats"])
        ]
        acknowledged = {seat: [] for _, seat, _ in phones}
        statuses, busy_bodies = [], []
        lock = threading.Lock()

        def phone(game, seat, place, port):
            path = f"/games/{game}/rounds/1/seats/{seat}/"
            for version, cards in enumerate(hands_of(place)):
                fields = {"outcome": "cards", "cards": cards, "save": "1", "version": version}
                for _ in range(200):  # the page's queue sends it again until it is taken
                    status, body = post_save(port, tables["session"], path, fields)
                    with lock:
                        statuses.append(status)
                        if status == 503:
                            busy_bodies.append(body)
                    if status != 503:
                        break
                if status == 200:
                    acknowledged[seat].append(cards)

        server = Server(database, secret_key, workers=4)
        # All three connections held by other clients while the phones begin, so that the
        # first saves find none (which workers take the phones' requests is the kernel's
        # choice: two of them may serve all); then two are let go, and one stays held, so
        # that the workers' own (one each, kept) run out again once a third worker serves.
        other_client = psycopg.connect(url)
        blockers = [psycopg.connect(url) for _ in range(2)]
        try:
            threads = [threading.Thread(target=phone, args=(*p, server.port)) for p in phones]
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + 60
            while not busy_bodies and time.monotonic() < deadline:
                time.sleep(0.01)  # until a save was answered busy
            for blocker in blockers:
                blocker.close()
            for thread in threads:
                thread.join(timeout=240)
            assert not any(thread.is_alive() for thread in threads)
        finally:
            server.stop()
            other_client.close()
            for blocker in blockers:
                blocker.close()

        with psycopg.connect(url) as database:
            stored = dict(database.execute("SELECT seat_id, cards FROM games_hand").fetchall())
            changes = dict(
                database.execute(
                    "SELECT seat_id, count(*) FROM games_handchange GROUP BY seat_id"
                ).fetchall()
            )

    refused = statuses.count(503)
    print(f"\n{len(statuses)} requests: {statuses.count(200)} saved, {refused} × 503 busy")
    assert set(statuses) <= {200, 503}, f"only saved or busy: {sorted(set(statuses))}"
    assert refused > 0, "the server never ran out of connections: the test proved nothing"
    assert all(
        BUSY in body.replace("&#x27;", "'") and "data-unreachable" in body for body in busy_bodies
    )
    for _, seat, _ in phones:
        assert len(acknowledged[seat]) == SAVES_A_PHONE, "every save went through in the end"
        assert stored[seat] == acknowledged[seat][-1]
        assert changes[seat] == SAVES_A_PHONE
