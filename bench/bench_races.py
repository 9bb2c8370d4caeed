"""Every phone saving at once, against the app as production runs it: gunicorn with 2 workers,
DEBUG=0, on a SQLite file or on PostgreSQL. Counts server errors and wrong score tables in
the race scenarios of issue 12, then measures how many saves a second one round takes before a
phone waits more than 200 ms.

    uv run python -m bench.bench_races                       # SQLite file
    uv run python -m bench.bench_races --postgres postgres://postgres@127.0.0.1:5432/bench

The database given is emptied and migrated. Not a test: it prints figures.
"""

import argparse
import threading
import time
from itertools import combinations

from bench.serving import Phone, configure, member, race, serve


def save(phone, game, number, seat, cards="", outcome="cards", version=0, points=""):
    path = f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/"
    data = {"outcome": outcome, "cards": cards, "points": points, "version": version, "save": "1"}
    return lambda: phone.post(path, data)


class Tally:
    def __init__(self, name):
        self.name, self.saves, self.errors, self.wrong = name, 0, 0, 0

    def count(self, statuses, right: bool):
        self.saves += len(statuses)
        self.errors += sum(status >= 500 for status in statuses)
        self.wrong += not right


def scenarios(phones, user):
    from games.models import Game, Hand

    def new_game(**rules):
        kind = rules.pop("kind", "three-thirteen")
        names = rules.pop("names", ["Ann", "Bob", "Cid"])
        return Game.objects.start(
            group=user.memberships.first().group, kind=kind, players=names, rules=rules, user=user
        )

    hands = [
        " ".join(c) for c in combinations(["KS", "QD", "2C", "KC", "QH", "AD", "7C", "8D", "9H"], 3)
    ]
    tallies = []
    for count, times in ((2, 40), (10, 20)):
        tally = Tally(f"{count} phones save the same new hand, {times} times")
        for _ in range(times):
            game = new_game()
            seat = game.seats.get(position=1)
            statuses = race([save(phones[i], game, 1, seat, hands[i]) for i in range(count)])
            stored = Hand.objects.filter(round__game=game, seat=seat)
            right = sorted(statuses) == [200] + [409] * (count - 1) and stored.count() == 1
            tally.count(statuses, right)
        tallies.append(tally)
    for count, times in ((2, 20), (10, 20)):
        tally = Tally(f"{count} phones re-save one hand with the version they read, {times} times")
        game = new_game()
        seat = game.seats.get(position=1)
        save(phones[0], game, 1, seat, "2S 3S 4H")()
        offset = 0
        for version in range(1, times + 1):
            chosen = hands[offset : offset + count]
            offset = (offset + count) % (len(hands) - count)
            statuses = race(
                [save(phones[i], game, 1, seat, chosen[i], version=version) for i in range(count)]
            )
            hand = Hand.objects.get(round__game=game, seat=seat)
            right = sorted(statuses) == [200] + [409] * (count - 1) and hand.version == version + 1
            tally.count(statuses, right)
        tallies.append(tally)
    deal = [
        (0, "went_out", "AH 2H 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC", ""),
        (1, "cards", "9C 10C JC 2D 4S 6H 8S QD KS AD 3C 5H 7D", ""),
        (2, "cards", "2S 2C 2D 4D 6C 8H 10S QS KD AC 3S 5D 7H", ""),
    ]
    tally = Tally("each phone saves its own hand of a Rummy deal at once, 12 deals")
    for _ in range(12):
        game = new_game(kind="rummy13")
        seats = list(game.seats.all())
        statuses = race(
            [
                save(phones[i], game, 1, seats[p], c, o, points=n)
                for i, (p, o, c, n) in enumerate(deal)
            ]
        )
        points = dict(Hand.objects.filter(round__game=game).values_list("seat__position", "points"))
        right = points == {0: 0, 1: 130, 2: 158} and game.rounds.filter(number=2).exists()
        tally.count(statuses, right)
    tallies.append(tally)
    pool = [
        [(0, "went_out", "", ""), (1, "points", "", "90"), (2, "points", "", "30")],
        [(1, "went_out", "", ""), (0, "points", "", "40"), (2, "drop", "", "")],
        [(0, "went_out", "", ""), (1, "points", "", "20"), (2, "points", "", "75")],
    ]
    tally = Tally("each phone saves its hand of a pool game crossing 101 at once, 4 games")
    for _ in range(4):
        game = new_game(kind="rummy13", format="pool", pool_limit=101)
        seats = list(game.seats.all())
        for number, entries in enumerate(pool, start=1):
            statuses = race(
                [
                    save(phones[i], game, number, seats[p], c, o, points=n)
                    for i, (p, o, c, n) in enumerate(entries)
                ]
            )
            tally.saves += len(statuses)
            tally.errors += sum(status >= 500 for status in statuses)
        game.refresh_from_db()
        second = game.rounds.get(number=2)
        right = (
            second.dealer.position == 1
            and game.finished_at is not None
            and game.rounds.count() == 3
        )
        tally.wrong += not right
    tallies.append(tally)
    tally = Tally("the same card on two hands of a one-deck round at once, 6 times")
    for _ in range(6):
        game = new_game(names=["Ann", "Bob"], decks=1)
        ann, bob = game.seats.all()
        statuses = race(
            [save(phones[0], game, 1, ann, "KS QD 2C"), save(phones[1], game, 1, bob, "KS 9D 4H")]
        )
        held = sum(h.cards.split().count("KS") for h in Hand.objects.filter(round__game=game))
        tally.count(statuses, sorted(statuses) == [200, 422] and held == 1)
    tallies.append(tally)
    return tallies


