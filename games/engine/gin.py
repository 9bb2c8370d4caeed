"""Gin Rummy: deadwood, knock, gin, Big Gin, undercut, layoffs, and the bonuses of a game.

A hand is held as a bitmask: one 16-bit field per suit (clubs, diamonds, hearts, spades, as in
SUITS), rank r at bit r of its field. A suit's 13-bit pattern indexes precomputed tables, so the
least deadwood of a hand is four lookups, or four more when it holds one rank three or four
times; only hands where a set competes with a run for its cards need a (small) search.
"""

from dataclasses import dataclass, field

from .arrangement import Arrangement
from .cards import SUITS, Card, CardError, parse_card, parse_hand
from .options import Rules, option

HAND_SIZE = 10
BIG_GIN_SIZE = 11
STANDARD_KNOCK_LIMIT = 10
GIN_ONLY = 0  # the knock limit when only gin may end a hand
GAME_BONUS = 100

STANDARD = "standard"
OKLAHOMA = "oklahoma"
STRAIGHT = "straight"

KNOCK = "knock"
GIN = "gin"
BIG_GIN = "big_gin"
UNDERCUT = "undercut"
DRAWN = "drawn"

KNOCKER = "knocker"
DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class GinRules(Rules):
    """The options a table chooses for a game of Gin Rummy (RULES.md defaults)."""

    game_name = "Gin Rummy"

    target: int = field(
        default=100,
        metadata=option(
            "Target",
            low=50,
            high=1000,
            in_view=True,
            help="The first to reach it wins: 100 is usual, 150 or 250 make a longer game.",
        ),
    )
    gin_bonus: int = field(
        default=25,
        metadata=option(
            "Gin bonus",
            choices=[(20, "20"), (25, "25")],
            help="Added to the defender's deadwood when the knocker goes gin.",
        ),
    )
    undercut_bonus: int = field(
        default=25,
        metadata=option(
            "Undercut bonus",
            choices=[(10, "10"), (20, "20"), (25, "25")],
            help="Added when the defender's deadwood is no more than the knocker's.",
        ),
    )
    big_gin_bonus: int | None = field(
        default=31,
        metadata=option(
            "Big Gin bonus",
            choices=[(31, "31"), (50, "50")],
            blank="off: scores as gin",
            help="All 11 cards melded without a discard.",
        ),
    )
    box_bonus: int = field(
        default=25,
        metadata=option(
            "Box bonus",
            choices=[(0, "0"), (20, "20"), (25, "25")],
            help="At the end of the game, for every hand a player won.",
        ),
    )
    shutout_doubles: bool = field(
        default=True,
        metadata=option(
            "Shutout",
            choices=[(True, "Doubles the game bonus"), (False, "No extra")],
            help="When the loser won no hand at all.",
        ),
    )
    variant: str = field(
        default=STANDARD,
        metadata=option(
            "Variant",
            choices=[
                (STANDARD, "Standard: knock with 10 or less"),
                (OKLAHOMA, "Oklahoma: the upcard sets the knock limit, spades double"),
                (STRAIGHT, "Straight Gin: gin only, no knocking"),
            ],
            in_view=True,
        ),
    )


# ---------------------------------------------------------------- cards as bits

_SHIFT = {suit: 16 * index for index, suit in enumerate(SUITS)}
_RANKS = 0x3FFE  # bits 1-13 of a suit's field
# Per suit, the bit of each rank (rank 0 is no card; its bit is kept as it always was). The key
# that is not a str, matching no card, is there for speed alone: it keeps CPython 3.13 off its
# str-keys-only dict layout, whose lookups measured a few ns slower, ten times a hand.
_CARD_BIT = {suit: [1 << (shift + rank) for rank in range(14)] for suit, shift in _SHIFT.items()}
_CARD_BIT[object()] = None
_COLUMN = 1 | 1 << 16 | 1 << 32 | 1 << 48  # one bit in each suit's field
_CARD_AT = {_SHIFT[suit] + rank: Card(rank, suit) for suit in SUITS for rank in range(1, 14)}


def card_value(card: Card) -> int:
    """What a card left unmelded costs: ace 1, 2-10 face value, J Q K 10."""
    return min(card.rank, 10)


