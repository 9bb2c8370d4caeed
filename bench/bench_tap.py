"""Server time of one tap on the card picker: the POST that re-scores a hand and renders the
player's panel, as htmx sends it. Runs Django in-process on a throwaway SQLite database.

    uv run python bench/bench_tap.py
"""

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
database = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["SQLITE_PATH"] = str(database)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.engine.cards import JOKER, Card, format_cards  # noqa: E402
from games.engine.games import KINDS  # noqa: E402
from games.models import Game, Group, Membership, Round  # noqa: E402

settings.ALLOWED_HOSTS = ["testserver"]


def setup_game(user, kind, rules, number):
    """A game whose round `number` is open (the rounds before it marked complete)."""
    game = Game.objects.start(group=user.memberships.first().group, kind=kind,
                              players=["Ann", "Bob", "Cid"], rules=rules)  # fmt: skip
    dealer = game.seats.first()
    Round.objects.filter(game=game).update(completed_at=timezone.now())
    Round.objects.bulk_create(
        Round(
            game=game, number=n, dealer=dealer, completed_at=timezone.now() if n < number else None
        )
        for n in range(2, number + 1)
    )
    if number == 1:
        Round.objects.filter(game=game).update(completed_at=None)
    return game, game.rounds.get(number=number)


def main():
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="x")
    Membership.objects.create(user=user, group=Group.objects.create(name="bench"))
    client = Client()
    client.force_login(user)
    rng = random.Random(7)
    cases = [
        ("Three Thirteen, round 11 (13 cards)", "three-thirteen", {"jokers": 2}, 11),
        ("Five Crowns, round 11 (13 cards)", "five-crowns", {}, 11),
        ("13-card Rummy", "rummy13", {}, 1),
    ]
    print("Server time per tap (POST, re-score, render the panel), in-process, SQLite")
    for name, kind, rules, number in cases:
        game, round_ = setup_game(user, kind, rules, number)
        definition = KINDS[kind]
        deck = [Card(r, s) for s in definition.suits for r in definition.ranks] * 2
        deck += [JOKER] * definition.jokers(game.engine_rules)
        seat = game.seats.first()
        url = f"/games/{game.pk}/rounds/{round_.number}/seats/{seat.pk}/"
        times = []
        for _ in range(3):
            client.post(url, {"outcome": "cards", "cards": "", "tap": "5H"}, HTTP_HX_REQUEST="true")
        for _ in range(60):
            hand = rng.sample(deck, 13)
            for count in range(1, 14):
                data = {"outcome": "cards", "cards": format_cards(hand[: count - 1]),
                        "tap": str(hand[count - 1]), "version": 0}  # fmt: skip
                start = time.perf_counter()
                response = client.post(url, data, HTTP_HX_REQUEST="true")
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
        times.sort()
        p99 = times[int(len(times) * 0.99)]
        print(f"  {name}: {len(times)} taps  mean {statistics.fmean(times):.1f} ms  "
              f"p99 {p99:.1f} ms  max {times[-1]:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
