"""Three Thirteen: 11 rounds of 3 to 13 cards, a new wild rank each round, lowest total wins."""

from dataclasses import dataclass, field

from .answers import arrangement_fields, hand_in, round_in
from .arrangement import Arrangement
from .cards import SUITS, Card, CardError, check_deck, sort_cards
from .options import Rules, option

ROUNDS = 11
RANKS = tuple(range(1, 14))
ACES_LOW = "low"
ACES_HIGH_OR_LOW = "high_or_low"
FACES_TEN = "ten"
FACES_RANK = "rank"
JOKER_PENALTY = 20
HIGH_ACE_PENALTY = 15


def cards_in_round(round_number: int) -> int:
    """In round r each player holds r + 2 cards."""
    return round_number + 2


def wild_rank(round_number: int) -> int:
    """The wild rank of round r is the rank numbered r + 2 (3s in round 1 … Kings in round 11)."""
    return round_number + 2


def check_round_hand(cards: list[Card], round_number: int) -> None:
    """A hand of round r holds r + 2 cards (Three Thirteen and Five Crowns alike)."""
    expected = cards_in_round(round_number)
    if len(cards) != expected:
        raise CardError(
            f"a hand in round {round_number} holds {expected} cards; this one has {len(cards)}"
        )


def default_decks(players: int) -> int:
    """1 deck for two players, 2 for three or four, one more per two further players."""
    if players <= 2:
        return 1
    return 2 + (max(players - 4, 0) + 1) // 2


@dataclass(frozen=True, slots=True)
class ThreeThirteenRules(Rules):
    """The options a table chooses for a game of Three Thirteen (RULES.md defaults)."""

    game_name = "Three Thirteen"

    decks: int = field(
        default=2,
        metadata=option(
            "Decks",
            low=1,
            high=12,
            from_players=True,
            in_view=True,
            help="Leave empty for 1 with two players, 2 with three or four, one more per two more.",
        ),
    )
    aces: str = field(
        default=ACES_LOW,
        metadata=option(
            "Aces",
            choices=[
                (ACES_LOW, "Low only; an ace left over costs 1"),
                (ACES_HIGH_OR_LOW, f"High or low; an ace left over costs {HIGH_ACE_PENALTY}"),
            ],
        ),
    )
    faces: str = field(
        default=FACES_TEN,
        metadata=option(
            "Face cards",
            choices=[(FACES_TEN, "J, Q, K cost 10"), (FACES_RANK, "J, Q, K cost 11, 12, 13")],
        ),
    )
    jokers: int = field(
        default=0,
        metadata=option(
            "Printed jokers in play",
            low=0,
            high=24,
            help=f"A joker is wild; one left over costs {JOKER_PENALTY}.",
        ),
    )
    all_wild_melds: bool = field(
        default=True,
        metadata=option(
            "Melds of wild cards only", choices=[(True, "Allowed"), (False, "Not allowed")]
        ),
    )

    @property
    def high_aces(self) -> bool:
        return self.aces == ACES_HIGH_OR_LOW


def card_value(card: Card, rules: ThreeThirteenRules) -> int:
    """What a card left out of melds costs: face value, aces 1 (15 if high-or-low), J/Q/K 10 or
    11/12/13, jokers 20; a wild card costs its own face value."""
    if card.is_joker:
        return JOKER_PENALTY
    if card.rank == 1:
        return HIGH_ACE_PENALTY if rules.high_aces else 1
    if card.rank > 10:
        return card.rank if rules.faces == FACES_RANK else 10
    return card.rank


def is_wild(card: Card, wild: int | None) -> bool:
    """Every card of the round's wild rank is wild, and so is every printed joker."""
    return card.is_joker or card.rank == wild


def arrange(cards: list[Card], round_number: int, rules: ThreeThirteenRules) -> Arrangement:
    """The arrangement of a round's hand into melds that leaves the least penalty (RULES.md)."""
    check_round_hand(cards, round_number)
    check_deck(cards, SUITS, RANKS, rules.decks, rules.jokers, ThreeThirteenRules.game_name)
    return arrange_cards(cards, wild_rank(round_number), rules)


