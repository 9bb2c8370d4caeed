"""A demo account with a few months of game nights of both games, for a first look."""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games import table
from games.engine.cards import JOKER, SUITS, Card, format_cards
from games.engine.rummy13 import RummyRules
from games.engine.three_thirteen import ThreeThirteenRules, default_decks
from games.models import (
    RUMMY13,
    THREE_THIRTEEN,
    Game,
    GameNight,
    Group,
    Hand,
    Membership,
    Player,
    Seat,
)

USERNAME = "demo"
PASSWORD = "demo-table-2026"
NAMES = ["Asha", "Ben", "Chiara", "Dev", "Elif"]


def shoe(decks: int, jokers: int, rng) -> list[Card]:
    cards = [Card(r, s) for s in SUITS for r in range(1, 14)] * decks + [JOKER] * jokers
    rng.shuffle(cards)
    return cards


def take(cards: list[Card], wanted: list[Card]) -> list[Card]:
    for card in wanted:
        cards.remove(card)
    return wanted


class Command(BaseCommand):
    help = f"Create the demo account ({USERNAME}) with a few months of game nights."

    def add_arguments(self, parser):
        parser.add_argument("--nights", type=int, default=24)
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, nights, seed, **options):
        rng = random.Random(seed)
        User = get_user_model()
        with transaction.atomic():
            User.objects.filter(username=USERNAME).delete()
            Group.objects.filter(name="Demo table").delete()
            user = User.objects.create_user(USERNAME, password=PASSWORD)
            group = Group.objects.create(name="Demo table")
            Membership.objects.create(user=user, group=group)
            players = [Player.objects.create(group=group, name=name) for name in NAMES]
            today = timezone.localdate()
            for index in range(nights):
                day = today - timedelta(days=(nights - index) * 4 + rng.randint(0, 2))
                night = GameNight.objects.create(group=group, date=day)
                for kind in rng.sample([THREE_THIRTEEN, RUMMY13], rng.randint(1, 2)):
                    seated = rng.sample(players, rng.randint(3, 4))
                    self.play(group, night, kind, seated, user, rng)
        self.stdout.write(f"Demo ready: log in as {USERNAME} / {PASSWORD} ({nights} game nights).")

    def play(self, group, night, kind, seated, user, rng):
        if kind == THREE_THIRTEEN:
            rules = ThreeThirteenRules(decks=default_decks(len(seated)), jokers=rng.choice([0, 2]))
        else:
            rules = RummyRules(wild_rank=rng.choice([None, 7]), max_count=80,
                               format=rng.choice(["open", "pool"]))  # fmt: skip
        game = Game.objects.create(group=group, night=night, kind=kind, rules=rules.to_dict(),
                                   created_by=user)  # fmt: skip
        Seat.objects.bulk_create(
            Seat(game=game, player=p, position=i) for i, p in enumerate(seated)
        )
        deals = 0
        while (round_ := table.current_round(game)) is not None:
            deals += 1
            active = table.active_seats(game, round_.number)
            cards = shoe(rules.decks, rules.jokers, rng)
            winner = rng.choice(active)
            size = table.hand_size(game, round_.number)
            for seat in active:
                if seat == winner:
                    hand = self.winning_hand(kind, round_.number, size, cards, rng)
                    table.save_hand(round_, seat, Hand.WENT_OUT, format_cards(hand), None, 0, user)
                elif kind == RUMMY13 and rules.format == "pool" and rng.random() < 0.15:
                    table.save_hand(round_, seat, Hand.DROP, "", None, 0, user)
                else:
                    hand = [cards.pop() for _ in range(size)]
                    table.save_hand(round_, seat, Hand.CARDS, format_cards(hand), None, 0, user)
            if kind == RUMMY13 and rules.format == "open" and deals >= rng.randint(3, 6):
                break
        game.finished_at = game.created_at + timedelta(hours=1)
        game.save(update_fields=["finished_at"])

    def winning_hand(self, kind, number, size, cards, rng) -> list[Card]:
        """Cards that meld completely (Three Thirteen) or make a valid declaration."""
        if kind == THREE_THIRTEEN:
            lengths = [size] if size < 6 else [3, size - 3] if size < 9 else [3, 3, size - 6]
        else:
            lengths = [4, 3, 3, 3]
        for _ in range(200):
            suits = rng.sample(SUITS, len(lengths))
            wanted = []
            for suit, length in zip(suits, lengths, strict=True):
                start = rng.randint(1, 14 - length)
                wanted += [Card(r, suit) for r in range(start, start + length)]
            if all(cards.count(c) >= wanted.count(c) for c in wanted):
                return take(cards, wanted)
        raise RuntimeError("could not draw a winning hand")
