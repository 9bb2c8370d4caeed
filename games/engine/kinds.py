"""One description per game: its words, its rounds, its deck, its options and how a hand of
it is scored. Everything above the engine reads these; nothing there branches on the game."""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from . import five_crowns, gin, gin_table, rummy13, three_thirteen
from .cards import (
    FIVE_SUITS,
    RANK_LABELS,
    SUITS,
    Card,
    CardError,
    check_deck,
    check_round_supply,
    parse_hand,
)
from .options import described, options_of
from .outcomes import CARDS, DRAWN, MAX_POINTS, NAMES, POINTS, WENT_OUT, takes_cards
from .wilds import wild_reasons

# A loser's count, which a Rummy winner's four pure sequences double: counted from the cards,
# or entered as a number (the table counted it); a fixed penalty (a drop) is not a count.
COUNTED = (CARDS, POINTS)


@dataclass
class Scored:
    """One hand scored on its own (the rest of the round may still change its points)."""

    cards: list = field(default_factory=list)
    points: int | None = None
    melds: list = field(default_factory=list)  # in notation: [["5H", "6H", "7H"], ...]
    unmelded: list = field(default_factory=list)
    all_pure: bool = False
    error: str | None = None
    note: str | None = None
    # Why the points are what they are, in the rules' words ("No pure sequence: every card
    # counts", "JK stands for 8H"), cards in notation.
    reasons: list = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.error is None and self.points is not None


@dataclass(frozen=True)
class Seating:
    """A seat as the table rules see it: its place at the table and its running total."""

    key: object  # whatever the caller uses to name the seat
    position: int
    total: int = 0
    out_after: int | None = None  # pool play: the round after which the seat was out
    won: int = 0  # rounds in which the seat scored (where points go to a round's winner)


@dataclass(frozen=True)
class Standing:
    """A seat's place once the game is over: its total with the game's bonus lines, if any."""

    place: int
    seating: Seating
    points: int  # the total the place is decided on, bonuses included
    lines: tuple[tuple[str, int], ...] = ()  # (what, points) of each bonus, in order

    @property
    def key(self):
        return self.seating.key


@dataclass(frozen=True)
class Extra:
    """Something more a hand's entry may say, beside its outcome and cards (Oklahoma Gin's
    first upcard): a text field shown with that outcome, or kept hidden (label "") when only
    a choice on the round page sets it."""

    name: str
    label: str
    help: str
    outcome: str  # the outcome it belongs to


@dataclass
class HandInRound:
    """A hand as the round scores it: its outcome, its cards, its points scored on its own
    (or as entered), whether all its melds are pure, and what more its entry says."""

    outcome: str
    cards: str = ""
    points: int = 0
    all_pure: bool = False
    extra: dict = field(default_factory=dict)


@dataclass
class RoundScore:
    """A round scored as a whole: each hand's points, in the order given, the round's result
    (where a game names one: "gin", "undercut"...) and what the round page says of it."""

    points: list[int]
    result: str = ""
    report: object = None


# The most players one game takes: every game's own limit is at most this (the new-game form,
# the importer and the table's seats read it here).
MOST_PLAYERS = 8


def _no_pool(rules) -> int | None:
    return None


def _no_fixed_penalties(rules) -> dict[str, int]:
    return {}


def _no_extras(rules) -> list[Extra]:
    return []