def command_answer(request: dict, rules: ThreeThirteenRules) -> dict:
    """A `score_hands` answer: the penalty, one best arrangement and the cards left out."""
    round_number = round_in(request, ThreeThirteenRules.game_name, ROUNDS)
    return arrangement_fields(arrange(hand_in(request), round_number, rules))


def arrange_cards(cards: list[Card], wild: int | None, rules: ThreeThirteenRules) -> Arrangement:
    """The least-penalty arrangement of any cards when `wild` (a rank, or None) is wild."""
    plain = _arrange_plain(cards, wild, rules)
    if plain is not None:
        return plain
    return least_penalty(
        cards,
        wild,
        lambda card: card_value(card, rules),
        high_aces=rules.high_aces,
        all_wild_melds=rules.all_wild_melds,
    )


def least_penalty(
    cards: list[Card], wild, value, *, high_aces: bool, all_wild_melds: bool, lowest: int = 1
) -> Arrangement:
    """The least-penalty arrangement into sets and runs with wild cards, for any deck: `value`
    prices a card left out, `lowest` is the deck's lowest rank (Five Crowns starts at 3)."""
    wilds = sorted((card for card in cards if is_wild(card, wild)), key=lambda card: -value(card))
    naturals = sorted(
        (card for card in cards if not is_wild(card, wild)),
        key=lambda card: (card.suit, card.rank),
    )
    search = _MeldSearch(naturals, [value(card) for card in naturals], high_aces)
    full = (1 << len(naturals)) - 1
    cost = search.best(full, len(wilds))
    groups = search.groups(full, len(wilds))
    natural_total = sum(search.value)
    if cost == natural_total:
        # No natural can be melded: the wilds meld only among themselves, if allowed.
        groups = []
    return _lay_out(
        search.cards, groups, wilds, search.value, value, high_aces, all_wild_melds, lowest
    )


_SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
_RUN_TABLES: dict[tuple, list[int]] = {}


def _run_table(rules: ThreeThirteenRules) -> list[int]:
    """For every set of one suit's ranks (bit r-1 for rank r), what its cards cost when they
    may only form runs: a block of 3 or more consecutive ranks melds, shorter blocks do not."""
    key = (rules.aces, rules.faces)
    table = _RUN_TABLES.get(key)
    if table is not None:
        return table
    values = [card_value(Card(rank, "S"), rules) for rank in range(1, 14)]

    def cost(bits: int, positions) -> int:
        total = block = block_value = 0
        for position, value in positions:
            if bits >> position & 1:
                block += 1
                block_value += value
            else:
                if block < 3:
                    total += block_value
                block = block_value = 0
        return total + (block_value if block < 3 else 0)

    low = [(position, values[position]) for position in range(13)]
    high = [(position, values[position % 13]) for position in range(1, 14)]
    table = []
    for mask in range(1 << 13):
        best = cost(mask, low)
        if rules.high_aces and mask & 1:
            best = min(best, cost((mask & ~1) | (1 << 13), high))
        table.append(best)
    _RUN_TABLES[key] = table
    return table


