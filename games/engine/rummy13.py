"""13-card Rummy (Indian style): pure sequence, jokers, losers count what they cannot meld."""

from dataclasses import asdict, dataclass
from itertools import combinations

from .arrangement import Arrangement
from .cards import RANK_LABELS, SUITS, Card, CardError, check_hand_supply, sort_cards
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


_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
_JOKER_ID = 52
_ID_CARD = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)] + [Card(0, "")]


def _card_id(card: Card) -> int:
    return _JOKER_ID if card.is_joker else _SUIT_INDEX[card.suit] * 13 + card.rank - 1


class _Meld:
    """A candidate meld over card ids: the ids standing as themselves and the joker slots."""

    __slots__ = ("ids", "jokers", "kind", "value", "flex", "slots", "size", "pure")

    def __init__(self, slots, kind, value, flex):
        self.slots = slots  # card ids in laid-out order, None where a joker stands in
        self.ids = tuple(card_id for card_id in slots if card_id is not None)
        self.jokers = len(slots) - len(self.ids)
        self.kind = kind
        self.value = value
        self.flex = flex  # wild-rank cards standing as themselves
        self.size = len(slots)
        self.pure = kind == SEQUENCE and self.jokers == 0


class _Hand:
    """A hand as counts per card id, with each id's count value and joker-ness."""

    def __init__(self, cards: list[Card], rules: RummyRules):
        self.cards = cards
        self.rules = rules
        self.counts = [0] * 53
        for card in cards:
            self.counts[_card_id(card)] += 1
        self.value = [card_value(card, rules) for card in _ID_CARD]
        self.flex = [card.rank == rules.wild_rank and not card.is_joker for card in _ID_CARD]
        self.printed = self.counts[_JOKER_ID]
        self.flex_total = sum(n for i, n in enumerate(self.counts) if self.flex[i])
        self.total = sum(self.value[i] * n for i, n in enumerate(self.counts))
        self._candidates = None

    def candidates(self) -> list[_Meld]:
        """Every meld these cards can make with at least one card standing as itself,
        and (only to explain a failed declaration) the 4-card sets, which are not melds."""
        if self._candidates is not None:
            return self._candidates
        counts, value, flex = self.counts, self.value, self.flex
        found: dict[tuple, _Meld] = {}
        for suit in range(4):
            base = suit * 13
            for length in (3, 4):
                for start in range(1, 16 - length):
                    ids = [
                        base + (0 if pos == 14 else pos - 1) for pos in range(start, start + length)
                    ]
                    present = [i for i in ids if counts[i]]
                    if not present:
                        continue
                    for mask in range(1, 1 << len(present)):
                        chosen = {present[b] for b in range(len(present)) if mask >> b & 1}
                        slots = tuple(i if i in chosen else None for i in ids)
                        key = (tuple(sorted(chosen)), len(ids) - len(chosen), SEQUENCE)
                        if key not in found:
                            found[key] = _Meld(
                                slots,
                                SEQUENCE,
                                sum(value[i] for i in chosen),
                                sum(flex[i] for i in chosen),
                            )
        for rank in range(13):
            ids = [suit * 13 + rank for suit in range(4) if counts[suit * 13 + rank]]
            for size, kind in ((3, SET), (4, SET_OF_FOUR)):
                for taken in range(2, min(size, len(ids)) + 1):
                    for chosen in combinations(ids, taken):
                        found[(chosen, size - taken, kind)] = _Meld(
                            chosen + (None,) * (size - taken),
                            kind,
                            sum(value[i] for i in chosen),
                            sum(flex[i] for i in chosen),
                        )
        self._candidates = list(found.values())
        return self._candidates

    def lay_out(self, melds: list[tuple]) -> tuple[tuple, tuple]:
        """Real cards for melds given as id slots: jokers (printed first, then spare
        wild-rank cards) fill the joker slots; the rest of the hand is left over."""
        spare = list(self.counts)
        for slots in melds:
            for card_id in slots:
                if card_id is not None:
                    spare[card_id] -= 1
        stand_ins = [_JOKER_ID] * spare[_JOKER_ID]
        stand_ins += [i for i in range(52) if self.flex[i] for _ in range(spare[i])]
        laid = []
        for slots in melds:
            meld = []
            for card_id in slots:
                if card_id is None:
                    card_id = stand_ins.pop(0)
                    spare[card_id] -= 1
                meld.append(_ID_CARD[card_id])
            laid.append(tuple(meld))
        left = [_ID_CARD[i] for i in range(53) for _ in range(spare[i])]
        return tuple(laid), tuple(sort_cards(left))


