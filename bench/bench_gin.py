"""Gin Rummy: the engine cross-checked against OpenSpiel's gin rummy utilities, and timed.

    uv run python -m bench.bench_gin                    # the engine's own times
    uv run --group openspiel python -m bench.bench_gin  # and the cross-check, beside OpenSpiel

The cross-check deals seeded hands (random, meld-dense and near-winning) and compares, hand by
hand, the least deadwood of both hands with OpenSpiel's `min_deadwood`, and the defender's
deadwood after layoffs with what OpenSpiel's own rules give (its melds, `all_layoffs` and
`min_deadwood`, searched exhaustively here); every disagreement is printed with the hand.

Times are wall time per call on this machine after a warm-up; each hand is timed as the best
of three runs, so a garbage-collector pause is not counted as solver time.
"""

import random
import statistics
import sys
import time

from games.engine.cards import SUITS, Card, format_cards, parse_card
from games.engine.gin import (
    STANDARD_KNOCK_LIMIT,
    arrangements,
    deadwood,
    deadwood_of_mask,
    defender_play,
    hand_mask,
    score_request,
)

SEED = 20261122
DECK = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
CROSS_CHECK = {"random deals": 40_000, "meld-dense deals": 30_000, "near-winning knockers": 30_000}
SPEED_HANDS = 20_000
REQUESTS = 5_000
OPENSPIEL_SUIT = {"S": 0, "C": 1, "D": 2, "H": 3}  # OpenSpiel's card int: suit * 13 + rank - 1


def cards_of(ranks) -> list[Card]:
    return [Card(rank, suit) for suit in SUITS for rank in ranks]


def random_deal(rng):
    cards = rng.sample(DECK, 20)
    return cards[:10], cards[10:]


def dense_deal(rng):
    """The knocker holds 10 of the 16 cards of four neighbouring ranks; the defender 10 of the
    other 6 and the cards of the ranks beside them."""
    low = rng.randint(1, 10)
    knocker = rng.sample(cards_of(range(low, low + 4)), 10)
    beside = cards_of(range(max(1, low - 1), min(13, low + 4) + 1))
    return knocker, rng.sample([c for c in beside if c not in knocker], 10)


def near_winning_knocker(rng) -> list[Card]:
    """Melds first (sets of 3-4, runs of 3-5), then loose cards, until a knock is legal."""
    while True:
        cards: list[Card] = []
        melded = rng.randint(7, 10)
        while len(cards) < melded:
            if rng.random() < 0.4:
                rank = rng.randint(1, 13)
                meld = [Card(rank, suit) for suit in rng.sample(SUITS, rng.randint(3, 4))]
            else:
                suit, size = rng.choice(SUITS), rng.randint(3, 5)
                start = rng.randint(1, 14 - size)
                meld = [Card(rank, suit) for rank in range(start, start + size)]
            cards += [card for card in meld if card not in cards]
        cards = cards[:melded]
        cards += rng.sample([card for card in DECK if card not in cards], 10 - melded)
        if deadwood(cards) <= 10:
            return cards


def near_winning_deal(rng):
    knocker = near_winning_knocker(rng)
    return knocker, rng.sample([card for card in DECK if card not in knocker], 10)


def timed(function, inputs, repeat=3):
    """Per-input time in microseconds (the best of `repeat` runs), and the results.

    Each function is called as code calls it, `function(one_input)`: a call through
    `function(*args)` costs a Python function more than a C++ binding, which is harness, not
    solver, time."""
    for one in inputs[:50]:
        function(one)
    clock = time.perf_counter_ns
    times, results = [], []
    for one in inputs:
        best = None
        for _ in range(repeat):
            start = clock()
            result = function(one)
            elapsed = clock() - start
            best = elapsed if best is None or elapsed < best else best
        times.append(best / 1e3)
        results.append(result)
    return times, results


def summary(times, unit="µs", scale=1.0) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{len(times):6d} calls  mean {statistics.fmean(times) * scale:7.3f} {unit}  "
        f"p99 {p99 * scale:7.3f} {unit}  max {ordered[-1] * scale:7.3f} {unit}"
    )


# ---------------------------------------------------------------- OpenSpiel's side


