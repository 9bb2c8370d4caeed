"""Server time of each history page for a group with 500 game nights of 4 to 6 players
(in-process, SQLite, production settings): the median and p95 of 20 requests after one to
warm up, and the queries each request makes; then the first look at the look-back's pages
after an old round is corrected (what its key makes stale is worked out again).

    uv run python -m bench.bench_history
"""

import argparse
import statistics
import time

from bench.serving import configure, member

NIGHTS = 500
RUNS = 20
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


def timed(client, url, runs, before=None):
    """`runs` requests of `url` (each after `before`, if given): their times in ms and the
    queries of the last."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    for _ in range(runs):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return times, len(queries)


def main(argv=None):
    # No options: --help says what it does and runs nothing (before, it ran the whole bench).
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="It takes a minute or two: 500 nights are built first.",
    )
    parser.parse_args(argv)
    configure()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from bench.history_data import build_history
    from games.models import Entry, Game, GuestPass, Hand, Player

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("collectstatic", interactive=False, verbosity=0)
    user, _ = member("bench")
    group = user.memberships.get().group
    build_history(group, NIGHTS, names=NAMES, seated=(4, 6))
    client = Client()
    client.force_login(user)
    player = Player.objects.filter(group=group).order_by("name").first()
    night = group.nights.order_by("-date").first()
    year = night.date.year
    guest_pass = GuestPass.objects.create(game=night.games.first())
    pages = [
        ("home", "/"),
        ("game nights (search page 1)", "/nights/"),
        ("game nights, by player and game", f"/nights/?player={player.pk}&kind=rummy13"),
        ("one game night, with its story", f"/nights/{night.pk}/"),
        ("the night's live part", f"/nights/{night.pk}/live/"),
        ("share page", f"/nights/{night.pk}/share/"),
        ("share picture, light (PNG)", f"/nights/{night.pk}/picture.png"),
        ("share picture, dark (PNG)", f"/nights/{night.pk}/picture.png?theme=dark"),
        ("guest link page (preview)", guest_pass.get_absolute_url()),
        ("guest link picture (PNG)", guest_pass.get_absolute_url() + "picture.png"),
        ("player page", f"/players/{player.pk}/"),
        ("group: wins and ratings", "/group/"),
        (
            "group, Three Thirteen, one year",
            f"/group/?kind=three-thirteen&start={year}-01-01&end={year}-12-31",
        ),
        ("records", "/group/records/"),
        (f"year in review {year}", f"/group/year/{year}/"),
    ]  # fmt: skip
    games = group.games.count()
    hands = Hand.objects.filter(round__game__group=group).count()
    print(
        f"History pages with {NIGHTS} game nights ({games} games of 4-6 players, {hands} hands),"
        f" server time in-process on SQLite, {RUNS} requests after a warm-up:"
    )
    print(f"  {'page':38s} {'median':>8s} {'p95':>8s} {'queries':>8s}")
    for name, url in pages:
        client.get(url)
        times, queries = timed(client, url, RUNS)
        median = statistics.median(times)
        print(f"  {name:38s} {median:6.1f} ms {p95(times):6.1f} ms {queries:8d}")

    for name, url in [
        ("export CSV, whole group", "/group/export.csv"),
        ("export JSON, whole group", "/group/export.json"),
    ]:
        times, queries = timed(client, url, 3)
        median = statistics.median(times)
        print(f"  {name:38s} {median:6.0f} ms {max(times):6.0f} ms {queries:8d}  (of 3, max)")

    from games.history import kept, shared

    print("Drawn or told afresh each time (nothing kept from the request before):")
    afresh = [
        ("share picture, light, drawn afresh", f"/nights/{night.pk}/picture.png", shared.forget),
        ("share picture, dark, drawn afresh", f"/nights/{night.pk}/picture.png?theme=dark",
         shared.forget),
        ("records, the whole group told afresh", "/group/records/", kept.forget),
    ]  # fmt: skip
    for name, url, forget in afresh:
        times, queries = timed(client, url, RUNS // 4, before=forget)
        median = statistics.median(times)
        print(f"  {name:38s} {median:6.1f} ms {max(times):6.1f} ms {queries:8d}  (max)")

    # An old round corrected: the game reopened, one hand saved again, the game finished.
    old = Game.objects.filter(group=group, kind="three-thirteen").order_by("created_at").first()
    old.reopen()
    first = old.rounds.get(number=1)
    hand = first.hands.exclude(outcome="went_out").select_related("seat").first()
    # The made-up history holds the same three cards in every hand, more than the decks have:
    # the other hands' cards are cleared (their points kept) so the save's supply check passes.
    first.hands.exclude(pk=hand.pk).update(cards="")
    first.save_hand(hand.seat, Entry("cards", "KS QD JC", version=hand.version))
    old.refresh_from_db()
    old.finish()
    print("The first look after an old round is corrected (its game told again, then the")
    print("records and ratings worked out again from the kept tales):")
    for name, url in [
        ("records", "/group/records/"),
        ("player page", f"/players/{player.pk}/"),
        ("group: wins and ratings", "/group/"),
        (f"year in review {year}", f"/group/year/{year}/"),
    ]:
        (took,), queries = timed(client, url, 1)
        print(f"  {name:38s} {took:6.1f} ms {queries:8d} queries")


if __name__ == "__main__":
    main()