@dataclass(frozen=True)
class GameKind:
    """A game as data: words, rounds, deck, options and scoring."""

    slug: str  # as stored and as `score_hands` names it
    name: str
    form_prefix: str  # option fields of the new-game form are named prefix + rule
    round_word: str  # "round" or "deal"
    went_out_label: str  # the outcome of the round's winner, as a choice
    went_out_word: str  # the same, said of a player: "went out", "declared"
    went_out_tally: str  # a player's count of them, one and many: "round gone out,rounds gone out"
    went_out_question: str  # asked of a hand that melds completely: "Did {name} go out?"
    rounds: int | None  # a fixed number of rounds, or None when the players decide
    rules_class: type
    suits: tuple[str, ...]
    ranks: tuple[int, ...]
    hand_size: Callable[[int], int]  # round number -> cards a hand holds when scored
    wild_word: str  # how the round page names the wild rank: "{rank}s are wild"
    # (cards, round number, rules, went out) -> Scored
    score_cards: Callable[[list, int, object, bool], Scored]
    # (a `score_hands` request, its rules) -> the answer's fields (RULES.md)
    command: Callable[[dict, object], dict]
    blurb: str = ""
    # The wild rank, decided by the round's number alone, or else by the options (or neither).
    round_wild: Callable[[int], int] | None = None
    rules_wild: Callable[[object], int | None] | None = None
    default_decks: Callable[[int], int] | None = None  # players -> decks, if it depends
    # (count, winner all pure, rules) -> the count of a hand once the round is known, for
    # games where the winner's hand changes the others' (Rummy's double and cap)
    final_count: Callable[[int, bool, object], int] | None = None
    # The round page's words when that happens: (winner, the counts doubled, the fixed
    # penalties not) -> words.
    doubled_note: Callable[[str, list[str], list[str]], str] | None = None
    # (count, the name of the winner who doubles it or None, rules) -> why a hand's count
    # changed once the round is known (Rummy's double and cap), in the rules' words
    count_reasons: Callable[[int, str | None, object], list[str]] | None = None
    pure_remark: str = ""  # ... and the winner's, beside their points
    pool_limit: Callable[[object], int | None] = _no_pool  # the total that puts a player out
    # Outcomes that cost a fixed number of points instead of counting cards (pool Rummy's drops)
    fixed_penalties: Callable[[object], dict[str, int]] = _no_fixed_penalties
    players: tuple[int, int] = (2, MOST_PLAYERS)  # the fewest and most players of a game
    cards_label: str = "Cards left"  # the outcome of a hand counted from its cards
    takes_points: bool = True  # a hand may be entered as a number
    own_points_word: str = "points"  # what a hand scored on its own counts: "deadwood"
    # (round number, outcome) -> how many cards the hand may hold, when not hand_size alone
    card_counts: Callable[[int, str], tuple[int, ...]] | None = None
    # rules -> what more a hand's entry may say (Oklahoma's upcard, the layout laid down)
    extras: Callable[[object], list[Extra]] = _no_extras
    # Games whose hands are scored together once the round is in: (hands, rules) ->
    # (points per hand, the round's result, its report for the round page)
    settle_round: Callable[[list[HandInRound], object], tuple] | None = None
    result_names: Mapping[str, str] = field(default_factory=dict)
    # How well a round was won, by its result (higher is better): a game's best hand
    result_merits: Mapping[str, int] = field(default_factory=dict)
    # Outcomes that complete the round by themselves, with no winner (Gin's drawn hand)
    round_enders: tuple[str, ...] = ()
    # Games that end when a total reaches a target: (totals, rules) -> over
    target_reached: Callable[[list[int], object], bool] | None = None
    highest_wins: bool = False  # the highest total wins (points go to each round's winner)
    winner_deals: bool = False  # the round's winner deals the next (else the deal passes left)
    # The bonus lines added once the game is over: (totals, rounds won, rules) -> per seat
    bonus_lines: Callable[[list[int], list[int], object], list] | None = None
    running_totals: bool = False  # the score table shows the total after each round
    # Played with the standard deck (and printed jokers) the card reader knows, so a hand can
    # be read from a photo; Five Crowns' own five-suited deck is not.
    reads_photos: bool = True

    # ---------------------------------------------------------------- options

    def rules_from(self, data: dict | None):
        """The stored options as the rules dataclass; raises CardError when they are bad."""
        return self.rules_class.from_dict(data)

    def default_rules(self, players: int):
        decks = {"decks": self.default_decks(players)} if self.default_decks else {}
        return self.rules_class(**decks)

    def options(self):
        """(name, Option, default) of each rule, for forms."""
        return options_of(self.rules_class)

    def describe(self, rules) -> list[tuple[str, str]]:
        """The options of a game in words, as its page lists them."""
        return described(rules)

    def jokers(self, rules) -> int:
        return getattr(rules, "jokers", 0)

    def decks(self, rules) -> int:
        return getattr(rules, "decks", 1)

    # ---------------------------------------------------------------- rounds

    def wild_rank(self, round_number: int, rules) -> int | None:
        """The rank that is wild in a round, if any."""
        if self.round_wild is not None:
            return self.round_wild(round_number)
        return self.rules_wild(rules) if self.rules_wild is not None else None

    def wild_label(self, round_number: int, rules) -> str | None:
        """The wild rank of a round in words, e.g. "7s are wild", or None."""
        return self._wild_words(self.wild_rank(round_number, rules))

    def round_wild_label(self, round_number: int) -> str | None:
        """The wild rank in words where the round's number alone decides it (so it is the same
        in every game of this kind), else None."""
        if self.round_wild is None:
            return None
        return self._wild_words(self.round_wild(round_number))

    def _wild_words(self, rank: int | None) -> str | None:
        return None if rank is None else self.wild_word.format(rank=RANK_LABELS[rank - 1])

    def deck(self, rules) -> list[Card]:
        """Every different card the round's picker offers, suit by suit, jokers last."""
        cards = [Card(rank, suit) for suit in self.suits for rank in self.ranks]
        return cards + ([Card(0, "")] if self.jokers(rules) else [])

    def copies(self, card: Card, rules) -> int:
        """How many of a card the round's supply holds."""
        return self.jokers(rules) if card.is_joker else self.decks(rules)

    def is_wild(self, card: Card, round_number: int, rules) -> bool:
        return card.is_joker or card.rank == self.wild_rank(round_number, rules)

    def outcomes(self, rules) -> list[tuple[str, str]]:
        """The ways a hand can end in this game, as the round page offers them."""
        choices = [(CARDS, self.cards_label), (WENT_OUT, self.went_out_label)]
        for outcome, points in self.fixed_penalties(rules).items():
            name = NAMES[outcome]
            choices.append((outcome, f"{name} ({points})" if points else name))
        if self.takes_points:
            choices.append((POINTS, "Points as a number"))
        return choices

    def holds(self, round_number: int, outcome: str) -> tuple[int, ...]:
        """How many cards a hand that ended so may hold when it is entered."""
        if self.card_counts is not None:
            return self.card_counts(round_number, outcome)
        return (self.hand_size(round_number),)

    def extra_words(self, extra: Mapping | None, rules) -> str:
        """What more an entry said, in words for its history ("upcard 7S"), or ""."""
        said = extra or {}
        return ", ".join(
            f"{field.label.lower()} {said[field.name]}"
            for field in self.extras(rules)
            if field.label and said.get(field.name)
        )

    # ---------------------------------------------------------------- scoring

    def check_cards(self, cards: list[Card], rules) -> None:
        """Refuse cards this game's decks do not have, or more copies than are in play."""
        check_deck(cards, self.suits, self.ranks, self.decks(rules), self.jokers(rules), self.name)

    def score(
        self, outcome: str, cards_text: str, round_number: int, rules, entered=None, extra=None
    ):
        """Score what was entered for one hand, or say what is wrong with it. The same entry
        scored again (a save scores what its phone's scoring request just scored, and asks
        whether the cards could have won) is read back from `_scored`, as a copy."""
        said = tuple(sorted((extra or {}).items()))
        try:
            found = _scored(self.slug, outcome, cards_text, round_number, rules, entered, said)
        except TypeError:  # a value that cannot be kept (unhashable): scored afresh
            return self.score_afresh(outcome, cards_text, round_number, rules, entered, extra)
        return replace(
            found,
            cards=list(found.cards),
            melds=[list(meld) for meld in found.melds],
            unmelded=list(found.unmelded),
            reasons=list(found.reasons),
        )

    def score_afresh(
        self, outcome: str, cards_text: str, round_number: int, rules, entered=None, extra=None
    ):
        """`score`, worked out."""
        scored = Scored()
        try:
            scored.cards = parse_hand(cards_text or "")
            self.check_cards(scored.cards, rules)
        except CardError as error:
            scored.error = str(error)
            return scored
        if outcome == POINTS and self.takes_points:
            if entered is None:
                scored.error = "enter the points as a number"
            elif not 0 <= entered <= MAX_POINTS:
                scored.error = f"points must be between 0 and {MAX_POINTS}"
            else:
                scored.points = entered
            return scored
        fixed = self.fixed_penalties(rules)
        if outcome in fixed:
            scored.points = fixed[outcome]
            return scored
        if outcome not in (CARDS, WENT_OUT):
            scored.error = f"{self.name} has no such way for a hand to end"
            return scored
        if outcome == WENT_OUT and not scored.cards:
            scored.points = 0
            scored.note = "no cards entered: scored 0 without checking the melds"
            return scored
        expected = self.holds(round_number, outcome)
        if len(scored.cards) not in expected:
            have = len(scored.cards)
            chosen = f"{have} card{'s' if have != 1 else ''} chosen"
            scored.error = f"{chosen}; this hand holds {' or '.join(map(str, expected))}"
            return scored
        try:
            return self.score_cards(
                scored.cards, round_number, rules, outcome == WENT_OUT, extra or {}
            )
        except CardError as error:
            scored.error = str(error)
            return scored

    def melds_completely(self, cards_text: str, round_number: int, rules, extra=None) -> bool:
        """A hand entered as counted cards that the player could have won with: it scores as
        going out (every card melds; a Rummy declaration, a legal Gin knock) and counts 0 as
        cards left. The round page asks before it saves such a hand as cards left."""
        if not cards_text:
            return False
        out = self.score(WENT_OUT, cards_text, round_number, rules, None, extra)
        if not out.complete:
            return False
        left = self.score(CARDS, cards_text, round_number, rules, None, extra)
        return left.complete and left.points == 0

    def own_count(self, outcome: str, cards_text: str, round_number: int, rules, extra=None):
        """(points, reasons) of a saved hand scored on its own again: why its points are what
        they are, for the round page (kept once worked out: a saved hand does not change)."""
        if not takes_cards(outcome) or not cards_text:
            return None, ()
        said = tuple(sorted((extra or {}).items()))
        return _own_count(self.slug, outcome, cards_text, round_number, rules, said)

    def doubled(self, hands: Iterable[tuple[str, bool]]) -> bool:
        """Whether the round's winner makes the others' counts change, from (outcome, all
        pure) of its hands: a Rummy winner's four pure sequences double them."""
        return self.final_count is not None and any(
            outcome == WENT_OUT and pure for outcome, pure in hands
        )

    def doubler(self, hands: Iterable[tuple[str, bool, str]]) -> str | None:
        """The name of the winner whose hand changes the others' counts (a Rummy winner's four
        pure sequences), from (outcome, all pure, name) of the round's hands; None if none."""
        if self.final_count is None:
            return None
        return next((name for outcome, pure, name in hands if outcome == WENT_OUT and pure), None)

    def round_notes(self, hands: Iterable[tuple[str, bool, str]]) -> list[str]:
        """What the round page says of the round as a whole, from (outcome, all pure, name):
        whose counts a Rummy winner's four pure sequences double, and whose fixed penalty not."""
        hands = list(hands)
        winner = self.doubler(hands)
        if not winner:
            return []
        counts = [name for outcome, _, name in hands if outcome in COUNTED]
        penalties = [name for outcome, _, name in hands if outcome not in (*COUNTED, WENT_OUT)]
        return [self.doubled_note(winner, counts, penalties)]

    def hand_reasons(self, outcome: str, count: int, doubler: str | None, rules) -> list[str]:
        """Why a hand's points changed once its round is known, from its own count and the
        name of the winner who doubles it (`doubler`): "Doubled: Maya's melds are all pure"."""
        if self.count_reasons is None or outcome not in COUNTED:
            return []
        return self.count_reasons(count, doubler, rules)

    def hand_points(self, outcome: str, points: int, doubled: bool, rules) -> int:
        """A hand's points once the round is known, from its points scored on its own: a
        counted hand doubled when the winner's are all pure, then the maximum count (Rummy)."""
        if self.final_count is None or outcome not in COUNTED:
            return points
        return self.final_count(points, doubled, rules)

    @property
    def scored_alone(self) -> bool:
        """A hand's points follow from its own entry (and the round's doubling), not from the
        other hands' cards."""
        return self.settle_round is None

    def settle(self, hands: list[HandInRound], rules) -> RoundScore:
        """The round scored as a whole, from its hands in order: each hand's points once the
        whole round is known, the round's result and what the round page says of it."""
        if self.settle_round is not None:
            return RoundScore(*self.settle_round(hands, rules))
        doubled = self.doubled((hand.outcome, hand.all_pure) for hand in hands)
        return RoundScore(
            [self.hand_points(hand.outcome, hand.points, doubled, rules) for hand in hands]
        )

    def result_label(self, result: str) -> str:
        """A round's result in words, as the score table names it ("" for none)."""
        return self.result_names.get(result, "")

    def round_supply_error(self, hands: list[list[Card]], rules) -> str | None:
        """The card held more often across a round's hands than the decks allow, if any."""
        try:
            check_round_supply(hands, self.decks(rules), self.jokers(rules))
        except CardError as error:
            return str(error)
        return None

    # ---------------------------------------------------------------- the table

    def seatings(self, seats: Iterable[tuple[object, int, Mapping[int, int]]], rules):
        """Each seat as the table rules see it, from (key, position, {round number: points}):
        its total and, in pool play, the round after which it was out."""
        limit = self.pool_limit(rules)
        found = []
        for key, position, by_round in seats:
            running, out, won = 0, None, 0
            for number in sorted(by_round):
                running += by_round[number]
                won += by_round[number] > 0
                if out is None and limit is not None and running >= limit:
                    out = number
            found.append(Seating(key, position, running, out, won))
        return found

    def totals_decide_play(self, rules) -> bool:
        """The totals before a round decide who plays it or whether the game goes on."""
        return self.pool_limit(rules) is not None or self.target_reached is not None

    def needs_every_round(self, rules) -> bool:
        """The final standings need each round's points, not only the totals: who went out
        of the pool when, or the rounds each player won for the bonuses."""
        return self.pool_limit(rules) is not None or self.bonus_lines is not None

    def standings(self, seats: list[Seating], rules, finished: bool = True) -> list[Standing]:
        """(place, the seat, its points) best first; once the game is over, with its bonus
        lines (Gin's game, box and shutout bonuses) added to the totals they are ranked on."""
        lines = [[] for _ in seats]
        if finished and self.bonus_lines is not None and seats:
            lines = self.bonus_lines(
                [seat.total for seat in seats], [seat.won for seat in seats], rules
            )
        with_bonus = [
            replace(seat, total=seat.total + sum(points for _, points in bonus))
            for seat, bonus in zip(seats, lines, strict=True)
        ]
        bonus_of = {seat.key: tuple(bonus) for seat, bonus in zip(seats, lines, strict=True)}
        by_key = {seat.key: seat for seat in seats}
        return [
            Standing(place, by_key[seat.key], seat.total, bonus_of[seat.key])
            for place, seat in standings(with_bonus, self.highest_wins)
        ]

    def playing(self, seats: list[Seating], rules) -> list[Seating]:
        """Seats still in the game before a round: in pool play, a player whose total has
        reached the pool limit is out."""
        limit = self.pool_limit(rules)
        if limit is None:
            return list(seats)
        return [seat for seat in seats if seat.total < limit]

    def is_over(self, completed_rounds: int, seats: list[Seating], rules) -> bool:
        """A game of a fixed number of rounds ends after the last; one to a target when a
        total reaches it; pool play when one player is left; otherwise when the players say
        so. `seats` carry the totals after the rounds completed."""
        if self.rounds is not None:
            return completed_rounds >= self.rounds
        if self.target_reached is not None:
            return completed_rounds > 0 and self.target_reached([s.total for s in seats], rules)
        if self.pool_limit(rules) is not None:
            return completed_rounds > 0 and len(self.playing(seats, rules)) <= 1
        return False

    def next_dealer(self, positions: list[int], previous: int, playing, points) -> int:
        """Who deals the next round, from the seats' positions, the previous dealer's, the
        positions still playing and {position: points} of the round just played: the deal
        passes left, or goes to the round's winner (after a round nobody won, the same
        dealer deals again)."""
        if not self.winner_deals:
            return next_dealer(positions, previous, playing)
        best = max(points.items(), key=lambda item: item[1], default=(previous, 0))
        return best[0] if best[1] > 0 else previous

    def round_problems(
        self, missing: list[str], winners: list[str], enders: list[str] | None = None
    ) -> list[str]:
        """What keeps a round from being complete, in words for the table; `enders` name
        the hands whose outcome ends the round with no winner (a drawn hand)."""
        if enders:
            if not winners:
                return []
            said = NAMES[self.round_enders[0]].lower()
            return [
                f"{', '.join(winners)} {self.went_out_word}, but {', '.join(enders)} said it "
                f"was a {said}: change one of them"
            ]
        problems = []
        if missing:
            problems.append("still to enter: " + ", ".join(missing))
        if len(winners) > 1:
            problems.append(
                f"only one player can be marked as {self.went_out_word} ({', '.join(winners)} are)"
            )
        elif not winners and not missing:
            problems.append(f"mark the player who {self.went_out_word}")
        return problems


