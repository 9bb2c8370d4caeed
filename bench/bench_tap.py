"""Server time of a scoring request: the POST a phone sends once the taps of a hand pause, which
scores the hand and draws its melds and points (not the panel: the phone drew the cards itself).
In-process, on a throwaway SQLite file, with production settings.

    uv run python -m bench.bench_tap
"""

import random
import statistics
import time

from bench.serving import configure, member, percentile


def main():
    configure()
    from django.conf import settings
    from django.test import Client

    from games import engine
    from games.engine.cards import JOKER, Card, format_cards
    from games.models import Game, Round

    settings.ALLOWED_HOSTS = ["testserver"]
    user, _ = member("bench")
    client = Client()
    client.force_login(user)
    rng = random.Random(7)
    cases = [
        ("Three Thirteen, round 11 (13 cards)", "three-thirteen", {"jokers": 2}, 11),
        ("Five Crowns, round 11 (13 cards)", "five-crowns", {}, 11),
        ("13-card Rummy", "rummy13", {}, 1),
    ]
    print("Server time of a scoring request (13 cards), in-process, SQLite, DEBUG=0")
    for name, kind, rules, number in cases:
        game = Game.objects.start(
            group=user.memberships.get().group, kind=kind, players=["Ann", "Bob"], rules=rules
        )
        Round.objects.bulk_create(
            Round(game=game, number=n, dealer=game.seats.first()) for n in range(2, number + 1)
        )
        definition = engine.KINDS[kind]
        deck = [Card(r, s) for s in definition.suits for r in definition.ranks] * 2
        deck += [JOKER] * definition.jokers(game.engine_rules)
        url = f"/games/{game.pk}/rounds/{number}/seats/{game.seats.first().pk}/"
        for _ in range(5):  # warm up
            client.post(url, {"outcome": "cards", "cards": "5H"}, HTTP_HX_REQUEST="true")
        times = []
        for _ in range(500):
            data = {"outcome": "cards", "cards": format_cards(rng.sample(deck, 13))}
            start = time.perf_counter()
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        print(
            f"  {name:<38} mean {statistics.fmean(times):5.1f} ms  "
            f"p99 {percentile(times, 0.99):5.1f} ms  max {max(times):5.1f} ms"
        )


if __name__ == "__main__":
    main()
