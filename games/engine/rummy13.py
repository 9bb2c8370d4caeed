"""13-card Rummy (Indian style): pure sequence, jokers, losers count what they cannot meld."""

from collections import Counter
from dataclasses import asdict, dataclass
from itertools import combinations, product

from .arrangement import Arrangement
from .cards import RANK_LABELS, Card, CardError, check_hand_supply, sort_cards
from .three_thirteen import _check_bool, _check_choice, _check_int

HAND_SIZE = 13
FORMAT_OPEN = "open"
FORMAT_POOL = "pool"
POOL_LIMITS = (101, 201)

REASON_NO_PURE = "no pure sequence"
REASON_NOT_FOUR_MELDS = "the cards do not form four melds (three of 3 cards and one of 4)"
REASON_FOUR_CARD_SET = "the 4-card meld must be a sequence"
REASON_TOO_FEW_SEQUENCES = "at least two melds must be sequences"
SEQUENCE = "sequence"
SET = "set"
SET_OF_FOUR = "set of four"  # not a meld; only used to explain a failed declaration


def _rank_value(value) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13:
        return value
    if isinstance(value, str):
        text = value.strip().upper()
        if text == "T":
            text = "10"
        if text in RANK_LABELS:
            return RANK_LABELS.index(text) + 1
    raise CardError(f"rule wild_rank must be a rank A, 2-10, J, Q or K (or null), not {value!r}")