@lru_cache(maxsize=1024)
def _scored(slug, outcome, cards_text, round_number, rules, entered, said) -> Scored:
    return KINDS[slug].score_afresh(outcome, cards_text, round_number, rules, entered, dict(said))


@lru_cache(maxsize=4096)
def _own_count(slug, outcome, cards_text, round_number, rules, said) -> tuple[int | None, tuple]:
    scored = KINDS[slug].score(outcome, cards_text, round_number, rules, None, dict(said))
    return scored.points, tuple(scored.reasons)


def next_dealer(positions: list[int], previous: int | None, playing: set[int]) -> int:
    """The deal passes to the left: the next seat after the previous dealer still playing
    (the first seat deals first)."""
    if previous is None:
        return positions[0]
    count = len(positions)
    start = positions.index(previous)
    for step in range(1, count + 1):
        position = positions[(start + step) % count]
        if position in playing:
            return position
    return previous


def standings(seats: list[Seating], highest_wins: bool = False) -> list[tuple[int, Seating]]:
    """(place, seat), best first. Lowest total wins (or highest, where points go to each
    round's winner) and equal totals share a place; in pool play those still in come first,
    then those out of the pool, the later out the better."""

    def key(seat: Seating):
        out = seat.out_after
        return (0 if out is None else 1, -(out or 0), -seat.total if highest_wins else seat.total)

    ordered = sorted(seats, key=lambda seat: (*key(seat), seat.position))
    places: list[tuple[int, Seating]] = []
    for index, seat in enumerate(ordered):
        if index and key(seat) == key(ordered[index - 1]):
            places.append((places[-1][0], seat))
        else:
            places.append((index + 1, seat))
    return places


