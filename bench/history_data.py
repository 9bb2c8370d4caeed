"""Large histories built fast with bulk_create, for query-count tests and the benchmark
(thousands of finished rounds: too many to play through Round.save_hand in a test)."""

import random
from datetime import date, datetime, time, timedelta

from django.utils import timezone

from games import engine
from games.engine.kinds import RUMMY13, THREE_THIRTEEN
from games.models import Game, GameNight, Hand, Player, Round, Seat


def build_history(
    group, nights: int, seed: int = 1, names=("Ann", "Bob", "Cid", "Dee"), seated=(3, 3)
):
    """`nights` game nights, each with a finished Three Thirteen game (11 rounds) or a
    finished Rummy game (4 deals) for `seated` (fewest, most) of the players, three unless
    told; hands as points and cards. Each game starts at 8 pm of its night and lasts 2 hours."""
    rng = random.Random(seed)
    players = [Player.objects.get_or_create(group=group, name=name)[0] for name in names]
    start = date(2024, 1, 1)
    made_nights = GameNight.objects.bulk_create(
        GameNight(group=group, date=start + timedelta(days=3 * i)) for i in range(nights)
    )
    now = timezone.now()
    evening = timezone.get_current_timezone()

    def at(night, hours):
        start = datetime.combine(night.date, time(20), evening)
        return start + timedelta(hours=hours)

    games = Game.objects.bulk_create(
        Game(
            group=group,
            night=night,
            kind=(THREE_THIRTEEN if i % 2 else RUMMY13).slug,
            rules={},
            created_at=at(night, 0),
            finished_at=at(night, 2),
        )
        for i, night in enumerate(made_nights)
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, player=player, position=p)
        for game in games
        for p, player in enumerate(rng.sample(players, rng.randint(*seated)))
    )
    by_game = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    rounds = Round.objects.bulk_create(
        Round(
            game=game,
            number=n,
            dealer=by_game[game.pk][(n - 1) % len(by_game[game.pk])],
            completed_at=now,
        )
        for game in games
        for n in range(1, (12 if game.kind == THREE_THIRTEEN.slug else 5))
    )
    hands = []
    for round_ in rounds:
        winner = rng.randrange(len(by_game[round_.game_id]))
        for index, seat in enumerate(by_game[round_.game_id]):
            out = index == winner
            hands.append(
                Hand(
                    round=round_,
                    seat=seat,
                    outcome=engine.WENT_OUT if out else engine.CARDS,
                    cards="" if out else "KS QD 2C",
                    points=0 if out else rng.randint(2, 60),
                )
            )
    Hand.objects.bulk_create(hands, batch_size=2000)
    return players
