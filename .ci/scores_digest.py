"""CI's check of a restored database: print every game's scores as JSON (each seat's total as the
app works it out, each round's hands and whether it is complete), and fail if a completed round
is missing a hand or a seat's total is not the sum of its hands.

    uv run python .ci/scores_digest.py > before.json   # then dump, restore, run again, compare
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from games.models import Game, Hand, HandChange  # noqa: E402


def digest() -> dict:
    games = {}
    problems = []
    for game in Game.objects.order_by("pk"):
        seats = list(game.seats.select_related("player").order_by("position"))
        totals = {seating.key: seating.total for seating in game.seatings(seats)}
        rounds = {}
        for round_ in game.rounds.order_by("number"):
            table = round_.table()
            hands = {str(seat): hand.points for seat, hand in sorted(table.hands.items())}
            rounds[round_.number] = {"completed": bool(round_.completed_at), "hands": hands}
            if round_.completed_at and round_.problems(table):
                problems.append(f"game {game.pk} round {round_.number}: {round_.problems(table)}")
        summed = {seat.pk: 0 for seat in seats}
        for seat_id, points in Hand.objects.filter(round__game=game).values_list(
            "seat_id", "points"
        ):
            summed[seat_id] += points
        for seat in seats:
            if totals[seat.pk] != summed[seat.pk]:
                problems.append(f"game {game.pk} seat {seat.pk}: total {totals[seat.pk]}")
        games[game.pk] = {
            "kind": game.kind,
            "totals": {seat.player.name: totals[seat.pk] for seat in seats},
            "rounds": rounds,
        }
    if problems:
        sys.exit("\n".join(problems))
    return {"games": games, "hands": Hand.objects.count(), "changes": HandChange.objects.count()}


if __name__ == "__main__":
    print(json.dumps(digest(), indent=1, sort_keys=True))