def load(phones, game, seats, count: int, seconds: float) -> tuple[list[float], int]:
    """`count` phones each re-save their own hand of the round for `seconds`: latencies, and
    how many saves were refused."""
    latencies: list[float] = []
    refused = [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def run(index):
        version, flip, mine = 0, 0, []
        # Each phone its own cards: three, then the next three of its suit's ranks.
        suit, ranks = "CDHS"[index % 4], ("2 4 6 8 10 Q" if index < 4 else "3 5 7 9 J K")
        own = ranks.split()
        pair = (" ".join(r + suit for r in own[:3]), " ".join(r + suit for r in own[3:]))
        while time.perf_counter() < stop:
            status, took = save(phones[index], game, 1, seats[index], pair[flip], version=version)()
            mine.append(took)
            if status == 200:
                version, flip = version + 1, 1 - flip
            else:
                with lock:
                    refused[0] += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(latencies), refused[0]


def throughput(phones, user, seconds=4.0):
    """Phones each re-saving their own hand of one round as fast as answers come."""
    from games.models import Game

    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
    rows = []
    for count in (1, 2, 4, 8):
        game = Game.objects.start(
            group=user.memberships.first().group,
            kind="three-thirteen",
            players=names,
            rules={"decks": 4},
        )
        latencies, refused = load(phones, game, list(game.seats.all()), count, seconds)
        p95 = latencies[int(len(latencies) * 0.95)]
        rows.append((count, len(latencies) / seconds, p95, latencies[-1], refused))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its database is emptied)")
    args = parser.parse_args()
    env = configure(args.postgres)
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    user, session = member("bench")
    from django.db import connections

    connections.close_all()
    server, port = serve(env)
    try:
        phones = [Phone(port, session) for _ in range(10)]
        database = "PostgreSQL" if args.postgres else "SQLite (file, WAL)"
        print(f"gunicorn, 2 workers, DEBUG=0, {database}")
        print(f"{'scenario':<80} {'saves':>6} {'5xx':>4} {'wrong':>6}")
        for tally in scenarios(phones, user):
            print(f"{tally.name:<80} {tally.saves:>6} {tally.errors:>4} {tally.wrong:>6}")
        print("\nOne round, each phone re-saving its own hand as fast as answers come:")
        print(f"{'phones':>6} {'saves/s':>8} {'p95 ms':>7} {'max ms':>7} {'refused':>8}")
        for count, rate, p95, worst, refused in throughput(phones, user):
            print(f"{count:>6} {rate:>8.0f} {p95 * 1000:>7.0f} {worst * 1000:>7.0f} {refused:>8}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
