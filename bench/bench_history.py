"""Server time of each history page for a group with 500 game nights (in-process, SQLite).

uv run python bench/bench_history.py
"""

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.models import Group, Membership, Player  # noqa: E402
from tests.history_data import build_history  # noqa: E402

settings.ALLOWED_HOSTS = ["testserver"]
NIGHTS = 500


def main():
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench")
    group = Group.objects.create(name="bench")
    Membership.objects.create(user=user, group=group)
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
        ("leaderboard, Three Thirteen, 2024",
         "/group/?kind=three-thirteen&start=2024-01-01&end=2024-12-31"),
        ("export CSV (whole group)", "/group/export.csv"),
        ("export JSON (whole group)", "/group/export.json"),
    ]  # fmt: skip
    print(f"History pages with {NIGHTS} game nights ({group.games.count()} games), "
          "server time in-process on SQLite, median of 5 after a warm-up:")  # fmt: skip
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