def _pattern_tables():
    """Per 13-bit suit pattern: the cards in runs, and the value of the cards left over.

    In one suit every block of three or more consecutive ranks melds whole (as one run), and no
    other card of that suit can be in a run.
    """
    size = 1 << 14
    value = [0] * size
    runs = [0] * size
    dead = [0] * size
    for pattern in range(2, size, 2):
        lowest = pattern & -pattern
        value[pattern] = value[pattern ^ lowest] + min(lowest.bit_length() - 1, 10)
        starts = pattern & pattern >> 1 & pattern >> 2
        runs[pattern] = starts | starts << 1 | starts << 2
    for pattern in range(0, size, 2):
        dead[pattern] = value[pattern & ~runs[pattern]]
    return runs, dead


_RUNS, _DEAD = _pattern_tables()

_RUN_FLAG = 256  # above any four suits' deadwood (at most 60 in one suit)
assert 4 * max(_DEAD) < _RUN_FLAG


def _set_tables():
    """Indexed by a single rank's bit (None at every other index): per 13-bit pattern, the
    deadwood left once that rank is taken out to a set, plus _RUN_FLAG if the pattern has that
    rank in a run. Summed over the four suits, a total under _RUN_FLAG is the deadwood of a hand
    that holds the rank three or four times and can only meld it as a set."""
    tables = [None] * (1 << 14)
    for rank in range(1, 14):
        bit = 1 << rank
        tables[bit] = [
            _DEAD[pattern & ~bit] + (_RUN_FLAG if _RUNS[pattern] & bit else 0)
            for pattern in range(1 << 14)
        ]
    return tables


_SET_DEAD = _set_tables()


def _not_in_deck(card: Card) -> str:
    return f"{card} ({card.name}) is not in a Gin Rummy deck: one deck of 52 cards, no jokers"


def hand_mask(cards) -> int:
    """The cards as one bitmask (see the module's docstring); jokers and stars are refused."""
    mask = 0
    for card in cards:
        shift = _SHIFT.get(card.suit)
        if shift is None:
            raise CardError(_not_in_deck(card))
        mask |= 1 << (shift + card.rank)
    return mask


def _checked_mask(cards, whose: str = "this hand") -> int:
    mask = hand_mask(cards)
    if mask.bit_count() != len(cards):
        seen = set()
        for card in cards:
            if card in seen:
                raise CardError(f"{card} ({card.name}) appears twice in {whose}: one deck is used")
            seen.add(card)
    return mask


