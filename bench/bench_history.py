"""Server time of each history page for a group with 500 game nights (in-process, SQLite,
production settings).

    uv run python -m bench.bench_history
"""

import statistics
import time

from bench.history_data import build_history
from bench.serving import configure, member

NIGHTS = 500


def main():
    configure()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Player

    settings.ALLOWED_HOSTS = ["testserver"]
    user, _ = member("bench")
    group = user.memberships.get().group
    build_history(group, NIGHTS)
    client = Client()
    client.force_login(user)
    player = Player.objects.filter(group=group).order_by("name").first()
    night = group.nights.order_by("-date").first()
    pages = [
        ("home", "/"),
        ("game nights (search page 1)", "/nights/"),
        ("game nights, by player and game", f"/nights/?player={player.pk}&kind=rummy13"),
        ("one game night", f"/nights/{night.pk}/"),
        ("player page", f"/players/{player.pk}/"),
        ("group leaderboard", "/group/"),
        (
            "leaderboard, Three Thirteen, 2024",
            "/group/?kind=three-thirteen&start=2024-01-01&end=2024-12-31",
        ),
        ("export CSV (whole group)", "/group/export.csv"),
        ("export JSON (whole group)", "/group/export.json"),
    ]
    print(
        f"History pages with {NIGHTS} game nights ({group.games.count()} games), "
        "server time in-process on SQLite, median of 5 after a warm-up:"
    )
    for name, url in pages:
        client.get(url)
        times = []
        for _ in range(5):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, url
        print(f"  {name:36s} {statistics.median(times):7.1f} ms  {len(queries):3d} queries")


if __name__ == "__main__":
    main()
