"""Phones following the table live, against the app as production runs it: gunicorn with 3
workers, DEBUG=0, on PostgreSQL (or a SQLite file). 50 phones poll the live URLs with the ETag
they last saw, as static/js/live.js does:

1. as fast as answers come, nothing changing: polls a second, p50 and p95 of a 304;
2. at the table's pace (each phone every 2 s) while one phone of each game saves a hand every
   3 s: polls a second, p95 of a 304 and of a 200, and how long a save takes to reach every
   other phone of its game;
3. in-process, the SQL queries of an unchanged poll (a 304) and of a changed one (a 200).

    uv run python bench/bench_live.py --postgres postgres://postgres@127.0.0.1:55433/bench

The database given is emptied and migrated (created first when it does not exist). Not a
test: it prints figures.
"""

import argparse
import http.client
import os
import random
import re
import secrets
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_races import Phone, configure, save, serve  # noqa: E402

PHONES = 50
PHONES_A_GAME = 5
EVERY = 2.0  # seconds between two polls of a phone, as live.js
SAVE_EVERY = 3.0  # seconds between two saves of a game's saving phone


class Poller(Phone):
    """A phone that also asks a live URL with the ETag it last saw."""

    def __init__(self, port, session, url):
        super().__init__(port, session)
        self.url, self.etag = url, ""

    def poll(self) -> tuple[int, float, str]:
        headers = {"Cookie": self.cookie}
        if self.etag:
            headers["If-None-Match"] = self.etag
        start = time.perf_counter()
        try:
            self.connection.request("GET", self.url, headers=headers)
            response = self.connection.getresponse()
            body = response.read().decode()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            return 599, time.perf_counter() - start, ""
        if response.status == 200:
            self.etag = response.getheader("ETag", "")
        return response.status, time.perf_counter() - start, body


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def ms(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database of `url` if the server does not have it yet."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as server:
        if not server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            server.execute(f'CREATE DATABASE "{name}"')


def set_up_table():
    """A group of 50 members at 10 games of five players; each phone is one member's."""
    from django.contrib.auth.models import User
    from django.test import Client

    from games.models import Game, Group, Membership

    group = Group.objects.create(name="bench")
    sessions = []
    for index in range(PHONES):
        user = User.objects.create_user(f"phone-{index}-{secrets.token_hex(3)}", password=None)
        Membership.objects.create(user=user, group=group)
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    games = [
        Game.objects.start(group=group, kind="three-thirteen", players=names, rules={})
        for _ in range(PHONES // PHONES_A_GAME)
    ]
    return group, sessions, games


def live_url(game, page: str) -> str:
    return {
        "game": f"/games/{game.pk}/live/",
        "round": f"/games/{game.pk}/rounds/1/live/",
        "night": f"/nights/{game.night_id}/live/",
    }[page]


def flat_out(port, sessions, games, seconds: float):
    """Every phone polls as fast as answers come; nothing changes, so each answer is a 304."""
    pages = ["round", "game", "night"]
    phones = [
        Poller(port, session, live_url(games[i // PHONES_A_GAME], pages[i % 3]))
        for i, session in enumerate(sessions)
    ]
    for phone in phones:  # the ETag each page was drawn with
        phone.poll()
    latencies: dict[str, list[float]] = {page: [] for page in pages}
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def run(index):
        mine, seen = [], {}
        while time.perf_counter() < stop:
            status, took, _ = phones[index].poll()
            mine.append(took)
            seen[status] = seen.get(status, 0) + 1
        with lock:
            latencies[pages[index % 3]].extend(mine)
            for status, count in seen.items():
                statuses[status] = statuses.get(status, 0) + count

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, statuses


def at_the_table(port, sessions, games, seconds: float):
    """Each phone polls its game's round every 2 s while one phone of each game re-saves a
    hand every 3 s; the saved hand's version is read from the panels each 200 brings."""
    saved_at: dict[tuple[int, int], float] = {}  # (game, version) -> when the save answered
    seen_at: list[tuple[int, int, float]] = []  # (phone, version, when that phone had it)
    latencies: dict[int, list[float]] = {200: [], 304: []}
    errors = [0]
    lock = threading.Lock()
    start = time.perf_counter()
    stop = start + seconds
    seats = {game.pk: game.seats.get(position=1) for game in games}

    def follow(index):
        game = games[index // PHONES_A_GAME]
        phone = Poller(port, sessions[index], live_url(game, "round"))
        phone.poll()
        key = re.compile(rf'id="hand-{seats[game.pk].pk}"[^>]*data-live-key="(\d+) ')
        time.sleep(random.uniform(0, EVERY))
        while time.perf_counter() < stop:
            began = time.perf_counter()
            status, took, body = phone.poll()
            with lock:
                if status not in latencies:
                    errors[0] += 1
                elif began >= start + EVERY:  # not the phones' first polls, all at once
                    latencies[status].append(took)
                if status == 200 and (found := key.search(body)):
                    seen_at.append((index, int(found.group(1)), time.perf_counter()))
            time.sleep(max(0.0, EVERY - (time.perf_counter() - began)))

    def write(number):
        game = games[number]
        phone = Phone(port, sessions[number * PHONES_A_GAME])
        hands, version = ("2C 5D 9H", "KS 4D 8C"), 0
        time.sleep(random.uniform(0.5, SAVE_EVERY))
        while time.perf_counter() < stop - EVERY - 1:
            status, _ = save(phone, game, 1, seats[game.pk], hands[version % 2], version=version)()
            if status == 200:
                version += 1
                with lock:
                    saved_at[(game.pk, version)] = time.perf_counter()
            time.sleep(SAVE_EVERY)

    threads = [threading.Thread(target=follow, args=(i,)) for i in range(PHONES)]
    threads += [threading.Thread(target=write, args=(n,)) for n in range(len(games))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # For each save and each other phone of its game: how long until that phone had it (or a
    # later version), counted from the save's answer on the saving phone.
    reached, missed = [], 0
    for (game_pk, version), answered in saved_at.items():
        for index in range(PHONES):
            if games[index // PHONES_A_GAME].pk != game_pk or index % PHONES_A_GAME == 0:
                continue  # another game's phone, or the saving phone's own
            times = [t for i, v, t in seen_at if i == index and v >= version]
            if times:
                reached.append(max(0.0, min(times) - answered))
            else:
                missed += 1
    return latencies, errors[0], len(saved_at), reached, missed


def queries_per_poll(group, games):
    """The SQL an unchanged poll and a changed one run, counted in-process."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Entry

    client = Client()
    client.force_login(User.objects.filter(membership__group=group).first())
    game = games[0]
    rows = []
    for position, page in enumerate(("game", "round", "night"), start=2):
        url = live_url(game, page)
        etag = client.get(url)["ETag"]
        with CaptureQueriesContext(connection) as unchanged:
            status = client.get(url, HTTP_IF_NONE_MATCH=etag).status_code
        assert status == 304, status
        game.rounds.get(number=1).save_hand(
            game.seats.get(position=position), Entry("points", "", random.randint(1, 99))
        )
        with CaptureQueriesContext(connection) as changed:
            status = client.get(url, HTTP_IF_NONE_MATCH=etag).status_code
        assert status == 200, status
        rows.append((page, len(unchanged), len(changed), unchanged.captured_queries))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its database is emptied)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each run")
    args = parser.parse_args()
    if args.postgres:
        ensure_database(args.postgres)
    env = configure(args.postgres)
    env["ALLOWED_HOSTS"] = os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("flush", interactive=False, verbosity=0) if args.postgres else None
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    group, sessions, games = set_up_table()
    connections.close_all()
    server, port = serve(env)
    try:
        database = "PostgreSQL" if args.postgres else "SQLite (file, WAL)"
        print(f"gunicorn, 3 workers, DEBUG=0, {database}; {PHONES} phones, "
              f"{len(games)} games of {PHONES_A_GAME}; client and server share this machine "
              f"({os.cpu_count()} cores)")  # fmt: skip

        seconds = args.seconds
        latencies, statuses = flat_out(port, sessions, games, seconds)
        polls = sum(len(values) for values in latencies.values())
        print(f"\n1. Unchanged table, phones polling as fast as answers come ({seconds:.0f} s):")
        print(f"   {polls / seconds:.0f} polls/s, answers {statuses}")
        print(f"   {'live URL':<10} {'polls':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
        for page, values in latencies.items():
            p50, p95, worst = (ms(values, share) for share in (0.5, 0.95, 1.0))
            print(f"   {page:<10} {len(values):>6} {p50:>7.1f} {p95:>7.1f} {worst:>7.1f}")

        latencies, errors, saves, reached, missed = at_the_table(port, sessions, games, seconds)
        polls = len(latencies[200]) + len(latencies[304])
        print(f"\n2. At the table's pace ({seconds:.0f} s): each phone polls its round every "
              f"{EVERY:.0f} s, one phone of each game saves every {SAVE_EVERY:.0f} s")  # fmt: skip
        rate = polls / (seconds - EVERY)  # the first 2 s are left out of the figures
        print(f"   {rate:.1f} polls/s, {saves} saves, {errors} failed polls")
        for status in (304, 200):
            values = latencies[status]
            print(f"   {status}: {len(values)} answers, p50 {ms(values, 0.5):.1f} ms, "
                  f"p95 {ms(values, 0.95):.1f} ms")  # fmt: skip
        if reached:
            p50, p95 = percentile(reached, 0.5), percentile(reached, 0.95)
            print(f"   a save reached the other phones of its game within p50 {p50:.2f} s, "
                  f"p95 {p95:.2f} s, max {max(reached):.2f} s "
                  f"({len(reached)} arrivals, {missed} missed)")  # fmt: skip
    finally:
        server.terminate()
        server.wait(timeout=10)

    print("\n3. SQL queries of one poll (in-process):")
    print(f"{'live URL':<10} {'unchanged (304)':>16} {'changed (200)':>14}")
    rows = queries_per_poll(group, games)
    for page, unchanged, changed, _ in rows:
        print(f"{page:<10} {unchanged:>16} {changed:>14}")
    print("An unchanged poll's queries (the round's):")
    for query in rows[1][3]:
        print("  " + query["sql"][:150])


if __name__ == "__main__":
    main()