def _cards_of(mask: int) -> list[Card]:
    """The cards of a mask, by suit then rank (as sort_cards fans them)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_CARD_AT[low.bit_length() - 1])
        mask ^= low
    return cards


def _dead(mask: int) -> int:
    return (
        _DEAD[mask & _RANKS]
        + _DEAD[mask >> 16 & _RANKS]
        + _DEAD[mask >> 32 & _RANKS]
        + _DEAD[mask >> 48]
    )


# ---------------------------------------------------------------- deadwood and arrangements


def deadwood(cards) -> int:
    """The least deadwood of a hand: the value of the cards left out of its best melds."""
    # A hand of ten, the common case, is read without a loop. Any other number of cards, a card
    # not in the deck or a card held twice goes to _deadwood_of_cards, which names the card at
    # fault.
    try:
        a, b, c, d, e, f, g, h, i, j = cards
        bits = _CARD_BIT
        # A sum of distinct bits; a card held twice carries and so loses a bit.
        mask = sum(
            (
                bits[a.suit][a.rank],
                bits[b.suit][b.rank],
                bits[c.suit][c.rank],
                bits[d.suit][d.rank],
                bits[e.suit][e.rank],
                bits[f.suit][f.rank],
                bits[g.suit][g.rank],
                bits[h.suit][h.rank],
                bits[i.suit][i.rank],
                bits[j.suit][j.rank],
            )
        )
    except (ValueError, KeyError):
        return _deadwood_of_cards(cards)
    if mask.bit_count() != HAND_SIZE:
        return _deadwood_of_cards(cards)
    return deadwood_of_mask(mask)


def _deadwood_of_cards(cards) -> int:
    """deadwood() of any number of cards, refusing a card not in the deck or held twice."""
    try:
        mask = sum([_CARD_BIT[card.suit][card.rank] for card in cards])
    except KeyError:
        hand_mask(cards)  # names the card that is not in the deck
        raise
    if mask.bit_count() != len(cards):
        _checked_mask(cards)
    return deadwood_of_mask(mask)


def deadwood_of_mask(mask: int) -> int:
    """The least deadwood of a hand given as hand_mask(cards): its runs are table lookups, and
    only ranks held three or four times, whose cards may go to a set or a run, are weighed."""
    # Clubs and diamonds are read as one int, `low` (clubs, and diamonds 16 bits up), hearts
    # and spades as another, `high`: `pairs` holds the ranks held both in clubs and hearts (low
    # field) and both in diamonds and spades (high field), and a rank is held three or four
    # times when one of these pairs holds it and the other suits at least once.
    low = mask & 0x3FFE3FFE
    high = mask >> 32
    pairs = low & high
    if pairs:
        either = low | high
        sets = pairs & either >> 16 | pairs >> 16 & either
        if sets:
            clubs = low & 0xFFFF
            diamonds = low >> 16
            hearts = high & 0x3FFE
            spades = high >> 16
            table = _SET_DEAD[sets]  # None unless a single rank
            if table is not None:
                taken = table[clubs] + table[diamonds] + table[hearts] + table[spades]
                if taken < _RUN_FLAG:  # none of its cards could sit in a run: always a set
                    return taken
                if not pairs & pairs >> 16:  # held three times: as a set, or its cards in runs
                    dead = _DEAD
                    kept = dead[clubs] + dead[diamonds] + dead[hearts] + dead[spades]
                    taken %= _RUN_FLAG
                    return taken if taken < kept else kept
            return _deadwood_with_sets(clubs, diamonds, hearts, spades, sets)
    dead = _DEAD
    return dead[low & 0xFFFF] + dead[low >> 16] + dead[high & 0x3FFE] + dead[high >> 16]


def _deadwood_with_sets(clubs: int, diamonds: int, hearts: int, spades: int, sets: int) -> int:
    """The least deadwood of a hand given suit by suit, `sets` the ranks it holds three or four
    times: a rank none of whose cards could sit in a run is always a set of all its cards; each
    other is tried as no set, a set of all its cards, or, of four, each set of three."""
    dead = _DEAD
    open_ranks = sets & (_RUNS[clubs] | _RUNS[diamonds] | _RUNS[hearts] | _RUNS[spades])
    keep = ~(sets ^ open_ranks)
    clubs, diamonds, hearts, spades = clubs & keep, diamonds & keep, hearts & keep, spades & keep
    if not open_ranks:
        return dead[clubs] + dead[diamonds] + dead[hearts] + dead[spades]
    layouts = [(clubs, diamonds, hearts, spades)]
    while open_ranks:
        low = open_ranks & -open_ranks
        open_ranks ^= low
        keep = ~low
        four = clubs & diamonds & hearts & spades & low
        grown = []
        for c, d, h, s in layouts:
            grown.append((c, d, h, s))
            grown.append((c & keep, d & keep, h & keep, s & keep))
            if four:
                grown.append((c, d & keep, h & keep, s & keep))
                grown.append((c & keep, d, h & keep, s & keep))
                grown.append((c & keep, d & keep, h, s & keep))
                grown.append((c & keep, d & keep, h & keep, s))
        layouts = grown
    return min([dead[c] + dead[d] + dead[h] + dead[s] for c, d, h, s in layouts])


def _set_choices(mask: int, set_ranks: int, runnable: int):
    """For each rank held three or more times: (its cards, the ways to take them as a set).

    A rank none of whose cards could sit in a run is always taken whole (an empty list of
    ways); otherwise the ways are: no set, the whole rank, or, of four, any three.
    """
    while set_ranks:
        low = set_ranks & -set_ranks
        set_ranks ^= low
        column = mask & low * _COLUMN
        if not low & runnable:
            yield column, []
        else:
            yield column, _set_takes(column, low)


def _set_takes(column: int, low: int) -> tuple[int, ...]:
    """The ways to take a rank held three or four times as a set: none, all, or three of four."""
    if column.bit_count() == 3:
        return (0, column)
    return (0, column, column ^ low, column ^ low << 16, column ^ low << 32, column ^ low << 48)


def _layouts(mask: int) -> tuple[int, list[tuple[tuple[int, ...], int]]]:
    """The least deadwood and every (sets taken, cards left) reaching it."""
    suits = [mask >> shift & _RANKS for shift in (0, 16, 32, 48)]
    set_ranks = suits[0] & suits[1] & (suits[2] | suits[3]) | suits[2] & suits[3] & (
        suits[0] | suits[1]
    )
    runnable = _RUNS[suits[0]] | _RUNS[suits[1]] | _RUNS[suits[2]] | _RUNS[suits[3]]
    layouts = [((), mask)]
    for rank_cards, choices in _set_choices(mask, set_ranks, runnable):
        if not choices:
            layouts = [(sets + (rank_cards,), left & ~rank_cards) for sets, left in layouts]
        else:
            layouts = [
                (sets + (taken,) if taken else sets, left & ~taken)
                for sets, left in layouts
                for taken in choices
            ]
    scored = [(_dead(left), sets, left) for sets, left in layouts]
    least = min(points for points, _, _ in scored)
    return least, [(sets, left) for points, sets, left in scored if points == least]


def _meld_order(meld: tuple[Card, ...]):
    """Melds by their lowest rank, runs before sets, then by suit."""
    is_set = meld[0].rank == meld[1].rank
    return (meld[0].rank, is_set, SUITS.index(meld[0].suit))


def _arrangement(points: int, sets: tuple[int, ...], left: int) -> Arrangement:
    melds = [tuple(_cards_of(taken)) for taken in sets]
    unmelded = left
    for shift in (0, 16, 32, 48):
        runs = _RUNS[left >> shift & _RANKS]
        unmelded &= ~(runs << shift)
        while runs:
            low = runs & -runs
            block = (runs + low ^ runs) & runs  # the consecutive ranks from the lowest up
            runs ^= block
            melds.append(tuple(_cards_of(block << shift)))
    melds.sort(key=_meld_order)
    return Arrangement(points=points, melds=tuple(melds), unmelded=tuple(_cards_of(unmelded)))


def arrangements(cards) -> list[Arrangement]:
    """Every layout of melds that leaves the least deadwood; a run is laid as one meld however
    long, so layouts differ only in which cards go to sets. Ordered by their melds' cards."""
    return _arrangements(*_layouts(_checked_mask(cards)))


