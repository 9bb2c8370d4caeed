"""A demo account with a few months of game nights of every game, for a first look."""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine.cards import JOKER, Card, format_cards
from games.models import Entry, Game, GameNight, Group, Player, Round

USERNAME = "demo"
PASSWORD = "demo-table-2026"
NAMES = ["Asha", "Ben", "Chiara", "Dev", "Elif"]


def shoe(kind: engine.GameKind, rules, rng) -> list[Card]:
    cards = [Card(r, s) for s in kind.suits for r in kind.ranks] * kind.decks(rules)
    cards += [JOKER] * kind.jokers(rules)
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
            # Made again from scratch: its rounds and games first, then its nights, players and
            # the group (a dealer's seat, a night or a player in use is protected from deletion).
            old = Group.objects.filter(name="Demo table")
            Round.objects.filter(game__group__in=old).delete()
            Game.objects.filter(group__in=old).delete()
            GameNight.objects.filter(group__in=old).delete()
            Player.objects.filter(group__in=old).delete()
            old.delete()
            User.objects.filter(username=USERNAME).delete()
            user = User.objects.create_user(USERNAME, password=PASSWORD)
            group = Group.found(user, "Demo table")
            players = [Player.objects.create(group=group, name=name) for name in NAMES]
            today = timezone.localdate()
            for index in range(nights):
                day = today - timedelta(days=(nights - index) * 4 + rng.randint(0, 2))
                night = GameNight.objects.create(group=group, date=day)
                for kind in rng.sample(list(engine.KINDS.values()), rng.randint(1, 2)):
                    fewest, most = kind.players
                    seated = rng.sample(players, min(max(rng.randint(3, 4), fewest), most))
                    self.play(group, night, kind, seated, user, rng)
        self.stdout.write(f"Demo ready: log in as {USERNAME} / {PASSWORD} ({nights} game nights).")

    def play(self, group, night, kind, seated, user, rng):
        # The default options, with each choice among its options drawn at random.
        rules = kind.default_rules(len(seated)).to_dict()
        for name, option, _ in kind.options():
            if option.choices:
                blank = [None] if option.blank is not None else []
                rules[name] = rng.choice([value for value, _ in option.choices] + blank)
        game = Game.objects.start(
            group=group, kind=kind.slug, players=seated, rules=rules, night=night, user=user
        )
        rules = game.engine_rules
        # A hand that costs fixed points (a drop), never one that ends the round by itself.
        penalties = [o for o in kind.fixed_penalties(rules) if o not in kind.round_enders]
        deals = 0
        while (round_ := game.current_round()) is not None:
            deals += 1
            cards = shoe(kind, rules, rng)
            playing = round_.playing_seats()
            winner = rng.choice(playing)
            size = round_.hand_size
            for seat in playing:
                if seat == winner:
                    hand = self.winning_hand(kind, size, cards, rng)
                    # What more the game asks (Oklahoma's upcard) is a card of the shoe.
                    extra = {
                        extra.name: str(cards.pop())
                        for extra in kind.extras(rules)
                        if extra.label and extra.outcome == engine.WENT_OUT
                    }
                    entry = Entry(engine.WENT_OUT, format_cards(hand), extra=extra)
                elif penalties and rng.random() < 0.15:
                    entry = Entry(penalties[0])
                else:
                    entry = Entry(engine.CARDS, format_cards([cards.pop() for _ in range(size)]))
                round_.save_hand(seat, entry, user)
            game.refresh_from_db()
            open_ended = kind.rounds is None and kind.target_reached is None
            if open_ended and not kind.pool_limit(rules) and deals >= rng.randint(3, 6):
                break
        game.finish()
        # Played over an hour, not in the moment the demo takes: its rounds end one after
        # another within it (the year's hours at the table count to the last hand played).
        hour = timedelta(hours=1)
        rounds = list(game.rounds.filter(completed_at__isnull=False).order_by("number"))
        for number, round_ in enumerate(rounds, start=1):
            round_.completed_at = game.created_at + hour * number / len(rounds)
        Round.objects.bulk_update(rounds, ["completed_at"])
        Game.objects.filter(pk=game.pk).update(finished_at=game.created_at + hour)

    def winning_hand(self, kind, size, cards, rng) -> list[Card]:
        """Cards that meld completely, or make a valid Rummy declaration: runs of one suit."""
        if size == 13 and kind.rounds is None:
            lengths = [4, 3, 3, 3]
        else:
            lengths = [size] if size < 6 else [3, size - 3] if size < 9 else [3, 3, size - 6]
        low, high = kind.ranks[0], kind.ranks[-1]
        for _ in range(200):
            suits = rng.sample(kind.suits, len(lengths))
            wanted = []
            for suit, length in zip(suits, lengths, strict=True):
                start = rng.randint(low, high + 1 - length)
                wanted += [Card(r, suit) for r in range(start, start + length)]
            if all(cards.count(c) >= wanted.count(c) for c in wanted):
                return take(cards, wanted)
        raise RuntimeError("could not draw a winning hand")