# ---------------------------------------------------------------- the four games


def _show(scored: Scored, arrangement) -> Scored:
    scored.melds = [[str(card) for card in meld] for meld in arrangement.melds]
    scored.unmelded = [str(card) for card in arrangement.unmelded]
    return scored


def _melds_all(arrange, went_out_error, card_value):
    """Scoring for games where the player who went out must meld every card; `card_value`
    (card, round number, rules) is what a card left over costs."""

    def score(cards, round_number, rules, went_out, extra):
        laid = arrange(cards, round_number, rules)
        scored = _show(Scored(cards=cards), laid)
        wild = three_thirteen.wild_rank(round_number)
        scored.reasons = wild_reasons(
            laid,
            lambda card: three_thirteen.is_wild(card, wild),
            lambda card: card_value(card, round_number, rules),
        )
        if went_out:
            problem = went_out_error(laid)
            if problem:
                scored.error = f"went out, but {problem}"
                return scored
            scored.points = 0
            return scored
        scored.points = laid.points
        return scored

    return score


def _score_rummy(cards, round_number, rules, declared, extra):
    scored = Scored(cards=cards)

    def wilds(laid):
        return wild_reasons(
            laid,
            lambda card: rummy13.is_joker(card, rules),
            lambda card: rummy13.card_value(card, rules),
        )

    if declared:
        judged = rummy13.declaration(cards, rules)
        _show(scored, judged.arrangement)
        if not judged.valid:
            scored.error = f"not a valid declaration: {judged.reason}"
            return scored
        scored.all_pure = judged.all_pure
        scored.points = 0
        scored.reasons = wilds(judged.arrangement)
        return scored
    laid = rummy13.loser_arrangement(cards, rules)
    _show(scored, laid)
    scored.points = laid.points
    scored.reasons = rummy13.loser_reasons(cards, rules, laid) + wilds(laid)
    return scored


