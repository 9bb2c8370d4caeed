"""What happens at the table between rounds: scoring entries with the engine, dealers,
players out of a pool game, totals and standings. Plain functions over the models."""

from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from games.engine.cards import (
    RANK_LABELS,
    CardError,
    check_round_supply,
    format_cards,
    parse_hand,
)
from games.engine.rummy13 import declaration, final_count, loser_arrangement
from games.engine.three_thirteen import (
    ROUNDS,
    arrange,
    cards_in_round,
    went_out_error,
    wild_rank,
)

from .models import Game, Hand, HandChange, Round, Seat


def hand_size(game: Game, round_number: int) -> int:
    """How many cards each hand holds when the round is scored."""
    return cards_in_round(round_number) if game.is_three_thirteen else 13


def wild_label(game: Game, round_number: int) -> str | None:
    """The round's wild rank as printed on the cards (Three Thirteen), or the wild joker rank."""
    if game.is_three_thirteen:
        return RANK_LABELS[wild_rank(round_number) - 1]
    return game.engine_rules.wild_rank_label


def outcome_choices(game: Game) -> list[tuple[str, str]]:
    """The ways a hand can end, as offered on the round page."""
    if game.is_three_thirteen:
        return [
            (Hand.CARDS, "Cards left"),
            (Hand.WENT_OUT, "Went out"),
            (Hand.POINTS, "Points as a number"),
        ]
    rules = game.engine_rules
    choices = [
        (Hand.CARDS, "Cards left"),
        (Hand.WENT_OUT, "Declared and won"),
    ]
    if rules.format == "pool":
        choices += [
            (Hand.DROP, f"Drop ({rules.first_drop})"),
            (Hand.MIDDLE_DROP, f"Middle drop ({rules.middle_drop})"),
            (Hand.WRONG_DECLARATION, f"Wrong declaration ({rules.wrong_declaration})"),
        ]
    choices.append((Hand.POINTS, "Points as a number"))
    return choices


@dataclass
class Scored:
    """One entry scored on its own (the rest of the round may still change its points)."""

    cards: list = field(default_factory=list)
    points: int | None = None
    melds: list = field(default_factory=list)
    unmelded: list = field(default_factory=list)
    all_pure: bool = False
    error: str | None = None
    note: str | None = None

    @property
    def complete(self) -> bool:
        return self.error is None and self.points is not None


def score_entry(game: Game, round_number: int, outcome: str, cards_text: str, entered=None):
    """Score what was entered for one hand, or say what is wrong with it."""
    rules = game.engine_rules
    scored = Scored()
    try:
        scored.cards = parse_hand(cards_text or "")
    except CardError as error:
        scored.error = str(error)
        return scored
    if outcome == Hand.POINTS:
        if entered is None:
            scored.error = "enter the points as a number"
        elif entered < 0:
            scored.error = "points cannot be negative"
        else:
            scored.points = entered
        return scored
    fixed = {
        Hand.DROP: "first_drop",
        Hand.MIDDLE_DROP: "middle_drop",
        Hand.WRONG_DECLARATION: "wrong_declaration",
    }
    if outcome in fixed:
        scored.points = getattr(rules, fixed[outcome])
        return scored
    expected = hand_size(game, round_number)
    if outcome == Hand.WENT_OUT and not scored.cards:
        scored.points = 0
        scored.note = "no cards entered: scored 0 without checking the melds"
        return scored
    if len(scored.cards) != expected:
        have = len(scored.cards)
        scored.error = f"{have} card{'s' if have != 1 else ''} chosen; this hand holds {expected}"
        return scored
    try:
        if game.is_three_thirteen:
            laid = arrange(scored.cards, round_number, rules)
            if outcome == Hand.WENT_OUT:
                problem = went_out_error(laid)
                if problem:
                    scored.error = f"went out, but {problem}"
                    _show(scored, laid)
                    return scored
            _show(scored, laid)
            scored.points = laid.points
        elif outcome == Hand.WENT_OUT:
            judged = declaration(scored.cards, rules)
            _show(scored, judged.arrangement)
            if not judged.valid:
                scored.error = f"not a valid declaration: {judged.reason}"
                return scored
            scored.all_pure = judged.all_pure
            scored.points = 0
        else:
            laid = loser_arrangement(scored.cards, rules)
            _show(scored, laid)
            scored.points = laid.points
    except CardError as error:
        scored.error = str(error)
        scored.points = None
    return scored