class OpenSpielRules:
    """OpenSpiel's gin rummy utilities, asked the same questions as the engine."""

    def __init__(self, pyspiel):
        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    @staticmethod
    def ints(cards) -> list[int]:
        return [OPENSPIEL_SUIT[card.suit] * 13 + card.rank - 1 for card in cards]

    def least_layouts(self, hand: list[int]) -> list[list[list[int]]]:
        """Every group of OpenSpiel's melds (all_melds: 3-5 cards, a longer run in pieces) that
        leaves the least deadwood, found by trying every combination of disjoint melds."""
        utils = self.utils
        melds = [(meld, sum(min(c % 13 + 1, 10) for c in meld)) for meld in utils.all_melds(hand)]
        groups = []

        def extend(start, used, chosen, melded):
            groups.append((melded, list(chosen)))
            for i in range(start, len(melds)):
                meld, worth = melds[i]
                if used.isdisjoint(meld):
                    chosen.append(meld)
                    extend(i + 1, used | set(meld), chosen, melded + worth)
                    chosen.pop()

        extend(0, frozenset(), [], 0)
        most = max(melded for melded, _ in groups)
        return [group for melded, group in groups if melded == most]

    def meld_ids(self, melds) -> list[int]:
        """OpenSpiel's meld ids for melds as laid so far. Its ids stop at 5 cards, so a longer
        run is given in pieces of 3 from the bottom: the pieces offer the same end cards, and
        the inner neighbours they offer are cards of the run itself, which no hand holds."""
        ids = []
        for meld in melds:
            meld = sorted(meld)
            while len(meld) > 5:
                ids.append(self.utils.meld_to_int(meld[:3]))
                meld = meld[3:]
            ids.append(self.utils.meld_to_int(meld))
        return ids

    def defender_deadwood(self, knocker_melds, defender: list[int]) -> int:
        """The defender's least deadwood over every sequence of layoffs OpenSpiel allows.

        OpenSpiel's AllLayoffs(melds, previous_layoffs) offers the 4th card of a set of three
        and the card beyond each end of a run, and extends a run by the previous layoffs only
        when they touch its original ends: a third card in a chain (JS after 9S 10S on 6-8S)
        is never offered, and cards already laid are offered again. So it is used here as the
        one-step rule only, on the melds as extended so far with no previous layoffs, and the
        chaining (as RULES.md allows it) is done by this search.
        """
        utils = self.utils
        best = utils.min_deadwood(defender)
        start = tuple(tuple(sorted(meld)) for meld in knocker_melds)
        seen = set()
        stack = [(start, frozenset())]
        while stack:
            melds, laid = stack.pop()
            if (melds, laid) in seen:
                continue
            seen.add((melds, laid))
            left = [card for card in defender if card not in laid]
            best = min(best, utils.min_deadwood(left))
            for card in utils.all_layoffs(self.meld_ids(melds), []):
                if card in laid or card not in defender:
                    continue
                for i, meld in enumerate(melds):
                    grown = sorted(meld + (card,))
                    if utils.is_rank_meld(grown) or utils.is_suit_meld(grown):
                        joined = melds[:i] + (tuple(grown),) + melds[i + 1 :]
                        stack.append((joined, laid | {card}))
        return best

    def layoffs_accepted(self, knocker_melds, layoffs) -> bool:
        """Whether OpenSpiel offers each of our layoffs, in our order, on the melds so far."""
        melds = [sorted(self.ints(meld)) for meld in knocker_melds]
        for card_text, index in layoffs:
            (card,) = self.ints([parse_card(card_text)])
            if card not in self.utils.all_layoffs(self.meld_ids(melds), []):
                return False
            melds[index] = sorted(melds[index] + [card])
        return True