def _meld_order(meld: _Meld):
    """Show the 4-card meld first, then pure sequences, sequences, sets."""
    return (meld.size != 4, not meld.pure, meld.kind != SEQUENCE)


def loser_arrangement(cards: list[Card], rules: RummyRules) -> Arrangement:
    """A loser's least count: with a pure sequence shown, melds that fit a winning layout
    (at most one 4-card sequence, three 3-card melds, two sets) are left out of the count."""
    check_hand(cards, rules)
    return _loser(_Hand(cards, rules))


def _loser(hand: _Hand) -> Arrangement:
    counts = hand.counts
    candidates = [m for m in hand.candidates() if m.value > 0 and m.kind != SET_OF_FOUR]
    candidates.sort(key=lambda meld: -meld.value)
    pool = hand.printed + hand.flex_total
    best_value = 0
    best_melds: list[_Meld] = []
    chosen: list[_Meld] = []
    used = [0] * 53

    def search(start, pool_left, fours, threes, sets, value):
        nonlocal best_value, best_melds
        if value > best_value:
            best_value = value
            best_melds = list(chosen)
        room = 4 - len(chosen)
        if not room:
            return
        left_value = hand.total - value
        for index in range(start, len(candidates)):
            meld = candidates[index]
            if value + min(meld.value * room, left_value) <= best_value:
                return
            if meld.size == 4:
                if fours:
                    continue
            elif threes == 3:
                continue
            if sets == 2 and meld.kind == SET:
                continue
            spend = meld.jokers + meld.flex
            if spend > pool_left:
                continue
            ids = meld.ids
            if any(used[i] >= counts[i] for i in ids):
                continue
            for i in ids:
                used[i] += 1
            chosen.append(meld)
            # The same meld may be laid twice when two decks hold both copies.
            search(
                index,
                pool_left - spend,
                fours + (meld.size == 4),
                threes + (meld.size == 3),
                sets + (meld.kind == SET),
                value + meld.value,
            )
            chosen.pop()
            for i in ids:
                used[i] -= 1

    # Every layout shown must hold a pure sequence: anchor the search on one.
    richest = candidates[0].value if candidates else 0
    for anchor in candidates:
        if not anchor.pure:
            continue
        if anchor.value + 3 * richest <= best_value:
            break
        if anchor.flex > pool:
            continue
        for i in anchor.ids:
            used[i] += 1
        chosen.append(anchor)
        search(0, pool - anchor.flex, int(anchor.size == 4), int(anchor.size == 3), 0, anchor.value)
        chosen.pop()
        for i in anchor.ids:
            used[i] -= 1

    if best_value <= 0:
        return Arrangement(points=hand.total, melds=(), unmelded=tuple(sort_cards(hand.cards)))
    best_melds.sort(key=_meld_order)
    melds, unmelded = hand.lay_out([meld.slots for meld in best_melds])
    return Arrangement(points=hand.total - best_value, melds=melds, unmelded=unmelded)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared hand judged: valid or not (and why), all pure or not, and its layout."""

    valid: bool
    all_pure: bool
    reason: str | None
    arrangement: Arrangement


def _covers(hand: _Hand, candidates: list[_Meld], cover_flex: bool, max_sets: int = 4):
    """Ways to lay all 13 cards out as melds of 4, 3, 3 and 3 cards, as (melds, sizes of the
    stand-in melds), a stand-in meld being made of jokers and spare wild-rank cards only."""
    counts, flex = hand.counts, hand.flex
    printed, flex_total = hand.printed, hand.flex_total
    allow_joker_melds = hand.rules.all_joker_melds
    must_cover = [i for i in range(52) if counts[i] and (cover_flex or not flex[i])]
    containing: dict[int, list[_Meld]] = {i: [] for i in must_cover}
    for meld in candidates:
        for i in meld.ids:
            if i in containing:
                containing[i].append(meld)
    chosen: list[_Meld] = []
    used = [0] * 53

    def search(fours, threes, sets, slots, flex_used, uncovered):
        capacity = 4 * (1 - fours) + 3 * (3 - threes)
        if uncovered > capacity:
            return
        lowest = next((i for i in must_cover if used[i] < counts[i]), None)
        if lowest is None:
            flex_left = flex_total - flex_used
            if printed + flex_left - slots != capacity:
                return
            sizes = [4] * (1 - fours) + [3] * (3 - threes)
            flex_free = flex_left - max(0, slots - printed)
            if sizes and not allow_joker_melds and flex_free < len(sizes):
                return
            yield list(chosen), sizes
            return
        for meld in containing[lowest]:
            if meld.size == 4:
                if fours:
                    continue
            elif threes == 3:
                continue
            if meld.kind != SEQUENCE and sets == max_sets:
                continue
            if slots + meld.jokers > printed + flex_total - flex_used - meld.flex:
                continue
            ids = meld.ids
            if any(used[i] >= counts[i] for i in ids):
                continue
            for i in ids:
                used[i] += 1
            chosen.append(meld)
            covered = sum(1 for i in ids if not flex[i] or cover_flex)
            yield from search(
                fours + (meld.size == 4),
                threes + (meld.size == 3),
                sets + (meld.kind != SEQUENCE),
                slots + meld.jokers,
                flex_used + meld.flex,
                uncovered - covered,
            )
            chosen.pop()
            for i in ids:
                used[i] -= 1

    yield from search(0, 0, 0, 0, 0, sum(counts[i] for i in must_cover))


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


def declaration(cards: list[Card], rules: RummyRules) -> Declaration:
    """Judge a declared hand: exactly four melds (three of 3 cards and one 4-card sequence),
    at least two sequences, at least one of them pure; and whether all four are pure."""
    check_hand(cards, rules)
    hand = _Hand(cards, rules)
    candidates = hand.candidates()
    pure = [meld for meld in candidates if meld.pure]
    if not pure:
        return Declaration(False, False, REASON_NO_PURE, _loser(hand))
    if not hand.printed:
        for melds, sizes in _covers(hand, pure, cover_flex=True):
            if not sizes:
                melds.sort(key=_meld_order)
                laid, _ = hand.lay_out([meld.slots for meld in melds])
                return Declaration(True, True, None, Arrangement(0, laid, ()))
    melds_only = [meld for meld in candidates if meld.kind != SET_OF_FOUR]
    for melds, sizes in _covers(hand, melds_only, cover_flex=False, max_sets=2):
        if _layout_level(melds, sizes) == 3:
            melds.sort(key=_meld_order)
            slots = [meld.slots for meld in melds] + [(None,) * size for size in sizes]
            laid, _ = hand.lay_out(slots)
            return Declaration(True, False, None, Arrangement(0, laid, ()))
    best_level = -1
    for melds, sizes in _covers(hand, candidates, cover_flex=False):
        best_level = max(best_level, _layout_level(melds, sizes))
        if best_level == 2:
            break
    reason = {
        -1: REASON_NOT_FOUR_MELDS,
        0: REASON_NO_PURE,
        1: REASON_FOUR_CARD_SET,
        2: REASON_TOO_FEW_SEQUENCES,
    }[best_level]
    return Declaration(False, False, reason, _loser(hand))