THREE_THIRTEEN = GameKind(
    slug="three-thirteen",
    name="Three Thirteen",
    form_prefix="tt_",
    round_word="round",
    went_out_label="Went out",
    went_out_word="went out",
    went_out_tally="round gone out,rounds gone out",
    went_out_question="Did {name} go out?",
    rounds=three_thirteen.ROUNDS,
    rules_class=three_thirteen.ThreeThirteenRules,
    suits=SUITS,
    ranks=three_thirteen.RANKS,
    hand_size=three_thirteen.cards_in_round,
    round_wild=three_thirteen.wild_rank,
    wild_word="{rank}s wild",
    score_cards=_melds_all(
        three_thirteen.arrange,
        three_thirteen.went_out_error,
        lambda card, number, rules: three_thirteen.card_value(card, rules),
    ),
    command=three_thirteen.command_answer,
    blurb="11 rounds of 3 to 13 cards; a new wild rank every round.",
    default_decks=three_thirteen.default_decks,
)

RUMMY13 = GameKind(
    slug="rummy13",
    name="13-card Rummy",
    form_prefix="r_",
    round_word="deal",
    went_out_label="Declared and won",
    went_out_word="declared",
    went_out_tally="declaration made,declarations made",
    went_out_question="Did {name} declare?",
    rounds=None,
    rules_class=rummy13.RummyRules,
    suits=SUITS,
    ranks=rummy13.RANKS,
    hand_size=lambda number: rummy13.HAND_SIZE,
    rules_wild=lambda rules: rules.wild_rank,
    wild_word="{rank}s are jokers too",
    score_cards=_score_rummy,
    command=rummy13.command_answer,
    final_count=rummy13.final_count,
    doubled_note=rummy13.doubled_note,
    count_reasons=rummy13.count_reasons,
    pure_remark=rummy13.ALL_PURE_REMARK,
    pool_limit=rummy13.pool_limit,
    fixed_penalties=rummy13.fixed_penalties,
    blurb="Pure sequence, jokers; losers count what they cannot meld.",
)