def cross_check(openspiel, rng) -> None:
    print("\nCross-check against OpenSpiel's gin rummy utilities")
    print("  deadwood: our deadwood() vs min_deadwood, both hands of every deal")
    print("  layoffs: the defender's least deadwood after layoffs, the knocker laying down the")
    print("  least-deadwood layout that leaves the most: arrangements() + defender_play() vs")
    print("  OpenSpiel's melds, all_layoffs (one step) and min_deadwood searched exhaustively")
    print("  hands: legal knocks through score_request: its K and D, and its layoffs replayed")
    total = agreed = 0
    for name, count in CROSS_CHECK.items():
        deal = {"random deals": random_deal, "meld-dense deals": dense_deal}.get(
            name, near_winning_deal
        )
        tallies = dict.fromkeys(("deadwood", "layoffs", "hands", "layoff plays"), 0)
        checked = dict.fromkeys(tallies, 0)
        problems = []
        for _ in range(count):
            knocker, defender = deal(rng)
            k_ints, d_ints = openspiel.ints(knocker), openspiel.ints(defender)
            ours_k, ours_d = deadwood(knocker), deadwood(defender)
            theirs_k = openspiel.utils.min_deadwood(k_ints)
            theirs_d = openspiel.utils.min_deadwood(d_ints)
            checked["deadwood"] += 1
            if (ours_k, ours_d) == (theirs_k, theirs_d):
                tallies["deadwood"] += 1
            else:
                problems.append(f"deadwood ours {ours_k}/{ours_d}, OpenSpiel {theirs_k}/{theirs_d}")
            if ours_k == 0:
                theirs_after = theirs_d  # no layoffs against gin
                ours_after = ours_d
            else:
                ours_after = max(
                    defender_play(defender, layout.melds).deadwood
                    for layout in arrangements(knocker)
                )
                theirs_after = max(
                    openspiel.defender_deadwood(group, d_ints)
                    for group in openspiel.least_layouts(k_ints)
                )
            checked["layoffs"] += 1
            if ours_after == theirs_after:
                tallies["layoffs"] += 1
            else:
                problems.append(f"after layoffs ours {ours_after}, OpenSpiel {theirs_after}")
            if ours_k <= STANDARD_KNOCK_LIMIT:
                answer = score_request(
                    {"knocker": format_cards(knocker), "defender": format_cards(defender)}
                )
                checked["hands"] += 1
                if (
                    answer["ok"]
                    and answer["knocker"]["deadwood"] == theirs_k
                    and answer["defender"]["deadwood"] == theirs_after
                ):
                    tallies["hands"] += 1
                else:
                    problems.append(f"score_request {answer} vs K {theirs_k}, D {theirs_after}")
                if answer["ok"] and answer["defender"]["layoffs"]:
                    checked["layoff plays"] += 1
                    laid_melds = [
                        [parse_card(t) for t in meld] for meld in answer["knocker"]["melds"]
                    ]
                    if openspiel.layoffs_accepted(laid_melds, answer["defender"]["layoffs"]):
                        tallies["layoff plays"] += 1
                    else:
                        problems.append(f"layoffs {answer['defender']['layoffs']} not offered")
            if problems:
                hand = f"knocker {format_cards(knocker)} | defender {format_cards(defender)}"
                print(f"  DISAGREE {hand}: {'; '.join(problems)}")
                problems = []
        print(f"  {name}: {count} deals")
        for key in tallies:
            total += checked[key]
            agreed += tallies[key]
            print(f"    {key:13s} {tallies[key]:6d} of {checked[key]:6d} agree")
    print(f"  in all: {agreed} of {total} comparisons agree, {total - agreed} disagree")


def speed(openspiel, rng) -> None:
    hands = [rng.sample(DECK, 10) for _ in range(SPEED_HANDS)]
    print(f"\nDeadwood of random 10-card hands ({SPEED_HANDS} hands, best of 3 per hand)")
    card_times, ours = timed(deadwood, hands)
    mask_times, ours_from_masks = timed(deadwood_of_mask, [hand_mask(hand) for hand in hands])
    assert ours == ours_from_masks
    print(f"  ours, deadwood(cards)        {summary(card_times)}")
    print(f"  ours, deadwood_of_mask(mask) {summary(mask_times)}")
    if openspiel is not None:
        # The same hands, each side from what it takes: ours a list of Card objects as the app
        # holds them, OpenSpiel a list of its card ints (made before the clock starts).
        ints = [openspiel.ints(hand) for hand in hands]
        their_times, theirs = timed(openspiel.utils.min_deadwood, ints)
        same = "same deadwood on every hand" if theirs == ours else "DIFFERENT deadwood"
        print(f"  OpenSpiel, min_deadwood(ints) {summary(their_times)}")
        their_mean = statistics.fmean(their_times)
        print(
            f"  mean time ours / OpenSpiel: {statistics.fmean(card_times) / their_mean:.2f}x "
            f"from Card objects, {statistics.fmean(mask_times) / their_mean:.2f}x from a "
            f"precomputed mask (OpenSpiel from a list of ints); {same}"
        )
    requests = []
    for _ in range(REQUESTS):
        knocker, defender = near_winning_deal(rng) if rng.random() < 0.7 else dense_legal(rng)
        requests.append({"knocker": format_cards(knocker), "defender": format_cards(defender)})
    times, answers = timed(score_request, requests)
    assert all(answer["ok"] for answer in answers)
    laid = sum(bool(answer["defender"]["layoffs"]) for answer in answers)
    print(f"\nA whole hand through score_request ({REQUESTS} legal knocks, {laid} with layoffs)")
    print(f"  {summary(times, 'ms', 1e-3)}")


def dense_legal(rng):
    while True:
        knocker, defender = dense_deal(rng)
        if deadwood(knocker) <= 10:
            return knocker, defender


def main():
    rng = random.Random(SEED)
    print(f"Gin Rummy benchmark, seed {SEED}, Python {sys.version.split()[0]}")
    try:
        import pyspiel
    except ImportError:
        print(
            "\nOpenSpiel is not installed: the cross-check needs it; run with "
            "`uv run --group openspiel python -m bench.bench_gin`."
        )
        openspiel = None
    else:
        openspiel = OpenSpielRules(pyspiel)
    speed(openspiel, rng)
    if openspiel is not None:
        cross_check(openspiel, rng)


if __name__ == "__main__":
    main()