@dataclass(frozen=True, slots=True)
class RummyRules:
    """The options a table chooses for a game of 13-card Rummy (RULES.md defaults)."""

    decks: int = 2
    jokers: int = 2
    wild_rank: int | None = None
    all_joker_melds: bool = True
    max_count: int | None = None
    format: str = FORMAT_OPEN
    pool_limit: int = 101
    first_drop: int = 20
    middle_drop: int = 40
    wrong_declaration: int = 80

    def __post_init__(self):
        _check_int("decks", self.decks, 1, 12)
        _check_int("jokers", self.jokers, 0, 24)
        object.__setattr__(self, "wild_rank", _rank_value(self.wild_rank))
        _check_bool("all_joker_melds", self.all_joker_melds)
        if self.max_count is not None:
            _check_int("max_count", self.max_count, 1, 1000)
        _check_choice("format", self.format, (FORMAT_OPEN, FORMAT_POOL))
        _check_choice("pool_limit", self.pool_limit, POOL_LIMITS)
        _check_int("first_drop", self.first_drop, 0, 1000)
        _check_int("middle_drop", self.middle_drop, 0, 1000)
        _check_int("wrong_declaration", self.wrong_declaration, 0, 1000)

    @classmethod
    def from_dict(cls, data: dict | None) -> "RummyRules":
        data = data or {}
        if not isinstance(data, dict):
            raise CardError("rules must be an object")
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise CardError(f"unknown 13-card Rummy rule: {', '.join(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def wild_rank_label(self) -> str | None:
        return None if self.wild_rank is None else RANK_LABELS[self.wild_rank - 1]


def is_joker(card: Card, rules: RummyRules) -> bool:
    """Printed jokers, and every card of the wild joker rank when one is chosen."""
    return card.is_joker or card.rank == rules.wild_rank


def card_value(card: Card, rules: RummyRules) -> int:
    """A loser's count per card: 2-10 face value, J Q K A 10, jokers and wild-rank cards 0."""
    if is_joker(card, rules):
        return 0
    if card.rank == 1 or card.rank > 10:
        return 10
    return card.rank


def check_hand(cards: list[Card], rules: RummyRules) -> list[Card]:
    """A hand fit for scoring: 13 cards within the supply of cards in play."""
    if len(cards) != HAND_SIZE:
        raise CardError(f"a 13-card Rummy hand holds 13 cards; this one has {len(cards)}")
    check_hand_supply(cards, rules.decks, rules.jokers)
    return cards


def final_count(count: int, winner_all_pure: bool, rules: RummyRules) -> int:
    """Double when the winner's melds are four pure sequences, then apply the cap if any."""
    if winner_all_pure:
        count *= 2
    if rules.max_count is not None:
        count = min(count, rules.max_count)
    return count


@dataclass(frozen=True, slots=True)
class _Meld:
    slots: tuple  # cards in laid-out order, None where a joker stands in
    naturals: tuple[Card, ...]  # the cards that stand as themselves
    jokers: int
    kind: str
    value: int
    flex: int  # wild-rank cards standing as themselves

    @property
    def size(self) -> int:
        return len(self.slots)

    @property
    def pure(self) -> bool:
        return self.kind == SEQUENCE and self.jokers == 0


def _candidate_melds(counts: Counter, rules: RummyRules, sets_of_four: bool) -> list[_Meld]:
    """Every meld the hand's cards can make with at least one card standing as itself."""
    found: dict[tuple, _Meld] = {}

    def add(slots, kind):
        naturals = tuple(sorted(card for card in slots if card is not None))
        if not naturals:
            return
        jokers = len(slots) - len(naturals)
        key = (naturals, jokers, kind)
        if key not in found:
            found[key] = _Meld(
                slots=tuple(slots),
                naturals=naturals,
                jokers=jokers,
                kind=kind,
                value=sum(card_value(card, rules) for card in naturals),
                flex=sum(1 for card in naturals if card.rank == rules.wild_rank),
            )

    suits = sorted({card.suit for card in counts if not card.is_joker})
    for suit in suits:
        for length in (3, 4):
            for start in range(1, 16 - length):
                cards = [
                    Card(1 if pos == 14 else pos, suit) for pos in range(start, start + length)
                ]
                choices = [(card, None) if counts[card] else (None,) for card in cards]
                for slots in product(*choices):
                    add(slots, SEQUENCE)
    by_rank: dict[int, list[Card]] = {}
    for card in counts:
        if not card.is_joker:
            by_rank.setdefault(card.rank, []).append(card)
    for rank_cards in by_rank.values():
        rank_cards.sort()
        for size, kind in ((3, SET), (4, SET_OF_FOUR)):
            if kind == SET_OF_FOUR and not sets_of_four:
                continue
            for taken in range(2, min(size, len(rank_cards)) + 1):
                for chosen in combinations(rank_cards, taken):
                    add(list(chosen) + [None] * (size - taken), kind)
    return list(found.values())


def _fits(meld: _Meld, used: Counter, counts: Counter) -> bool:
    needed = Counter(meld.naturals)
    return all(used[card] + number <= counts[card] for card, number in needed.items())


def _fill_jokers(melds, cards: list[Card], rules: RummyRules):
    """Put real joker cards (printed first, then spare wild-rank cards) in the joker slots."""
    standing = Counter()
    for meld in melds:
        standing.update(card for card in meld if card is not None)
    spare = Counter(cards) - standing
    stand_ins = [card for card in sort_cards(spare.elements()) if card.is_joker]
    stand_ins += [card for card in sort_cards(spare.elements()) if not card.is_joker]
    stand_ins = [card for card in stand_ins if is_joker(card, rules)]
    laid = []
    for meld in melds:
        laid.append(tuple(card if card is not None else stand_ins.pop(0) for card in meld))
    left = Counter(cards)
    for meld in laid:
        left.subtract(meld)
    return tuple(laid), tuple(sort_cards(left.elements()))


def loser_arrangement(cards: list[Card], rules: RummyRules) -> Arrangement:
    """A loser's least count: with a pure sequence shown, melds that fit a winning layout
    (at most one 4-card sequence, three 3-card melds, two sets) are left out of the count."""
    check_hand(cards, rules)
    counts = Counter(cards)
    total = sum(card_value(card, rules) for card in cards)
    pool = sum(number for card, number in counts.items() if is_joker(card, rules))
    candidates = [
        meld for meld in _candidate_melds(counts, rules, sets_of_four=False) if meld.value > 0
    ]
    candidates.sort(key=lambda meld: -meld.value)
    best_value = -1
    best_melds: list[_Meld] = []
    chosen: list[_Meld] = []
    used = Counter()

    def search(start, pool_left, fours, threes, sets, value):
        nonlocal best_value, best_melds
        if value > best_value:
            best_value = value
            best_melds = list(chosen)
        if len(chosen) == 4:
            return
        room = 4 - len(chosen)
        for index in range(start, len(candidates)):
            meld = candidates[index]
            if value + meld.value * room <= best_value:
                return
            if meld.size == 4:
                if fours:
                    continue
            elif threes == 3:
                continue
            if meld.kind == SET and sets == 2:
                continue
            spend = meld.jokers + meld.flex
            if spend > pool_left or not _fits(meld, used, counts):
                continue
            chosen.append(meld)
            used.update(meld.naturals)
            # The same meld may be laid twice when two decks hold both copies.
            search(
                index,
                pool_left - spend,
                fours + (meld.size == 4),
                threes + (meld.size == 3),
                sets + (meld.kind == SET),
                value + meld.value,
            )
            used.subtract(meld.naturals)
            chosen.pop()

    # Every layout shown must hold a pure sequence: anchor the search on one.
    richest = candidates[0].value if candidates else 0
    for anchor in candidates:
        if not anchor.pure:
            continue
        if anchor.value + 3 * richest <= best_value:
            break
        if anchor.flex > pool:
            continue
        chosen.append(anchor)
        used.update(anchor.naturals)
        search(0, pool - anchor.flex, int(anchor.size == 4), int(anchor.size == 3), 0, anchor.value)
        used.subtract(anchor.naturals)
        chosen.pop()

    if best_value <= 0:
        return Arrangement(points=total, melds=(), unmelded=tuple(sort_cards(cards)))
    melds, unmelded = _fill_jokers([meld.slots for meld in best_melds], cards, rules)
    return Arrangement(points=total - best_value, melds=melds, unmelded=unmelded)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared hand judged: valid or not (and why), all pure or not, and its layout."""

    valid: bool
    all_pure: bool
    reason: str | None
    arrangement: Arrangement


def _covers(cards: list[Card], rules: RummyRules, candidates: list[_Meld], cover_flex: bool):
    """Every way to lay all 13 cards out as melds of 4, 3, 3 and 3 cards, as
    (melds, stand-in melds) where stand-in melds are made of jokers and wild-rank cards."""
    counts = Counter(cards)
    printed = counts[Card(0, "")]
    flex_total = sum(n for card, n in counts.items() if not card.is_joker and is_joker(card, rules))
    must_cover = sorted(
        card for card in counts if not card.is_joker and (cover_flex or not is_joker(card, rules))
    )
    containing: dict[Card, list[_Meld]] = {card: [] for card in must_cover}
    for meld in candidates:
        for card in set(meld.naturals):
            if card in containing:
                containing[card].append(meld)
    chosen: list[_Meld] = []
    used = Counter()

    def search(fours, threes, slots, flex_used):
        lowest = next((card for card in must_cover if used[card] < counts[card]), None)
        if lowest is None:
            flex_left = flex_total - flex_used
            rest = printed + flex_left - slots
            sizes = [4] * (1 - fours) + [3] * (3 - threes)
            if rest != sum(sizes):
                return
            flex_free = flex_left - max(0, slots - printed)
            if sizes and not rules.all_joker_melds and flex_free < len(sizes):
                return
            yield list(chosen), sizes
            return
        for meld in containing[lowest]:
            if meld.size == 4 and fours:
                continue
            if meld.size == 3 and threes == 3:
                continue
            if not _fits(meld, used, counts):
                continue
            if slots + meld.jokers > printed + flex_total - flex_used - meld.flex:
                continue
            chosen.append(meld)
            used.update(meld.naturals)
            yield from search(
                fours + (meld.size == 4),
                threes + (meld.size == 3),
                slots + meld.jokers,
                flex_used + meld.flex,
            )
            used.subtract(meld.naturals)
            chosen.pop()

    yield from search(0, 0, 0, 0)


def _layout_level(melds: list[_Meld], stand_in_sizes: list[int]) -> int:
    """How many of the declaration checks, in order, a layout passes: a pure sequence,
    the 4-card meld a sequence, at least two sequences. Stand-in melds are impure sequences."""
    if not any(meld.pure for meld in melds):
        return 0
    four_is_sequence = 4 in stand_in_sizes or any(
        meld.size == 4 and meld.kind == SEQUENCE for meld in melds
    )
    if not four_is_sequence:
        return 1
    sequences = len(stand_in_sizes) + sum(meld.kind == SEQUENCE for meld in melds)
    if sequences < 2:
        return 2
    return 3


def _stand_in_melds(sizes: list[int]):
    return [(None,) * size for size in sizes]


def declaration(cards: list[Card], rules: RummyRules) -> Declaration:
    """Judge a declared hand: exactly four melds (three of 3 cards and one 4-card sequence),
    at least two sequences, at least one of them pure; and whether all four are pure."""
    check_hand(cards, rules)
    counts = Counter(cards)
    candidates = _candidate_melds(counts, rules, sets_of_four=True)
    pure = [meld for meld in candidates if meld.pure]
    for melds, sizes in _covers(cards, rules, pure, cover_flex=True):
        if not sizes:
            laid, _ = _fill_jokers([meld.slots for meld in melds], cards, rules)
            return Declaration(True, True, None, Arrangement(0, laid, ()))
    best_level = -1
    for melds, sizes in _covers(cards, rules, candidates, cover_flex=False):
        level = _layout_level(melds, sizes)
        if level == 3:
            slots = [meld.slots for meld in melds] + _stand_in_melds(sizes)
            laid, _ = _fill_jokers(slots, cards, rules)
            return Declaration(True, False, None, Arrangement(0, laid, ()))
        best_level = max(best_level, level)
    if not pure:
        reason = REASON_NO_PURE
    else:
        reason = {
            -1: REASON_NOT_FOUR_MELDS,
            0: REASON_NO_PURE,
            1: REASON_FOUR_CARD_SET,
            2: REASON_TOO_FEW_SEQUENCES,
        }[best_level]
    return Declaration(False, False, reason, loser_arrangement(cards, rules))