def _arrangements(least: int, layouts) -> list[Arrangement]:
    found = [_arrangement(least, sets, left) for sets, left in layouts]
    found.sort(key=lambda a: [[_SHIFT[c.suit] + c.rank for c in meld] for meld in a.melds])
    return found


# ---------------------------------------------------------------- layoffs


@dataclass(frozen=True, slots=True)
class DefenderPlay:
    """How the defender lays out against a knock: own melds, cards laid off on the knocker's
    melds (each with the index of the meld it joins), the cards left and what they cost."""

    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    unmelded: tuple[Card, ...]
    deadwood: int


def _layoff_ends(knocker_melds, defender_mask: int):
    """Per place a card can join a knocker's meld: the ways to lay off there, as (cards laid,
    ((card, meld index), ...)). A set of three takes its fourth card; a run takes the cards
    that extend it at either end, the nearest first, each making room for the next."""
    ends = []
    for index, meld in enumerate(knocker_melds):
        if meld[0].rank == meld[1].rank:
            if len(meld) == 3:
                fourth = defender_mask & _COLUMN << meld[0].rank
                if fourth:
                    ends.append([(fourth, ((_CARD_AT[fourth.bit_length() - 1], index),))])
            continue
        shift = _SHIFT[meld[0].suit]
        for rank, step in ((meld[0].rank - 1, -1), (meld[-1].rank + 1, 1)):
            ways = []
            laid = 0
            where = ()
            while 1 <= rank <= 13 and defender_mask >> (shift + rank) & 1:
                laid |= 1 << (shift + rank)
                where += ((_CARD_AT[shift + rank], index),)
                ways.append((laid, where))
                rank += step
            if ways:
                ends.append(ways)
    return ends