def _show(scored: Scored, arrangement) -> None:
    scored.melds = [[str(card) for card in meld] for meld in arrangement.melds]
    scored.unmelded = [str(card) for card in arrangement.unmelded]


def outcome_label(game: Game, outcome: str) -> str:
    """How the round page names a hand's outcome in this game."""
    return dict(outcome_choices(game)).get(outcome) or dict(Hand.OUTCOMES)[outcome]


def summary(game: Game, outcome: str, cards: str, points: int | None) -> str:
    """A hand in a few words for its change history."""
    label = outcome_label(game, outcome)
    if outcome == Hand.POINTS:
        return f"{points} points entered"
    if cards:
        return f"{label}: {cards}"
    return label


def rescore_round(round_: Round) -> None:
    """Recompute every hand of a round: a Rummy winner's four pure sequences double the
    counted hands of the others, and the cap applies after."""
    game = round_.game
    hands = list(round_.hands.all())
    rules = game.engine_rules
    scored_hands = [
        (hand, score_entry(game, round_.number, hand.outcome, hand.cards, hand.entered_points))
        for hand in hands
    ]
    doubled = any(
        hand.outcome == Hand.WENT_OUT and scored.all_pure for hand, scored in scored_hands
    )
    for hand, scored in scored_hands:
        points = scored.points if scored.points is not None else hand.points
        if not game.is_three_thirteen and hand.outcome == Hand.CARDS:
            points = final_count(points, doubled, rules)
        if (hand.points, hand.melds, hand.all_pure) != (points, scored.melds, scored.all_pure):
            hand.points, hand.melds, hand.all_pure = points, scored.melds, scored.all_pure
            hand.save(update_fields=["points", "melds", "all_pure"])


class Conflict(Exception):
    """The hand was saved from another phone since this one loaded it."""

    def __init__(self, saved: Hand):
        super().__init__("saved from another phone")
        self.saved = saved


def round_supply_error(round_: Round, seat: Seat, cards: list) -> str | None:
    """The card held more often across this round's hands than the decks allow, if any."""
    others = [parse_hand(h.cards) for h in round_.hands.exclude(seat=seat) if h.cards]
    rules = round_.game.engine_rules
    try:
        check_round_supply(others + [cards], rules.decks, getattr(rules, "jokers", 0))
    except CardError as error:
        return str(error)
    return None


@transaction.atomic
def save_hand(round_: Round, seat: Seat, outcome, cards_text, entered, version, user):
    """Save one hand if it is valid and nobody saved it since `version`; then rescore.

    Returns (hand, scored). Raises Conflict with the saved hand when another phone saved a
    different hand in between (an identical save, like a double tap, is not a conflict).
    """
    game = round_.game
    scored = score_entry(game, round_.number, outcome, cards_text, entered)
    if scored.error:
        return None, scored
    cards = format_cards(scored.cards)
    problem = round_supply_error(round_, seat, scored.cards)
    if problem:
        scored.error = problem
        return None, scored
    hand = Hand.objects.select_for_update().filter(round=round_, seat=seat).first()
    stored_entry = entered if outcome == Hand.POINTS else None
    if hand is not None:
        same = (hand.outcome, hand.cards, hand.entered_points) == (outcome, cards, stored_entry)
        if same:
            return hand, scored
        if version != hand.version:
            raise Conflict(hand)
        old = summary(game, hand.outcome, hand.cards, hand.entered_points), hand.points
        hand.outcome, hand.cards, hand.entered_points = outcome, cards, stored_entry
        hand.version += 1
        hand.updated_at, hand.updated_by = timezone.now(), user
        hand.save()
    else:
        if version:
            # It was deleted or never existed for the version this phone saw.
            version = 0
        hand = Hand.objects.create(
            round=round_, seat=seat, outcome=outcome, cards=cards,
            entered_points=stored_entry, updated_by=user,
        )  # fmt: skip
        old = "", None
    rescore_round(round_)
    hand.refresh_from_db()
    HandChange.objects.create(
        hand=hand,
        changed_by=user,
        changed_by_name=user.get_username() if user else "",
        old_summary=old[0],
        old_points=old[1],
        new_summary=summary(game, outcome, cards, stored_entry),
        new_points=hand.points,
    )
    update_completion(round_)
    return hand, scored


