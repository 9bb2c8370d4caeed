"""13-card Rummy (Indian style): pure sequence, jokers, losers count what they cannot meld."""

from dataclasses import dataclass, field
from itertools import combinations

from .answers import arrangement_fields, hand_in
from .arrangement import Arrangement
from .cards import RANK_LABELS, SUITS, Card, CardError, check_deck, sort_cards
from .options import Rules, option
from .outcomes import DROP, MIDDLE_DROP, WRONG_DECLARATION

HAND_SIZE = 13
RANKS = tuple(range(1, 14))
# The words of the all-pure double, for the round page ({winner}: the winner's name).
ALL_PURE_REMARK = "four pure sequences: the others count double"
# Why a loser's count is what it is, in the words of the rules (RULES.md, "A loser's count").
WHY_NO_PURE = "No pure sequence: every card counts"
WHY_TWO_SETS = "Only two sets come off"
WHY_FOUR_MELDS = "Only four melds come off: one sequence of 4 cards and three melds of 3"
WHY_DOUBLED = "Doubled: {winner}'s melds are all pure"
WHY_CAPPED = "Capped at {cap}: the most one deal counts"
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
class RummyRules(Rules):
    """The options a table chooses for a game of 13-card Rummy (RULES.md defaults)."""

    game_name = "13-card Rummy"

    decks: int = field(default=2, metadata=option("Decks", low=1, high=12, in_view=True))
    jokers: int = field(default=2, metadata=option("Printed jokers", low=0, high=24))
    wild_rank: int | None = field(
        default=None,
        metadata=option(
            "Wild joker rank",
            choices=[(rank, label) for rank, label in enumerate(RANK_LABELS, start=1)],
            blank="none",
            help="Every card of this rank is a joker too, except in its own place.",
        ),
    )
    all_joker_melds: bool = field(
        default=True,
        metadata=option(
            "Melds of jokers only", choices=[(True, "Allowed"), (False, "Not allowed")]
        ),
    )
    max_count: int | None = field(
        default=None,
        metadata=option(
            "Maximum count per deal",
            low=1,
            high=1000,
            blank="none",
            help="Leave empty for no maximum (80 is common).",
        ),
    )
    format: str = field(
        default=FORMAT_OPEN,
        metadata=option(
            "Format",
            choices=[
                (FORMAT_OPEN, "Open: play until you stop, lowest total wins"),
                (FORMAT_POOL, "Pool: reach the limit and you are out"),
            ],
            in_view=True,
        ),
    )
    pool_limit: int = field(
        default=101,
        metadata=option(
            "Pool limit",
            choices=[(limit, str(limit)) for limit in POOL_LIMITS],
            shown_if=("format", FORMAT_POOL),
            in_view=True,
        ),
    )
    first_drop: int = field(
        default=20, metadata=option("Drop", low=0, high=1000, shown_if=("format", FORMAT_POOL))
    )
    middle_drop: int = field(
        default=40,
        metadata=option("Middle drop", low=0, high=1000, shown_if=("format", FORMAT_POOL)),
    )
    wrong_declaration: int = field(
        default=80,
        metadata=option("Wrong declaration", low=0, high=1000, shown_if=("format", FORMAT_POOL)),
    )

    def __post_init__(self):
        object.__setattr__(self, "wild_rank", _rank_value(self.wild_rank))
        Rules.__post_init__(self)


def pool_limit(rules: RummyRules) -> int | None:
    """In pool play a player whose total reaches the limit is out; open play has no limit."""
    return rules.pool_limit if rules.format == FORMAT_POOL else None


def fixed_penalties(rules: RummyRules) -> dict[str, int]:
    """Pool play's drops and wrong declaration cost fixed points instead of a count."""
    if rules.format != FORMAT_POOL:
        return {}
    return {
        DROP: rules.first_drop,
        MIDDLE_DROP: rules.middle_drop,
        WRONG_DECLARATION: rules.wrong_declaration,
    }


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
    check_deck(cards, SUITS, RANKS, rules.decks, rules.jokers, RummyRules.game_name)
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
# Counts per card id packed in one integer, 5 bits a card; bit 4 of each field is a guard that
# a subtraction clears only when a meld asks for more copies than are free.
_FIELD = 5
_GUARDS = sum(1 << (_FIELD * i + 4) for i in range(53))