def _layoff_choices(knocker_melds, defender_mask: int) -> dict[int, tuple[tuple[Card, int], ...]]:
    """Every distinct set of the defender's cards that can be laid off together on the
    knocker's melds, each with one way to lay them; the empty set first."""
    choices = {0: ()}
    for ways in _layoff_ends(knocker_melds, defender_mask):
        grown = dict(choices)
        for laid, where in choices.items():
            for more, more_where in ways:
                # Two runs of one suit can reach for the same cards between them.
                if not laid & more and laid | more not in grown:
                    grown[laid | more] = where + more_where
        choices = grown
    return choices


def _defender_play(knocker_melds, defender_mask: int) -> DefenderPlay:
    best = None
    for laid, where in _layoff_choices(knocker_melds, defender_mask).items():
        key = (deadwood_of_mask(defender_mask & ~laid), laid.bit_count())
        if best is None or key < best[0]:
            best = (key, laid, where)
    (points, _), laid, where = best
    own = _arrangements(*_layouts(defender_mask & ~laid))[0]
    return DefenderPlay(
        melds=own.melds,
        # By the meld they join; along a run, in the order they can be laid.
        layoffs=tuple(sorted(where, key=lambda pair: pair[1])),
        unmelded=own.unmelded,
        deadwood=points,
    )


def defender_play(defender, knocker_melds) -> DefenderPlay:
    """The defender's least deadwood, choosing their own melds and their layoffs on the
    knocker's melds together (ties: the fewest cards laid off)."""
    melds = tuple(tuple(sorted(meld, key=lambda card: card.rank)) for meld in knocker_melds)
    return _defender_play(melds, _checked_mask(defender))


# ---------------------------------------------------------------- a hand


@dataclass(frozen=True, slots=True)
class Choice:
    """One layout of the knocker's least deadwood and how the hand ends if it is laid down."""

    knocker: Arrangement
    defender: DefenderPlay
    result: str
    scorer: str
    points: int


@dataclass(frozen=True, slots=True)
class GinHand:
    """A hand scored: who scores how much and why, with the melds laid down.

    `choices` holds every layout of the knocker's least deadwood (in arrangements() order) with
    its outcome; `chosen` is the one scored: the knocker's best play, or the one laid down.
    A drawn hand has no cards, no choices and no scorer.
    """

    result: str
    scorer: str | None
    points: int
    knock_limit: int | None
    doubled: bool
    knocker: Arrangement | None
    defender: DefenderPlay | None
    choices: tuple[Choice, ...] = ()
    chosen: int | None = None

    @property
    def choice_matters(self) -> bool:
        """Whether the layouts the knocker could lay down end the hand differently."""
        outcomes = {(c.result, c.scorer, c.points, c.defender.deadwood) for c in self.choices}
        return len(outcomes) > 1


DRAWN_HAND = GinHand(DRAWN, None, 0, None, False, None, None)


def knock_limit(rules: GinRules, upcard: Card | None = None) -> int:
    """The most deadwood a knock may hold: 10; in Oklahoma the first upcard's value (a face
    card 10, an ace gin only); in Straight Gin gin only."""
    if rules.variant == STRAIGHT:
        return GIN_ONLY
    if rules.variant == OKLAHOMA:
        if upcard is None:
            raise CardError(
                "Oklahoma needs the upcard: the first upcard of the hand sets its knock limit; "
                'write it like "7H"'
            )
        if upcard.suit not in _SHIFT:
            raise CardError(_not_in_deck(upcard))
        return GIN_ONLY if upcard.rank == 1 else card_value(upcard)
    return STANDARD_KNOCK_LIMIT


def is_doubled(rules: GinRules, upcard: Card | None) -> bool:
    """In Oklahoma a spade as the first upcard doubles the hand's score, bonuses included."""
    return rules.variant == OKLAHOMA and upcard is not None and upcard.suit == "S"


def settle(
    knocker_deadwood: int, defender_deadwood: int, rules: GinRules, big_gin: bool = False
) -> tuple[str, str, int]:
    """(result, scorer, points): gin scores the defender's deadwood plus the gin bonus (Big Gin
    plus its own bonus, or the gin bonus when it is off); a knock scores the difference when the
    knocker holds less, and otherwise the defender undercuts for the difference plus a bonus."""
    if big_gin and rules.big_gin_bonus is not None:
        return BIG_GIN, KNOCKER, defender_deadwood + rules.big_gin_bonus
    if knocker_deadwood == 0:
        return GIN, KNOCKER, defender_deadwood + rules.gin_bonus
    if knocker_deadwood < defender_deadwood:
        return KNOCK, KNOCKER, defender_deadwood - knocker_deadwood
    return UNDERCUT, DEFENDER, knocker_deadwood - defender_deadwood + rules.undercut_bonus


