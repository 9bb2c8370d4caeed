"""`manage.py backup` while phones save, on a SQLite file under gunicorn as production runs it:
the copy is whole (integrity_check), each completed round holds all its hands, every save
acknowledged before the backup began is in it; restored as the README says (stop the server,
copy the backup over the database file, delete its -wal and -shm, start again), the app serves
the restored games with totals equal to the sums of the copy's hands."""

import re
import secrets
import shutil
import sqlite3
import threading
import time
from contextlib import closing

import pytest

from tests.faults import Server, production_env
from tests.servers import make_tables, manage, send

pytestmark = pytest.mark.server

LAST_ROUND = 10  # of Three Thirteen's eleven: the games stay open; phones correct it till told
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
BEFORE_BACKUP = 24  # saves acknowledged before the backup begins


def entry(place: int, number: int, version: int) -> str:
    """A seat's entry in round `number`, each one unlike the one before: the first cards of
    its own suit, every other one with the last traded for a club of its own rank (so no card
    is in the round more often than its two decks hold)."""
    own = [f"{rank}{'SHD'[place]}" for rank in RANKS[: number + 2]]
    return " ".join(own if version % 2 == 0 else [*own[:-1], f"{RANKS[place]}C"])


def test_a_backup_taken_while_phones_save_is_whole_and_restores(tmp_path):
    database = tmp_path / "db.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    settings_dict = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(database)}
    secret_key = "test-" + secrets.token_hex(24)
    env = production_env(settings_dict, secret_key)
    manage(env, "migrate", "-v0")
    tables = make_tables(env, count=2)
    session = tables["session"]
    acknowledged = []  # (when, game, round number, seat, hand version)
    versions = {}  # (game, round number, seat): the hand's version the phone last saw
    refused = []
    counted = threading.Condition()

    backed_up = threading.Event()

    def phone(game, seat, place, port, table, plan):
        number = 1
        while True:
            path = f"/games/{game}/rounds/{number}/seats/{seat}/"
            saves = []
            if place != 0:  # an entry, then a correction
                first = versions.get((game, number, seat), 0)
                saves = [
                    # Runs of one suit meld completely: the phone has answered "cards left".
                    (v, {"outcome": "cards", "cards": entry(place, number, v), "answer": "cards"})
                    for v in (first, first + 1)
                ]
            elif (game, number, seat) not in versions:  # the first seat goes out (once a round)
                saves = [(0, {"outcome": "went_out", "cards": ""})]
            for version, fields in saves:
                fields |= {"save": "1", "version": version}
                answer = send(port, session, "POST", path, fields)
                with counted:
                    if answer.status != 200:
                        refused.append((answer.status, answer.body[:300]))
                        counted.notify_all()
                        table.abort()
                        return
                    hand = int(answer.headers["x-hand-version"])
                    versions[game, number, seat] = hand
                    acknowledged.append((time.monotonic(), game, number, seat, hand))
                    counted.notify_all()
            table.wait(timeout=120)  # the round is complete once the table's three have saved
            if plan["stop"]:
                return
            number = min(number + 1, LAST_ROUND)

    def plan_of_round(plan):
        # Run once a round by the table's last phone: one more round after the backup ended.
        plan["stop"], plan["ended"] = plan["ended"], backed_up.is_set()

    server = Server(settings_dict, secret_key, workers=3)
    port = server.port
    try:
        threads = []
        for game in tables["games"]:
            plan = {"stop": False, "ended": False}
            table = threading.Barrier(len(game["seats"]), action=lambda p=plan: plan_of_round(p))
            for place, seat in enumerate(game["seats"]):
                args = (game["pk"], seat, place, port, table, plan)
                threads.append(threading.Thread(target=phone, args=args))
        for thread in threads:
            thread.start()
        with counted:
            assert counted.wait_for(lambda: len(acknowledged) >= BEFORE_BACKUP or refused, 120)
        began = time.monotonic()
        manage(env, "backup", str(backup))
        ended = time.monotonic()
        backed_up.set()
        for thread in threads:
            thread.join(timeout=180)
        assert not refused, refused
        assert not any(thread.is_alive() for thread in threads)
    finally:
        server.stop()
    during = sum(began <= when <= ended for when, *_ in acknowledged)
    after = sum(when > ended for when, *_ in acknowledged)
    before = [save for save in acknowledged if save[0] < began]
    print(f"\n{len(before)} saves before the backup, {during} during it, {after} after it")
    assert after > 0, "no save came after the backup: it would not show a moment in play"

    with closing(sqlite3.connect(backup)) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        hands = copy.execute(
            "SELECT r.game_id, r.number, h.seat_id, h.version, h.points, r.completed_at"
            " FROM games_hand h JOIN games_round r ON r.id = h.round_id"
        ).fetchall()
        completed = copy.execute(
            "SELECT r.game_id, r.number, count(h.id) FROM games_round r"
            " LEFT JOIN games_hand h ON h.round_id = r.id"
            " WHERE r.completed_at IS NOT NULL GROUP BY r.id"
        ).fetchall()
        last_change = dict(
            copy.execute(
                "SELECT c.round_id || '/' || c.seat_id, c.new_points FROM games_handchange c"
                " WHERE c.id = (SELECT max(id) FROM games_handchange d"
                " WHERE d.round_id = c.round_id AND d.seat_id = c.seat_id)"
            ).fetchall()
        )
        stored_points = dict(
            copy.execute("SELECT round_id || '/' || seat_id, points FROM games_hand").fetchall()
        )
    assert completed, "no round was complete in the copy: the backup came too early"
    assert all(count == 3 for *_, count in completed), completed
    assert stored_points == last_change, "each hand is its latest change"
    copied = {(game, number, seat): version for game, number, seat, version, *_ in hands}
    for _, game, number, seat, version in before:
        assert copied.get((game, number, seat), 0) >= version, (game, number, seat, version)
    assert any(
        copied.get((game, number, seat), 0) < version
        for when, game, number, seat, version in acknowledged
        if when > ended
    ), "the copy is of a moment in play, not of the end"

    # Restore as the README says: the server is stopped; copy over, delete -wal and -shm.
    shutil.copyfile(backup, database)
    for beside in ("-wal", "-shm"):
        database.with_name(database.name + beside).unlink(missing_ok=True)
    totals = {}
    for game, _, seat, _, points, _ in hands:
        totals.setdefault(game, {}).setdefault(seat, 0)
        totals[game][seat] += points
    server = Server(settings_dict, secret_key, workers=1)
    port = server.port
    try:
        for game in tables["games"]:
            # What a phone at the table fetches: the game's and the round's live parts (the
            # whole pages want collectstatic's manifest, which a test does not make).
            page = send(port, session, "GET", f"/games/{game['pk']}/live/")
            assert page.status == 200
            foot = page.body.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
            shown = [int(points) for points in re.findall(r"<td[^>]*>(-?\d+)</td>", foot)]
            assert shown == [totals[game["pk"]].get(seat, 0) for seat in game["seats"]]
            last = max(number for pk, number, *_ in hands if pk == game["pk"])
            round_page = send(port, session, "GET", f"/games/{game['pk']}/rounds/{last}/live/")
            assert round_page.status == 200
    finally:
        server.stop()