def _arrange_plain(cards: list[Card], wild, rules: ThreeThirteenRules) -> Arrangement | None:
    """The least-penalty arrangement of cards with no wild and no two alike (None otherwise):
    each suit's runs come from a table, so only the choice of sets is searched (a rank of
    four may also give one card to a run)."""
    table = _run_table(rules)
    masks = [0, 0, 0, 0]
    suits_of = [0] * 14
    by_id = {}
    for card in cards:
        rank = card.rank
        if rank == 0 or rank == wild:
            return None
        suit = _SUIT_INDEX[card.suit]
        bit = 1 << (rank - 1)
        if masks[suit] & bit:
            return None  # two alike: the general search handles copies
        masks[suit] |= bit
        suits_of[rank] |= 1 << suit
        by_id[suit * 13 + rank] = card
    # Which cards could finish three in a row of their own suit: only those are worth
    # keeping out of a set of their rank.
    runnable = 0
    for suit in range(4):
        bits = masks[suit] | ((masks[suit] & 1) << 13 if rules.high_aces else 0)
        starts = bits & (bits >> 1) & (bits >> 2)
        cover = starts | (starts << 1) | (starts << 2)
        cover = (cover | (cover >> 13)) & 0x1FFF
        runnable |= cover << (13 * suit)
    options = []
    for rank in range(1, 14):
        held = suits_of[rank]
        if held.bit_count() >= 3:
            free = [suit for suit in range(4) if runnable >> (13 * suit + rank - 1) & 1]
            choices = [held]
            if free:
                choices.append(0)
                if held == 0b1111:
                    choices += [held & ~(1 << suit) for suit in free]
            options.append((rank, choices))
    best = table[masks[0]] + table[masks[1]] + table[masks[2]] + table[masks[3]]
    best_sets: tuple = ()

    def search(index, m0, m1, m2, m3, sets):
        nonlocal best, best_sets
        if index == len(options):
            cost = table[m0] + table[m1] + table[m2] + table[m3]
            if cost < best:
                best, best_sets = cost, sets
            return
        rank, choices = options[index]
        bit = 1 << (rank - 1)
        for suits in choices:
            search(
                index + 1,
                m0 & ~bit if suits & 1 else m0,
                m1 & ~bit if suits & 2 else m1,
                m2 & ~bit if suits & 4 else m2,
                m3 & ~bit if suits & 8 else m3,
                sets + ((rank, suits),) if suits else sets,
            )

    if options:
        search(0, *masks, ())
    # Lay out the sets chosen, then each suit's blocks of three or more as runs.
    melds = []
    for rank, suits in best_sets:
        melds.append(tuple(by_id[suit * 13 + rank] for suit in range(4) if suits >> suit & 1))
        for suit in range(4):
            if suits >> suit & 1:
                masks[suit] &= ~(1 << (rank - 1))
                del by_id[suit * 13 + rank]
    for suit in range(4):
        if not masks[suit]:
            continue
        for run in _runs_of(masks[suit], rules, table):
            melds.append(tuple(by_id.pop(suit * 13 + rank) for rank in run))
    unmelded = sort_cards(by_id.values())
    return Arrangement(best, tuple(melds), tuple(unmelded))


_RUN_LAYOUTS: dict[tuple, list[list[int]]] = {}


def _runs_of(mask: int, rules: ThreeThirteenRules, table: list[int]) -> list[list[int]]:
    """The runs (lists of ranks) that give a suit's cards their table cost."""
    key = (rules.aces, rules.faces, mask)
    runs = _RUN_LAYOUTS.get(key)
    if runs is None:
        runs = _RUN_LAYOUTS[key] = _find_runs(mask, rules, table)
    return runs


def _find_runs(mask: int, rules: ThreeThirteenRules, table: list[int]) -> list[list[int]]:
    bits = mask
    ace_high = False
    if rules.high_aces and mask & 1:
        values = [card_value(Card(rank, "S"), rules) for rank in range(1, 14)]
        low_cost = sum(values[r] for r in range(13) if mask >> r & 1) - sum(
            values[r - 1] for run in _blocks(mask, range(13)) for r in run
        )
        if low_cost != table[mask]:
            ace_high = True
            bits = (mask & ~1) | (1 << 13)
    return [
        [1 if r == 14 else r for r in run]
        for run in _blocks(bits, range(1, 14) if ace_high else range(13))
    ]


def _blocks(bits: int, positions) -> list[list[int]]:
    """Blocks of 3 or more consecutive set positions, as ranks (position + 1)."""
    blocks, current = [], []
    for position in list(positions) + [None]:
        if position is not None and bits >> position & 1:
            current.append(position + 1)
        else:
            if len(current) >= 3:
                blocks.append(current)
            current = []
    return blocks


def went_out_error(arrangement: Arrangement) -> str | None:
    """The player who went out must meld every card; the reason when they cannot."""
    if arrangement.points == 0 and not arrangement.unmelded:
        return None
    left = " ".join(str(card) for card in arrangement.unmelded)
    return f"this hand does not meld completely: {left} cannot be placed in a meld"


_INFEASIBLE = 1 << 30