def round_problems(round_: Round, hands=None, active=None) -> list[str]:
    """What keeps a round from being complete, in words for the table."""
    game = round_.game
    hands = list(round_.hands.all()) if hands is None else hands
    active = active_seats(game, round_.number) if active is None else active
    have = {hand.seat_id for hand in hands}
    problems = []
    missing = [seat.player.name for seat in active if seat.pk not in have]
    if missing:
        problems.append("still to enter: " + ", ".join(missing))
    winners = [h for h in hands if h.outcome == Hand.WENT_OUT]
    word = "went out" if game.is_three_thirteen else "declared and won"
    if len(winners) > 1:
        names = ", ".join(h.seat.player.name for h in winners)
        problems.append(f"only one player can be marked as {word} ({names} are)")
    elif not winners and not missing:
        problems.append(f"mark the player who {word}")
    return problems


def update_completion(round_: Round) -> None:
    complete = not round_problems(round_)
    if complete and round_.completed_at is None:
        round_.completed_at = timezone.now()
        round_.save(update_fields=["completed_at"])
    elif not complete and round_.completed_at is not None:
        round_.completed_at = None
        round_.save(update_fields=["completed_at"])


def active_seats(game: Game, round_number: int) -> list[Seat]:
    """Seats still playing in a round: in pool Rummy, a player whose total before the round
    has reached the pool limit is out."""
    seats = list(game.seats.select_related("player"))
    if game.is_three_thirteen or game.engine_rules.format != "pool":
        return seats
    limit = game.engine_rules.pool_limit
    before = Counter()
    for seat_id, points in Hand.objects.filter(
        round__game=game, round__number__lt=round_number
    ).values_list("seat_id", "points"):
        before[seat_id] += points
    return [seat for seat in seats if before[seat.pk] < limit]


def next_dealer(game: Game, previous: Seat | None, active: list[Seat]) -> Seat:
    """The deal passes to the left: the next seat after the previous dealer still playing."""
    seats = list(game.seats.all())
    if previous is None:
        return seats[0]
    playing = {seat.pk for seat in active}
    for step in range(1, len(seats) + 1):
        seat = seats[(previous.position + step) % len(seats)]
        if seat.pk in playing:
            return seat
    return previous


def is_over(game: Game) -> bool:
    """Three Thirteen ends after 11 rounds; pool Rummy when one player is left."""
    if game.finished_at:
        return True
    done = game.rounds.filter(completed_at__isnull=False).count()
    if game.is_three_thirteen:
        return done >= ROUNDS
    if game.engine_rules.format == "pool" and done:
        return len(active_seats(game, done + 1)) <= 1
    return False


@transaction.atomic
def current_round(game: Game) -> Round | None:
    """The round being played: the first incomplete one, or a new one after the last."""
    rounds = list(game.rounds.select_related("dealer"))
    for round_ in rounds:
        if round_.completed_at is None:
            return round_
    if is_over(game):
        return None
    number = len(rounds) + 1
    active = active_seats(game, number)
    dealer = next_dealer(game, rounds[-1].dealer if rounds else None, active)
    round_, _ = Round.objects.get_or_create(game=game, number=number, defaults={"dealer": dealer})
    return round_


def standings_from(seats, total: dict[int, int]) -> list[tuple[int, Seat, int]]:
    """(place, seat, total), lowest total first; equal totals share a place (in pool Rummy
    the last player left is the one under the limit, so the lowest total too)."""
    ordered = sorted(seats, key=lambda seat: (total.get(seat.pk, 0), seat.position))
    places = []
    for index, seat in enumerate(ordered):
        if index and total.get(seat.pk, 0) == total.get(ordered[index - 1].pk, 0):
            place = places[-1][0]
        else:
            place = index + 1
        places.append((place, seat, total.get(seat.pk, 0)))
    return places