FIVE_CROWNS = GameKind(
    slug="five-crowns",
    name="Five Crowns",
    form_prefix="fc_",
    round_word="round",
    went_out_label="Went out",
    went_out_word="went out",
    went_out_tally="round gone out,rounds gone out",
    went_out_question="Did {name} go out?",
    rounds=five_crowns.ROUNDS,
    rules_class=five_crowns.FiveCrownsRules,
    suits=FIVE_SUITS,
    ranks=five_crowns.RANKS,
    hand_size=three_thirteen.cards_in_round,
    round_wild=three_thirteen.wild_rank,
    wild_word="{rank}s wild",
    score_cards=_melds_all(
        five_crowns.arrange,
        three_thirteen.went_out_error,
        lambda card, number, rules: five_crowns.card_value(card, three_thirteen.wild_rank(number)),
    ),
    command=five_crowns.command_answer,
    blurb="Five suits, 3 to King, 11 rounds; the round's rank and six jokers are wild.",
    reads_photos=False,
)


def _score_gin(cards, round_number, rules, knocked, extra):
    laid = gin_table.own_arrangement(cards, rules, knocked, extra)
    scored = _show(Scored(cards=cards), laid)
    scored.points = laid.points
    if knocked and not laid.points:
        scored.note = "gin: every card melds"
    return scored