def _as_cards(cards) -> list[Card]:
    if cards is None:
        return []
    if isinstance(cards, str):
        return parse_hand(cards)
    return list(cards)


def check_deal(knocker: list[Card], defender: list[Card]) -> tuple[int, int]:
    """Cards of one 52-card deck, each held once across both hands; the knocker holds 10 (11
    for Big Gin) and the defender 10. Returns both hands as masks."""
    knocker_mask = _checked_mask(knocker, "the knocker's hand")
    defender_mask = _checked_mask(defender, "the defender's hand")
    if knocker_mask & defender_mask:
        both = knocker_mask & defender_mask
        card = _CARD_AT[(both & -both).bit_length() - 1]
        raise CardError(f"{card} ({card.name}) is in both hands: one deck is used")
    if len(knocker) not in (HAND_SIZE, BIG_GIN_SIZE):
        raise CardError(
            f"the knocker holds 10 cards (11 for Big Gin); this hand has {len(knocker)}"
        )
    if len(defender) != HAND_SIZE:
        raise CardError(f"the defender holds 10 cards; this hand has {len(defender)}")
    return knocker_mask, defender_mask


def check_knock(deadwood: int, held: int, limit: int) -> None:
    """Refuse a knock over the knock limit, or 11 cards that do not all meld (Big Gin)."""
    if held == BIG_GIN_SIZE and deadwood:
        raise CardError(
            f"11 cards are kept only for Big Gin, and these do not all meld ({deadwood} "
            "deadwood): a knock is made with 10 cards"
        )
    if deadwood > limit:
        gin_only = " (gin only)" if limit == GIN_ONLY else ""
        raise CardError(
            f"not a legal knock: {deadwood} deadwood, and the knock limit is {limit}{gin_only}"
        )


def score_hand(knocker, defender, rules=None, upcard=None, laid_down=None) -> GinHand:
    """Score a hand that ended with a knock (or drawn, when neither hand is given): the knocker
    lays down the layout of least deadwood that leaves the defender the most after layoffs,
    unless `laid_down` names the one of `choices` actually laid down."""
    rules = rules or GinRules()
    knocker, defender = _as_cards(knocker), _as_cards(defender)
    if rules.variant != OKLAHOMA:
        upcard = None  # only Oklahoma reads the upcard
    elif isinstance(upcard, str):
        upcard = parse_card(upcard)
    if not knocker and not defender:
        return DRAWN_HAND
    if not knocker:
        raise CardError("the knocker's cards are missing (leave both hands empty for a drawn hand)")
    if not defender:
        raise CardError(
            "the defender's cards are missing (leave both hands empty for a drawn hand)"
        )
    knocker_mask, defender_mask = check_deal(knocker, defender)
    limit = knock_limit(rules, upcard)
    least, layouts = _layouts(knocker_mask)
    big_gin = len(knocker) == BIG_GIN_SIZE
    check_knock(least, len(knocker), limit)
    factor = 2 if is_doubled(rules, upcard) else 1
    laid_out = _arrangements(least, layouts)
    no_layoffs = _defender_play((), defender_mask) if least == 0 else None
    choices = []
    for layout in laid_out:
        play = no_layoffs or _defender_play(layout.melds, defender_mask)
        result, scorer, points = settle(least, play.deadwood, rules, big_gin)
        choices.append(Choice(layout, play, result, scorer, points * factor))
    if laid_down is None:
        chosen = max(range(len(choices)), key=lambda i: (choices[i].defender.deadwood, -i))
    elif isinstance(laid_down, bool) or not isinstance(laid_down, int):
        raise CardError("laid_down must be the number of one of the knocker's layouts")
    elif not 0 <= laid_down < len(choices):
        raise CardError(f"laid_down must be from 0 to {len(choices) - 1}, not {laid_down}")
    else:
        chosen = laid_down
    picked = choices[chosen]
    return GinHand(
        result=picked.result,
        scorer=picked.scorer,
        points=picked.points,
        knock_limit=limit,
        doubled=factor == 2,
        knocker=picked.knocker,
        defender=picked.defender,
        choices=tuple(choices),
        chosen=chosen,
    )