def _pack(counts) -> int:
    return sum(n << (_FIELD * i) for i, n in enumerate(counts)) | _GUARDS


def _card_id(card: Card) -> int:
    return _JOKER_ID if card.is_joker else _SUIT_INDEX[card.suit] * 13 + card.rank - 1


class _Meld:
    """A candidate meld over card ids: the ids standing as themselves and the joker slots."""

    __slots__ = (
        "ids",
        "jokers",
        "kind",
        "value",
        "flex",
        "slots",
        "size",
        "pure",
        "need",
        "plain",
        "copies",
    )

    def __init__(self, slots, ids, kind, value, flex, need):
        self.slots = slots  # card ids in laid-out order, None where a joker stands in
        self.ids = ids
        self.size = len(slots)
        self.jokers = self.size - len(ids)
        self.kind = kind
        self.value = value
        self.flex = flex  # wild-rank cards standing as themselves
        self.pure = kind == SEQUENCE and self.jokers == 0
        self.need = need  # the ids packed, one per field
        self.plain = len(ids) - flex  # cards that are not of the wild joker rank
        self.copies = 1  # how many times the hand could lay it (set by the hand)


def _window_subsets(length: int, top_only: bool) -> list[list[int]]:
    """For each pattern of present positions in a window, its non-empty sub-patterns; with
    top_only, just those holding the window's top position (their canonical window)."""
    table = []
    for pattern in range(1 << length):
        table.append(
            [
                sub
                for sub in range(1, 1 << length)
                if sub & pattern == sub and (not top_only or sub >> (length - 1))
            ]
        )
    return table


_SUBSETS = {(length, top): _window_subsets(length, top) for length in (3, 4) for top in (0, 1)}


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
        self.free = _pack(self.counts)
        self._candidates = None

    def candidates(self) -> list[_Meld]:
        """Every meld these cards can make with at least one card standing as itself,
        and (only to explain a failed declaration) the 4-card sets, which are not melds."""
        if self._candidates is not None:
            return self._candidates
        counts, value, flex = self.counts, self.value, self.flex
        melds: list[_Meld] = []
        for suit in range(4):
            base = suit * 13
            # Bit p for position p: 1-13 the ranks, 14 an ace above the King.
            present = sum(1 << pos for pos in range(1, 14) if counts[base + pos - 1])
            if present & 2:
                present |= 1 << 14
            if not present:
                continue
            ids_at = [None] + [base + pos - 1 for pos in range(1, 14)] + [base]
            for length in (3, 4):
                for start in range(1, 16 - length):
                    pattern = (present >> start) & ((1 << length) - 1)
                    if not pattern:
                        continue
                    # A choice of cards belongs to the lowest window that holds it.
                    subsets = _SUBSETS[length, start > 1][pattern]
                    top_window = start + length - 1 == 14
                    for sub in subsets:
                        if top_window and sub == 1 << (length - 1):
                            continue  # a lone ace with jokers is already made low
                        slots = []
                        ids = []
                        total = extra = need = 0
                        for offset in range(length):
                            if sub >> offset & 1:
                                card_id = ids_at[start + offset]
                                slots.append(card_id)
                                ids.append(card_id)
                                total += value[card_id]
                                extra += flex[card_id]
                                need += 1 << (_FIELD * card_id)
                            else:
                                slots.append(None)
                        melds.append(_Meld(tuple(slots), tuple(ids), SEQUENCE, total, extra, need))
        for rank in range(13):
            ids = [suit * 13 + rank for suit in range(4) if counts[suit * 13 + rank]]
            for size, kind in ((3, SET), (4, SET_OF_FOUR)):
                for taken in range(2, min(size, len(ids)) + 1):
                    for chosen in combinations(ids, taken):
                        melds.append(
                            _Meld(
                                chosen + (None,) * (size - taken),
                                chosen,
                                kind,
                                sum(value[i] for i in chosen),
                                sum(flex[i] for i in chosen),
                                sum(1 << (_FIELD * i) for i in chosen),
                            )
                        )
        for meld in melds:
            meld.copies = min(counts[i] for i in meld.ids)
        # In an impure meld a wild-rank card standing as itself is no different from one
        # standing in as a joker, so only pure sequences keep such cards as themselves.
        self._candidates = [m for m in melds if m.pure or not m.flex]
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