def _gin_extras(rules) -> list[Extra]:
    laid_down = Extra(gin_table.LAID_DOWN, "", "", WENT_OUT)
    if rules.variant != gin.OKLAHOMA:
        return [laid_down]
    upcard = Extra(
        gin_table.UPCARD,
        "First upcard",
        "Its value is the knock limit (an ace: gin only); a spade doubles the hand.",
        WENT_OUT,
    )
    return [upcard, laid_down]


GIN = GameKind(
    slug="gin",
    name="Gin Rummy",
    form_prefix="g_",
    round_word="hand",
    went_out_label="Knocked",
    went_out_word="knocked",
    went_out_tally="knock,knocks",
    went_out_question="Did {name} knock?",
    rounds=None,
    rules_class=gin.GinRules,
    suits=SUITS,
    ranks=tuple(range(1, 14)),
    hand_size=lambda number: gin.HAND_SIZE,
    wild_word="",
    score_cards=_score_gin,
    command=gin.command_answer,
    blurb="Two players, 10 cards, knock or go gin; layoffs counted; first to 100 and bonuses.",
    fixed_penalties=lambda rules: {DRAWN: 0},
    players=(2, 2),
    cards_label="Did not knock",
    takes_points=False,
    own_points_word="deadwood",
    card_counts=lambda number, outcome: gin_table.card_counts(outcome),
    extras=_gin_extras,
    settle_round=gin_table.settle,
    result_names=gin_table.RESULT_NAMES,
    result_merits=gin_table.RESULT_MERITS,
    round_enders=(DRAWN,),
    target_reached=gin_table.is_over,
    highest_wins=True,
    winner_deals=True,
    bonus_lines=gin_table.bonus_lines,
    running_totals=True,
)

KINDS: dict[str, GameKind] = {
    kind.slug: kind for kind in (THREE_THIRTEEN, RUMMY13, FIVE_CROWNS, GIN)
}


def kind_of(slug: str) -> GameKind:
    """The game of a stored or requested name; raises CardError for an unknown one."""
    kind = KINDS.get(slug) if isinstance(slug, str) else None
    if kind is None:
        names = ", ".join(f'"{name}"' for name in KINDS)
        raise CardError(f'"game" must be one of {names}')
    return kind
