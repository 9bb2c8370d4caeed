"""Three Thirteen: 11 rounds of 3 to 13 cards, a new wild rank each round, lowest total wins."""

from dataclasses import asdict, dataclass

from .arrangement import Arrangement
from .cards import Card, CardError, check_hand_supply, sort_cards

ROUNDS = 11
ACES_LOW = "low"
ACES_HIGH_OR_LOW = "high_or_low"
FACES_TEN = "ten"
FACES_RANK = "rank"
JOKER_PENALTY = 20
HIGH_ACE_PENALTY = 15


def check_round_number(round_number) -> int:
    """Rounds are numbered 1 to 11."""
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise CardError("the round must be a whole number from 1 to 11")
    if not 1 <= round_number <= ROUNDS:
        raise CardError(f"there is no round {round_number}: Three Thirteen has rounds 1 to 11")
    return round_number


def cards_in_round(round_number: int) -> int:
    """In round r each player holds r + 2 cards."""
    return check_round_number(round_number) + 2


def wild_rank(round_number: int) -> int:
    """The wild rank of round r is the rank numbered r + 2 (3s in round 1 … Kings in round 11)."""
    return check_round_number(round_number) + 2


def default_decks(players: int) -> int:
    """1 deck for two players, 2 for three or four, one more per two further players."""
    if players <= 2:
        return 1
    return 2 + (max(players - 4, 0) + 1) // 2


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardError(f"rule {name} must be a whole number")
    if not low <= value <= high:
        raise CardError(f"rule {name} must be between {low} and {high}, not {value}")
    return value


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise CardError(f"rule {name} must be true or false")
    return value


def _check_choice(name: str, value, choices) -> str:
    if value not in choices:
        listed = " or ".join(f'"{choice}"' for choice in choices)
        raise CardError(f"rule {name} must be {listed}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class ThreeThirteenRules:
    """The options a table chooses for a game of Three Thirteen (RULES.md defaults)."""

    decks: int = 2
    aces: str = ACES_LOW
    faces: str = FACES_TEN
    jokers: int = 0
    all_wild_melds: bool = True

    def __post_init__(self):
        _check_int("decks", self.decks, 1, 12)
        _check_choice("aces", self.aces, (ACES_LOW, ACES_HIGH_OR_LOW))
        _check_choice("faces", self.faces, (FACES_TEN, FACES_RANK))
        _check_int("jokers", self.jokers, 0, 24)
        _check_bool("all_wild_melds", self.all_wild_melds)

    @classmethod
    def from_dict(cls, data: dict | None) -> "ThreeThirteenRules":
        data = data or {}
        if not isinstance(data, dict):
            raise CardError("rules must be an object")
        unknown = sorted(set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise CardError(f"unknown Three Thirteen rule: {', '.join(unknown)}")
        return cls(**data)

    def to_dict(self) -> dict:
        return asdict(self)

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


def is_wild(card: Card, round_number: int) -> bool:
    """Every card of the round's wild rank is wild, and so is every printed joker."""
    return card.is_joker or card.rank == wild_rank(round_number)


def parse_checked_hand(cards: list[Card], round_number: int, rules: ThreeThirteenRules):
    """A hand fit for scoring: the round's card count and the supply of cards in play."""
    expected = cards_in_round(round_number)
    if len(cards) != expected:
        raise CardError(
            f"a hand in round {round_number} holds {expected} cards; this one has {len(cards)}"
        )
    check_hand_supply(cards, rules.decks, rules.jokers)
    return cards


def arrange(cards: list[Card], round_number: int, rules: ThreeThirteenRules) -> Arrangement:
    """The arrangement of a round's hand into melds that leaves the least penalty (RULES.md)."""
    parse_checked_hand(cards, round_number, rules)
    return arrange_cards(cards, wild_rank(round_number), rules)


def arrange_cards(cards: list[Card], wild: int | None, rules: ThreeThirteenRules) -> Arrangement:
    """The least-penalty arrangement of any cards when `wild` (a rank, or None) is wild."""
    wilds = sorted(
        (card for card in cards if card.is_joker or card.rank == wild),
        key=lambda card: -card_value(card, rules),
    )
    naturals = sorted(
        (card for card in cards if not (card.is_joker or card.rank == wild)),
        key=lambda card: (card.suit, card.rank),
    )
    search = _MeldSearch(naturals, [card_value(card, rules) for card in naturals], rules.high_aces)
    full = (1 << len(naturals)) - 1
    cost = search.best(full, len(wilds))
    groups = search.groups(full, len(wilds))
    natural_total = sum(search.value)
    if cost == natural_total:
        # No natural can be melded: the wilds meld only among themselves, if allowed.
        groups = []
    return _lay_out(search.cards, groups, wilds, search.value, rules)


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


def _lay_out(naturals, groups, wilds, values, rules) -> Arrangement:
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
            runs.append(_run_slots(cards, taken, ace_high, rules.high_aces))
            melds.append(None)  # filled after leftover wilds are placed
        else:
            melds.append(sorted(cards, key=lambda card: card.suit) + taken)
    if spare and (groups or (rules.all_wild_melds and len(spare) >= 3)):
        set_indices = [i for i, meld in enumerate(melds) if meld is not None]
        if set_indices:
            melds[set_indices[0]].extend(spare)
        elif runs:
            slots, low_pos, high_pos = runs[0]
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
    points += sum(card_value(card, rules) for card in spare)
    return Arrangement(
        points=points,
        melds=tuple(tuple(meld) for meld in laid),
        unmelded=tuple(sort_cards(unmelded)),
    )


def _run_slots(cards, wilds, ace_high, high_aces):
    """A run's cards in order, wilds in the gaps and then past the ends."""
    position = {card: (14 if ace_high and card.rank == 1 else card.rank) for card in cards}
    ordered = sorted(cards, key=position.get)
    low_pos, high_pos = position[ordered[0]], position[ordered[-1]]
    limit = 14 if (high_aces and not any(position[c] == 1 for c in cards)) else 13
    floor = 2 if ace_high else 1
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