def loser_reasons(cards: list[Card], rules: RummyRules, arrangement: Arrangement) -> list[str]:
    """Why a loser's count (`arrangement`, as `loser_arrangement` found it) is not less: no pure
    sequence, or a limit of the winning layout that keeps a meld in the count (only two sets,
    only four melds of 4, 3, 3 and 3 cards)."""
    hand = _Hand(cards, rules)
    reasons = []
    if not arrangement.melds and arrangement.points:
        if not any(meld.pure for meld in hand.candidates()):
            reasons.append(WHY_NO_PURE)
    elif arrangement.points:
        # The melds that would come off with neither limit: which limit keeps them in.
        value, melds = _loser_search(hand, most_sets=4, most_threes=4, most_fours=3)
        if hand.total - value < arrangement.points:
            sets = sum(meld.kind == SET for meld in melds)
            threes = sum(meld.size == 3 for meld in melds)
            fours = sum(meld.size == 4 for meld in melds)
            if sets > 2:
                reasons.append(WHY_TWO_SETS)
            if (threes > 3 or fours > 1) and (
                sets <= 2
                or _loser_search(hand, most_threes=4, most_fours=3)[0]
                > hand.total - arrangement.points
            ):
                reasons.append(WHY_FOUR_MELDS)
    return reasons


def doubled_note(winner: str, counts: list[str], penalties: list[str]) -> str:
    """The round page's words when `winner` declared four pure sequences: whose counts are
    doubled (`counts`: the names of the losers whose count is entered, from cards or as a
    number), and that a fixed penalty (a drop, a wrong declaration: `penalties`) is not."""
    said = f"{winner} declared four pure sequences: every other count is doubled"
    if counts:
        said += f" ({_names(counts)} count{'s' if len(counts) > 1 else ''})"
    if penalties:
        which = "penalty is" if len(penalties) == 1 else "penalties are"
        said += f"; {_names(penalties)} fixed {which} not"
    return said + "."


def _names(names: list[str]) -> str:
    """ "Priya's, Sam's and Theo's" """
    owned = [f"{name}'s" for name in names]
    return owned[0] if len(owned) == 1 else f"{', '.join(owned[:-1])} and {owned[-1]}"


def count_reasons(count: int, winner: str | None, rules: RummyRules) -> list[str]:
    """Why a loser's count changed once the round is known: doubled when `winner` (their name,
    or None) declared four pure sequences, then capped at the maximum count, if any."""
    reasons = [WHY_DOUBLED.format(winner=winner)] if winner else []
    if rules.max_count is not None and count * (2 if winner else 1) > rules.max_count:
        reasons.append(WHY_CAPPED.format(cap=rules.max_count))
    return reasons


def _loser(hand: _Hand) -> Arrangement:
    best_value, best_melds = _loser_search(hand)
    if best_value <= 0:
        return Arrangement(points=hand.total, melds=(), unmelded=tuple(sort_cards(hand.cards)))
    best_melds.sort(key=_meld_order)
    melds, unmelded = hand.lay_out([meld.slots for meld in best_melds])
    runs = tuple(meld.kind == SEQUENCE for meld in best_melds)
    return Arrangement(hand.total - best_value, melds, unmelded, runs)