# ---------------------------------------------------------------- a game


def game_leader(totals: list[int]) -> int | None:
    """The seat with the highest total, or None when two or more share it."""
    if not totals:
        return None
    top = max(totals)
    return totals.index(top) if totals.count(top) == 1 else None


def game_over(totals: list[int], rules: GinRules) -> bool:
    """The game ends when a player reaches the target with a total no one else shares
    (equal totals at the top play on: bonuses are not counted here)."""
    leader = game_leader(totals)
    return leader is not None and totals[leader] >= rules.target


def final_lines(
    totals: list[int], hands_won: list[int], rules: GinRules
) -> list[list[tuple[str, int]]]:
    """Each seat's bonus lines at the end: the game bonus to the highest total (doubled as a
    shutout when no other seat won a hand), and the box bonus for every hand a seat won;
    with equal totals at the top nobody takes the game bonus."""
    if len(totals) != len(hands_won):
        raise ValueError("one total and one count of hands won per seat")
    lines: list[list[tuple[str, int]]] = [[] for _ in totals]
    leader = game_leader(totals)
    if leader is not None:
        lines[leader].append(("Game bonus", GAME_BONUS))
        others = [won for seat, won in enumerate(hands_won) if seat != leader]
        if rules.shutout_doubles and others and not any(others):
            lines[leader].append(("Shutout: game bonus doubled", GAME_BONUS))
    for seat, won in enumerate(hands_won):
        if won and rules.box_bonus:
            hands = "1 hand" if won == 1 else f"{won} hands"
            lines[seat].append(
                (f"Box bonus: {hands} won × {rules.box_bonus}", won * rules.box_bonus)
            )
    return lines


# ---------------------------------------------------------------- the score_hands command


def _texts(cards) -> list[str]:
    return [str(card) for card in cards]


def _blank(value) -> bool:
    """Absent, null, or written as nothing."""
    if isinstance(value, str):
        return not value.strip()
    return value is None or value == []


def command_answer(request: dict, rules: GinRules) -> dict:
    """The fields of a `"game": "gin"` line's answer, without "ok", scoring it under `rules`
    (its own "rules" is not read); bad input raises CardError with the message to show."""
    drawn = request.get("drawn", False)
    if not isinstance(drawn, bool):
        raise CardError('"drawn" must be true or false')
    result = request.get("result")
    if result is not None and result != DRAWN:
        raise CardError('"result" is only given for a drawn hand: "result": "drawn"')
    knocker, defender = request.get("knocker"), request.get("defender")
    if drawn or result == DRAWN or (_blank(knocker) and _blank(defender)):
        return {"result": DRAWN, "scorer": None, "points": 0}
    for name, cards in (("knocker", knocker), ("defender", defender)):
        if _blank(cards):
            size = "10 cards (11 for Big Gin)" if name == "knocker" else "10 cards"
            raise CardError(f'"{name}" is missing: write the {name}\'s {size}, like "7H 8H 9H"')
    upcard = request.get("upcard")
    if rules.variant == OKLAHOMA and not _blank(upcard):
        if not isinstance(upcard, str):
            raise CardError('"upcard" must be one card written as text, like "7H"')
        upcard = parse_card(upcard)
    else:
        upcard = None
    hand = score_hand(parse_hand(knocker), parse_hand(defender), rules, upcard)
    return {
        "result": hand.result,
        "scorer": hand.scorer,
        "points": hand.points,
        "knocker": {
            "melds": [_texts(meld) for meld in hand.knocker.melds],
            "deadwood": hand.knocker.points,
            "unmelded": _texts(hand.knocker.unmelded),
        },
        "defender": {
            "melds": [_texts(meld) for meld in hand.defender.melds],
            "layoffs": [[str(card), index] for card, index in hand.defender.layoffs],
            "deadwood": hand.defender.deadwood,
            "unmelded": _texts(hand.defender.unmelded),
        },
    }
