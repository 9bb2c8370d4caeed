"""What the round page says of a round scored from all its hands together (Gin Rummy): the
engine's report, whose words hold places for the players' names by their hand's place, read
for the page with the names and the hand whose save picks a layout."""

from dataclasses import dataclass

from .forms import extra_field
from .models import Hand


@dataclass(frozen=True)
class ShownHand:
    name: str
    role: str
    melds: list
    layoffs: list
    unmelded: list
    deadwood: int


@dataclass(frozen=True)
class ShownChoice:
    index: int
    melds: list
    words: str
    chosen: bool


@dataclass(frozen=True)
class ShownReport:
    headline: str
    notes: tuple[str, ...]
    hands: tuple[ShownHand, ...]
    choices: tuple[ShownChoice, ...] = ()
    chooser: Hand | None = None  # the hand whose save picks a choice
    choice_field: str = ""  # the field of its form that says which
    keep: tuple[tuple[str, str], ...] = ()  # the rest its entry says, as its form's fields


def shown_report(report, hands: list[Hand]) -> ShownReport | None:
    """The round's report (`Round.settled`) for the page, from its hands in seat order."""
    if report is None:
        return None
    names = [hand.seat.player.name for hand in hands]
    chooser = hands[report.choice_hand] if report.choice_hand is not None else None
    keep = ()
    if chooser is not None:
        keep = tuple(
            (extra_field(name), value)
            for name, value in chooser.extra.items()
            if name != report.choice_name
        )
    return ShownReport(
        report.headline.format(*names),
        tuple(note.format(*names) for note in report.notes),
        tuple(
            ShownHand(
                names[part.hand], part.role, part.melds, part.layoffs, part.unmelded, part.deadwood
            )
            for part in report.hands
        ),
        tuple(
            ShownChoice(choice.index, choice.melds, choice.words.format(*names), choice.chosen)
            for choice in report.choices
        ),
        chooser,
        extra_field(report.choice_name),
        keep,
    )