def _loser_search(hand: _Hand, most_sets=2, most_threes=3, most_fours=1):
    """(value, melds): the melds of most value a loser shows, within a winning layout's limits
    (`most_*`, loosened only to tell whether one of them keeps a meld in the count)."""
    candidates = [m for m in hand.candidates() if m.value > 0 and m.kind != SET_OF_FOUR]
    candidates.sort(key=lambda meld: -meld.value)
    best_value = 0
    best_melds: list[_Meld] = []
    chosen: list[_Meld] = []

    def search(options, free, pool_left, fours, threes, sets, value):
        """Try each meld of `options` (all still playable, richest first) after those chosen."""
        nonlocal best_value, best_melds
        if value > best_value:
            best_value = value
            best_melds = list(chosen)
        room = 4 - len(chosen)
        if not room or not options:
            return
        left_value = hand.total - value
        count = len(options)
        for index, meld in enumerate(options):
            # The most the next `room` melds could add: the richest first, each as often as
            # the hand holds its cards (two decks can lay the same meld twice).
            top, wanted, j = 0, room, index
            while wanted and j < count:
                take = options[j].copies if options[j].copies < wanted else wanted
                top += options[j].value * take
                wanted -= take
                j += 1
            if value + (top if top < left_value else left_value) <= best_value:
                return
            after = free - meld.need
            spend = meld.jokers + meld.flex
            fours_after = fours + (meld.size == 4)
            threes_after = threes + (meld.size == 3)
            sets_after = sets + (meld.kind == SET)
            pool_after = pool_left - spend
            # The same meld may be laid twice when two decks hold both copies.
            playable = [
                m
                for m in options[index:]
                if (after - m.need) & _GUARDS == _GUARDS
                and m.jokers + m.flex <= pool_after
                and (m.size == 3 or fours_after < most_fours)
                and (m.size == 4 or threes_after < most_threes)
                and (m.kind != SET or sets_after < most_sets)
            ]
            chosen.append(meld)
            search(
                playable,
                after,
                pool_after,
                fours_after,
                threes_after,
                sets_after,
                value + meld.value,
            )
            chosen.pop()

    # Every layout shown must hold a pure sequence: anchor the search on one.
    pool = hand.printed + hand.flex_total
    richest = candidates[0].value if candidates else 0
    for anchor in candidates:
        if not anchor.pure:
            continue
        if anchor.value + 3 * richest <= best_value:
            break
        if anchor.flex > pool:
            continue
        free = hand.free - anchor.need
        fours, threes = int(anchor.size == 4), int(anchor.size == 3)
        pool_left = pool - anchor.flex
        playable = [
            m
            for m in candidates
            if (free - m.need) & _GUARDS == _GUARDS
            and m.jokers + m.flex <= pool_left
            and (m.size == 3 or fours < most_fours)
        ]
        chosen.append(anchor)
        search(playable, free, pool_left, fours, threes, 0, anchor.value)
        chosen.pop()
    return best_value, best_melds


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared hand judged: valid or not (and why), all pure or not, and its layout."""

    valid: bool
    all_pure: bool
    reason: str | None
    arrangement: Arrangement


class _Cover:
    """Ways to lay all 13 cards out as melds of 4, 3, 3 and 3 cards.

    Melds of two or more cards standing as themselves are searched, the lowest uncovered card
    first; a card may also be a *single*, standing with jokers only, and the jokers and spare
    wild-rank cards left over make *stand-in* melds. Singles and stand-ins are impure
    sequences. A layout is (melds, single card ids, stand-in sizes).
    """

    def __init__(self, hand: _Hand, candidates, *, cover_flex=False, sets_of_four=False):
        self.hand = hand
        self.cover_flex = cover_flex
        self.allow_singles = not cover_flex  # the all-pure layout has no jokers
        counts, flex = hand.counts, hand.flex
        self.must_cover = [i for i in range(52) if counts[i] and (cover_flex or not flex[i])]
        self.cover_fields = sum(0b1111 << (_FIELD * i) for i in self.must_cover)
        self.containing: dict[int, list[_Meld]] = {i: [] for i in self.must_cover}
        for meld in candidates:
            if meld.kind == SET_OF_FOUR and not sets_of_four:
                continue
            if len(meld.ids) < 2 and self.allow_singles:
                continue
            for i in meld.ids:
                if i in self.containing:
                    self.containing[i].append(meld)
        self.uncovered = sum(counts[i] for i in self.must_cover)
        self.hopeless = not self.allow_singles and any(
            not self.containing[i] for i in self.must_cover
        )

    def best(self, anchors=None, enough=3):
        """(level, layout): the best layout by the declaration checks in order — 3 valid,
        2 too many sets, 1 the 4-card meld is a set — holding one of `anchors` (pure
        sequences) if given; the layout only for level 3. (-1, None) when there is none.
        The search stops at the first layout of level `enough` or better."""
        hand = self.hand
        printed, flex_total = hand.printed, hand.flex_total
        allow_joker_melds = hand.rules.all_joker_melds
        cover_fields, containing, cover_flex = self.cover_fields, self.containing, self.cover_flex
        allow_singles = self.allow_singles
        chosen: list[_Meld] = []
        singles: list[int] = []
        known: dict[tuple, int] = {}
        found = []

        def search(free, fours, four_set, threes, sets, slots, flex_used, uncovered):
            capacity = 4 * (1 - fours) + 3 * (3 - threes)
            placed = len(singles)
            if uncovered + 3 * placed > capacity:
                return -1
            waiting = free & cover_fields
            if not waiting:
                sizes = [4] * (1 - fours) + [3] * (3 - threes)
                if placed > len(sizes):
                    return -1
                flex_left = flex_total - flex_used
                if placed + printed + flex_left - slots != capacity:
                    return -1
                stand_ins = len(sizes) - placed
                flex_free = flex_left - max(0, slots - printed)
                if stand_ins and not allow_joker_melds and flex_free < stand_ins:
                    return -1
                level = 1 if four_set else (2 if sets > 2 else 3)
                if level == 3:
                    found.append((list(chosen), list(singles), sizes[placed:]))
                return level
            melds_left = 4 - len(chosen) - placed
            if melds_left < 2 and not _one_meld_can_hold(waiting, melds_left):
                return -1
            state = (free, fours, four_set, threes, sets, slots, flex_used, placed)
            level = known.get(state)
            if level is not None:
                return level
            best = -1
            lowest = ((waiting & -waiting).bit_length() - 1) // _FIELD
            for meld in containing[lowest]:
                if meld.size == 4:
                    if fours:
                        continue
                elif threes == 3:
                    continue
                if slots + meld.jokers > printed + flex_total - flex_used - meld.flex:
                    continue
                after = free - meld.need
                if after & _GUARDS != _GUARDS:
                    continue
                chosen.append(meld)
                level = search(
                    after,
                    fours + (meld.size == 4),
                    four_set or meld.kind == SET_OF_FOUR,
                    threes + (meld.size == 3),
                    sets + (meld.kind == SET),
                    slots + meld.jokers,
                    flex_used + meld.flex,
                    uncovered - (len(meld.ids) if cover_flex else meld.plain),
                )
                chosen.pop()
                if level > best:
                    best = level
                    if best >= enough:
                        return best
            if allow_singles and len(chosen) + placed < 4:
                singles.append(lowest)
                level = search(
                    free - (1 << (_FIELD * lowest)),
                    fours,
                    four_set,
                    threes,
                    sets,
                    slots,
                    flex_used,
                    uncovered - 1,
                )
                singles.pop()
                if level > best:
                    best = level
                    if best >= enough:
                        return best
            known[state] = best
            return best

        if self.hopeless:
            return -1, None
        if anchors is None:
            level = search(hand.free, 0, False, 0, 0, 0, 0, self.uncovered)
            return level, (found[0] if found else None)
        best = -1
        for anchor in anchors:
            free = hand.free - anchor.need
            if free & _GUARDS != _GUARDS or anchor.flex > printed + flex_total:
                continue
            chosen.append(anchor)
            level = search(
                free,
                int(anchor.size == 4),
                False,
                int(anchor.size == 3),
                0,
                0,
                anchor.flex,
                self.uncovered - (len(anchor.ids) if cover_flex else anchor.plain),
            )
            chosen.pop()
            best = max(best, level)
            if best == 3:
                return 3, found[0]
        return best, None


def _one_meld_can_hold(waiting: int, melds_left: int) -> bool:
    """Whether the cards still waiting (packed counts) could all sit in one meld."""
    if melds_left < 1:
        return False
    ids = []
    while waiting:
        card_id = ((waiting & -waiting).bit_length() - 1) // _FIELD
        if (waiting >> (_FIELD * card_id)) & 0b1111 > 1 or len(ids) == 4:
            return False  # two copies of a card, or five cards, never share a meld
        ids.append(card_id)
        waiting &= ~(0b11111 << (_FIELD * card_id))
    suits = {card_id // 13 for card_id in ids}
    ranks = [card_id % 13 for card_id in ids]
    if len(suits) == 1:
        if max(ranks) - min(ranks) < 4:
            return True
        high = [13 if rank == 0 else rank for rank in ranks]  # the ace above the King
        return max(high) - min(high) < 4
    return len(set(ranks)) == 1


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
        level, layout = _Cover(hand, pure, cover_flex=True).best()
        if layout and not layout[2]:
            return Declaration(True, True, None, _declared(hand, *layout))
    cover = _Cover(hand, candidates, sets_of_four=True)
    level, layout = cover.best(anchors=pure)
    if level == 3:
        return Declaration(True, False, None, _declared(hand, *layout))
    # Not valid: say which rule fails first, in the order a player checks them.
    if level == 2:
        reason = REASON_TOO_FEW_SEQUENCES
    elif level == 1:
        reason = REASON_FOUR_CARD_SET
    elif cover.best(enough=1)[0] >= 0:
        reason = REASON_NO_PURE
    else:
        reason = REASON_NOT_FOUR_MELDS
    return Declaration(False, False, reason, _loser(hand))


def _declared(hand: _Hand, melds: list[_Meld], singles: list[int], stand_in_sizes: list[int]):
    """The four melds of a valid declaration as real cards."""
    melds = sorted(melds, key=_meld_order)
    sizes = [4] * (1 - sum(m.size == 4 for m in melds)) + [3] * (
        3 - sum(m.size == 3 for m in melds)
    )
    single_sizes = sizes[: len(singles)]
    slots = [meld.slots for meld in melds]
    slots += [
        (card_id,) + (None,) * (size - 1)
        for card_id, size in zip(singles, single_sizes, strict=True)
    ]
    slots += [(None,) * size for size in stand_in_sizes]
    laid, _ = hand.lay_out(slots)
    # Singles and stand-ins are impure sequences.
    runs = tuple(meld.kind == SEQUENCE for meld in melds) + (True,) * (len(slots) - len(melds))
    return Arrangement(0, laid, (), runs)


ROLES = ("loser", "winner")


def command_answer(request: dict, rules: RummyRules) -> dict:
    """A `score_hands` answer: a loser's count (doubled when the winner's melds are all pure)
    with the melds it leaves out, or a declaration judged, with the reason when it fails."""
    cards = hand_in(request)
    role = request.get("role", "loser")
    if role not in ROLES:
        raise CardError('"role" must be "loser" or "winner"')
    if role == "winner":
        judged = declaration(cards, rules)
        answer = arrangement_fields(judged.arrangement)
        answer["points"] = final_count(judged.arrangement.points, False, rules)
        answer["valid"] = judged.valid
        answer["all_pure"] = judged.all_pure
        if not judged.valid:
            answer["reason"] = judged.reason
        return answer
    doubled = request.get("winner_all_pure", False)
    if not isinstance(doubled, bool):
        raise CardError('"winner_all_pure" must be true or false')
    arrangement = loser_arrangement(cards, rules)
    answer = arrangement_fields(arrangement)
    answer["points"] = final_count(arrangement.points, doubled, rules)
    return answer