class _MeldSearch:
    """Least penalty of the naturals in `mask` when `w` wild cards are free to use.

    Naturals are taken rank by rank (suit within rank). Each card is left out, joins the set of
    its rank that is being gathered, or becomes the lowest natural of a run (an ace may also
    top a run above the King). The set closes when the sweep passes its rank, taking the wilds
    it still needs. A run takes a remaining copy of every rank in its span: swapping such a
    copy in for a wild never loses, so only that run needs trying. Wilds beyond what groups
    need can always join some meld, so only needed wilds are counted.
    """

    def __init__(self, naturals: list[Card], values: list[int], high_aces: bool):
        order = sorted(range(len(naturals)), key=lambda i: (naturals[i].rank, naturals[i].suit))
        self.cards = [naturals[i] for i in order]
        self.value = [values[i] for i in order]
        self.rank = [card.rank for card in self.cards]
        self.high_aces = high_aces
        count = len(self.cards)
        copies: dict[tuple[str, int], list[int]] = {}
        for index, card in enumerate(self.cards):
            copies.setdefault((card.suit, card.rank), []).append(index)
        # For each card, the bits of its suit's cards at each rank (index 14: an ace on top).
        self.suit_bits = []
        for card in self.cards:
            bits = [0] * 15
            for rank in range(1, 14):
                for other in copies.get((card.suit, rank), ()):
                    bits[rank] |= 1 << other
            bits[14] = bits[1]
            self.suit_bits.append(bits)
        # Bits of all cards ranked above each card's rank: whether the sweep passes a rank.
        self.same_rank_bits = [0] * count
        for index in range(count):
            for other in range(count):
                if self.rank[other] == self.rank[index]:
                    self.same_rank_bits[index] |= 1 << other
        self.memo: dict[int, int] = {}
        self.choice: dict[int, tuple] = {}

    def _close(self, mask: int, rank_bits: int, wilds: int, size: int) -> tuple[int, int]:
        """Wilds left once the open set of `size` is closed, if the sweep has passed its rank
        (-1 if it cannot be completed), and the open size carried on."""
        if not size or mask & rank_bits:
            return wilds, size
        need = 3 - size if size < 3 else 0
        return wilds - need, 0

    def best(self, mask: int, wilds: int, size: int = 0) -> int:
        if not mask:
            return 0
        key = (mask << 7) | (wilds << 2) | size
        known = self.memo.get(key)
        if known is not None:
            return known
        low = mask & -mask
        index = low.bit_length() - 1
        rest = mask ^ low
        rank_bits = self.same_rank_bits[index]
        value = self.value[index]
        if not size and wilds >= 2 * mask.bit_count():
            # Every remaining natural can sit with two wilds.
            best, choice = 0, ("set", 0, 0)
            self.memo[key] = best
            self.choice[key] = choice
            return best
        # Left out.
        left, carried = self._close(rest, rank_bits, wilds, size)
        best = _INFEASIBLE if left < 0 else value + self.best(rest, left, carried)
        choice = ("out", 0, 0)
        # Joins the set of its rank.
        joined = size + 1 if size < 3 else 3
        left, carried = self._close(rest, rank_bits, wilds, joined)
        if left >= 0:
            cost = self.best(rest, left, carried)
            if cost < best:
                best, choice = cost, ("set", 0, 0)
        # The lowest natural of a run.
        if best:
            rank = self.rank[index]
            bits = self.suit_bits[index]
            directions = (False, True) if (self.high_aces and rank == 1) else (False,)
            for ace_high in directions:
                group = low
                naturals = 1
                ranks = range(13, 1, -1) if ace_high else range(rank + 1, 14)
                start = 14 if ace_high else rank
                for other_rank in ranks:
                    present = bits[other_rank] & rest
                    if not present:
                        continue
                    naturals += 1
                    group |= present & -present
                    gaps = abs(start - other_rank) + 1 - naturals
                    if gaps > wilds:
                        break
                    need = gaps if gaps > 3 - naturals else 3 - naturals
                    if need > wilds:
                        continue
                    after = mask & ~group
                    left, carried = self._close(after, rank_bits, wilds - need, size)
                    if left < 0:
                        continue
                    cost = self.best(after, left, carried)
                    if cost < best:
                        best, choice = cost, ("run", group, need, ace_high)
                        if not best:
                            break
        self.memo[key] = best
        self.choice[key] = choice
        return best

    def groups(self, mask: int, wilds: int) -> list[tuple[list[int], int, bool]]:
        """The melded groups of one best solution: (natural indices, wilds needed, ace high)."""
        found = []
        gathering: list[int] = []  # the set being gathered
        size = 0
        while mask:
            key = (mask << 7) | (wilds << 2) | size
            if key not in self.choice:
                self.best(mask, wilds, size)
            choice = self.choice[key]
            low = mask & -mask
            index = low.bit_length() - 1
            rank_bits = self.same_rank_bits[index]
            if choice[0] == "set" and not size and wilds >= 2 * mask.bit_count():
                # The shortcut: each remaining natural with two wilds.
                for i in range(len(self.cards)):
                    if mask >> i & 1:
                        found.append(([i], 2, False))
                return found
            if choice[0] == "run":
                _, group, need, ace_high = choice
                indices = [i for i in range(len(self.cards)) if group >> i & 1]
                found.append((indices, need, ace_high))
                mask &= ~group
                wilds -= need
            else:
                mask ^= low
                if choice[0] == "set":
                    gathering.append(index)
                    size = size + 1 if size < 3 else 3
            if size and not mask & rank_bits:
                need = 3 - size if size < 3 else 0
                found.append((gathering, need, False))
                wilds -= need
                gathering, size = [], 0
        return found


