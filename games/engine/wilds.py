"""What each wild card of a hand does, in the words a player at the table would use: what it
stands for in its meld, and what it costs when it is left over. Cards are written in the
RULES.md notation, which the round page draws as faces."""

from collections.abc import Callable

from .arrangement import Arrangement
from .cards import RANK_NAMES, Card


def _a_rank(rank: int) -> str:
    name = RANK_NAMES[rank - 1]
    return f"an {name}" if name[0] in "A8" else f"a {name}"


def roles(meld, run: bool, is_wild: Callable[[Card], bool]) -> list[tuple[Card, object]]:
    """(wild card, what it stands for) for each wild card of a meld laid out in order: in a run
    the card of its place (itself, where it is that very card), in a set the set's rank; None
    in a meld of wild cards only."""
    naturals = [(at, card) for at, card in enumerate(meld) if not is_wild(card)]
    wilds = [(at, card) for at, card in enumerate(meld) if is_wild(card)]
    if not naturals:
        return [(card, None) for _, card in wilds]
    first_at, first = naturals[0]
    if not run:
        return [(card, first.rank) for _, card in wilds]
    # Nothing wraps: an ace with cards below it in the run is the high one.
    place = 14 if first.rank == 1 and first_at > 0 else first.rank
    found = []
    for at, card in wilds:
        rank = place + at - first_at
        found.append((card, Card(1 if rank == 14 else rank, first.suit)))
    return found


def wild_reasons(
    laid: Arrangement, is_wild: Callable[[Card], bool], value: Callable[[Card], int]
) -> list[str]:
    """What each wild card of a laid-out hand does: "JK stands for 8H", "7C stands for a King",
    a meld of wild cards only, and a wild card left over with what it counts."""
    reasons = []
    for meld, run in zip(laid.melds, laid.runs or [False] * len(laid.melds), strict=True):
        found = roles(meld, run, is_wild)
        if found and all(stands is None for _, stands in found):
            reasons.append(f"{' '.join(map(str, meld))}: a meld of wild cards only")
            continue
        for card, stands in found:
            if stands == card:
                continue  # a wild card in its own place: nothing to explain
            what = str(stands) if isinstance(stands, Card) else _a_rank(stands)
            reasons.append(f"{card} stands for {what}")
    left = []
    for card in laid.unmelded:
        if is_wild(card) and card not in left:
            left.append(card)
    reasons += [f"{card} is wild but left over: it counts {value(card)}" for card in left]
    return reasons
