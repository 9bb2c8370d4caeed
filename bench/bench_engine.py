"""Engine speed on seeded batteries of hands: mean, p99 and max time per hand.

    uv run python -m bench.bench_engine                    # the engine alone
    uv run --group openspiel python bench/bench_engine.py  # and beside OpenSpiel's C++ solver

Every figure is wall time per hand on this machine, after one warm-up pass; each hand is
timed as the best of three runs, so a garbage-collector pause is not counted as solver time.
"""

import random
import statistics
import sys
import time
from collections import Counter

from games.engine.cards import JOKER, SUITS, Card
from games.engine.rummy13 import RummyRules, declaration, loser_arrangement
from games.engine.three_thirteen import ThreeThirteenRules, arrange, arrange_cards

SEED = 20261122


def deck(decks=1, jokers=0, ranks=range(1, 14)):
    return [Card(r, s) for s in SUITS for r in ranks] * decks + [JOKER] * jokers


def timed(function, cases, repeat=1):
    """Per-case time in ms (the best of `repeat` runs), and the results."""
    for case in cases[:20]:
        function(*case)
    times, results = [], []
    for case in cases:
        best = None
        for _ in range(repeat):
            start = time.perf_counter_ns()
            result = function(*case)
            elapsed = time.perf_counter_ns() - start
            best = elapsed if best is None else min(best, elapsed)
        times.append(best / 1e6)
        results.append(result)
    return times, results


def summary(times) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(times):6d} hands  mean {statistics.fmean(times):7.3f} ms  "
        f"p99 {p99:7.3f} ms  max {ordered[-1]:7.3f} ms"
    )


def three_thirteen_batteries(rng):
    rules = ThreeThirteenRules(decks=2, jokers=2)
    random_hands = [
        (rng.sample(deck(2, 2), r + 2), r, rules) for r in range(1, 12) for _ in range(300)
    ]
    dense = []
    for _ in range(1500):
        low = rng.randint(1, 10)
        size = rng.choice([10, 11, 12, 13])
        dense.append((rng.sample(deck(2, 0, range(low, low + 3)), size), size - 2, rules))
    wild_heavy = []
    for _ in range(1500):
        wilds = rng.randint(4, 8)
        pool_wild = [c for c in deck(2, 2) if c.rank == 13 or c.is_joker]
        pool_natural = [c for c in deck(2, 0) if c.rank != 13]
        wild_heavy.append(
            (rng.sample(pool_wild, wilds) + rng.sample(pool_natural, 13 - wilds), 11, rules)
        )
    return [
        ("Three Thirteen, random hands of every round", random_hands),
        ("Three Thirteen, dense hands (10-13 cards of 3 ranks)", dense),
        ("Three Thirteen, wild-heavy (13 cards, 4-8 wilds)", wild_heavy),
    ]


def near_winning(rng):
    while True:
        hand = _near_winning(rng)
        if max(Counter(hand).values()) <= 2 and hand.count(JOKER) <= 2:
            return hand


def _near_winning(rng):
    hand = []
    for size in (4, 3, 3, 3):
        if size == 3 and rng.random() < 0.4:
            rank = rng.randint(1, 13)
            hand += [Card(rank, s) for s in rng.sample(SUITS, 3)]
        else:
            suit, start = rng.choice(SUITS), rng.randint(1, 15 - size)
            hand += [Card(1 if p == 14 else p, suit) for p in range(start, start + size)]
    for _ in range(rng.randint(0, 2)):
        hand[rng.randrange(13)] = rng.choice(deck(1, 1))
    return hand


def rummy_batteries(rng):
    plain = RummyRules()
    wild = RummyRules(wild_rank=7)
    random_hands = [(rng.sample(deck(2, 2), 13), rng.choice([plain, wild])) for _ in range(2000)]
    dense = []
    for _ in range(1500):
        low = rng.randint(1, 10)
        dense.append((rng.sample(deck(2, 2, range(low, low + 4)), 13), rng.choice([plain, wild])))
    winning = [(near_winning(rng), plain) for _ in range(1500)]
    return [
        ("13-card Rummy, random hands", random_hands),
        ("13-card Rummy, dense hands (4 ranks, jokers)", dense),
        ("13-card Rummy, near-winning hands", winning),
    ]


def openspiel_side_by_side(rng):
    try:
        import pyspiel
    except ImportError:
        print(
            "\nOpenSpiel is not installed: run with `uv run --group openspiel` for the comparison."
        )
        return
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    suit_index = {"S": 0, "C": 1, "D": 2, "H": 3}
    rules = ThreeThirteenRules(decks=1)

    def ours(cards):
        return arrange_cards(cards, None, rules).points

    def theirs(ints):
        return utils.min_deadwood(ints)

    print("\nSide by side with OpenSpiel's C++ gin rummy deadwood solver")
    print("(10-card one-deck hands, no wild card, aces low, faces 10: both exact)")
    batteries = [
        ("random", [rng.sample(deck(1), 10) for _ in range(2000)]),
        (
            "dense (10 of the 12 cards of 3 ranks)",
            [
                rng.sample(deck(1, 0, range(low, low + 3)), 10)
                for low in (rng.randint(1, 11) for _ in range(2000))
            ],
        ),
    ]
    for name, hands in batteries:
        as_ints = [([suit_index[c.suit] * 13 + c.rank - 1 for c in hand],) for hand in hands]
        our_times, our_points = timed(ours, [(hand,) for hand in hands], repeat=3)
        their_times, their_points = timed(theirs, as_ints, repeat=3)
        assert our_points == their_points, "the two solvers disagree"
        ratio = statistics.fmean(our_times) / statistics.fmean(their_times)
        print(f"  {name}:")
        print(f"    ours      {summary(our_times)}")
        print(f"    OpenSpiel {summary(their_times)}")
        print(f"    mean time ours / OpenSpiel: {ratio:.2f}x (same points on every hand)")


def main():
    rng = random.Random(SEED)
    print(f"Engine benchmark, seed {SEED}, Python {sys.version.split()[0]}")
    worst = 0.0
    for name, cases in three_thirteen_batteries(rng):
        times, _ = timed(arrange, cases, repeat=3)
        worst = max(worst, max(times))
        print(f"{name}\n  {summary(times)}")
    for name, cases in rummy_batteries(rng):
        loser_times, _ = timed(loser_arrangement, cases, repeat=3)
        winner_times, _ = timed(declaration, cases, repeat=3)
        worst = max(worst, max(loser_times), max(winner_times))
        print(f"{name}\n  loser count  {summary(loser_times)}")
        print(f"  declaration  {summary(winner_times)}")
    print(f"\nSlowest hand of all batteries: {worst:.3f} ms")
    openspiel_side_by_side(rng)


if __name__ == "__main__":
    main()