def _lay_out(naturals, groups, wilds, values, value, high_aces, all_wild_melds, lowest):
    """Turn the search's groups into melds of real cards, wilds placed where they stand."""
    spare = list(wilds)
    melds: list[list[Card]] = []
    runs: list[tuple[list, int, int]] = []  # (slots, lowest position, highest allowed)
    melded = set()
    for indices, need, ace_high in groups:
        melded.update(indices)
        cards = [naturals[i] for i in indices]
        taken, spare = spare[:need], spare[need:]
        ranks = {card.rank for card in cards}
        if len(cards) > 1 and len(ranks) == len(cards):
            runs.append(_run_slots(cards, taken, ace_high, high_aces, lowest))
            melds.append(None)  # filled after leftover wilds are placed
        else:
            melds.append(sorted(cards, key=lambda card: card.suit) + taken)
    if spare and (groups or (all_wild_melds and len(spare) >= 3)):
        set_indices = [i for i, meld in enumerate(melds) if meld is not None]
        if set_indices:
            melds[set_indices[0]].extend(spare)
        elif runs:
            slots, low_pos, high_pos = runs[0]
            if len(slots) + len(spare) > high_pos - lowest + 1:
                # The run spans the whole suit: split off its three lowest cards so the
                # wilds can stand below the rest.
                runs.append((slots[:3], low_pos, low_pos + 2))
                melds.append(None)
                slots, low_pos = slots[3:], low_pos + 3
            for wild in spare:
                if low_pos + len(slots) - 1 < high_pos:
                    slots.append(wild)
                else:
                    slots.insert(0, wild)
                    low_pos -= 1
            runs[0] = (slots, low_pos, high_pos)
        else:
            melds.append(spare)
        spare = []
    run_iter = iter(runs)
    laid = [list(meld) if meld is not None else next(run_iter)[0] for meld in melds]
    unmelded = [card for i, card in enumerate(naturals) if i not in melded] + spare
    points = sum(values[i] for i in range(len(naturals)) if i not in melded)
    points += sum(value(card) for card in spare)
    return Arrangement(
        points=points,
        melds=tuple(tuple(meld) for meld in laid),
        unmelded=tuple(sort_cards(unmelded)),
        runs=tuple(meld is None for meld in melds),
    )


def _run_slots(cards, wilds, ace_high, high_aces, lowest=1):
    """A run's cards in order, wilds in the gaps and then past the ends."""
    position = {card: (14 if ace_high and card.rank == 1 else card.rank) for card in cards}
    ordered = sorted(cards, key=position.get)
    low_pos, high_pos = position[ordered[0]], position[ordered[-1]]
    limit = 14 if (high_aces and not any(position[c] == 1 for c in cards)) else 13
    floor = 2 if ace_high else lowest
    wilds = list(wilds)
    slots = []
    for pos in range(low_pos, high_pos + 1):
        natural = next((card for card in ordered if position[card] == pos), None)
        slots.append(natural if natural is not None else wilds.pop(0))
    while wilds:
        if high_pos < limit:
            slots.append(wilds.pop(0))
            high_pos += 1
        elif low_pos > floor:
            slots.insert(0, wilds.pop(0))
            low_pos -= 1
        else:
            break
    return slots, low_pos, limit
