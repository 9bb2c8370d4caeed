"""The one schema an imported file is read through: every field typed and bounded, so a
hostile or broken file is refused with the first problem and where it is, before anything is
written.

pydantic, rather than Django forms per object: the file is one nested document, and pydantic
reads it in one pass from the raw bytes, with strict types (no "3" for 3), real dates, bounds on
every number and string, and the exact place of each problem (`nights[0].games[3].points`).
"""

from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from django.utils import timezone
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
)

from games import engine
from games.engine.cards import CardError, parse_card, parse_hand

from .models import NAME_LENGTH, Hand, normalise_name

# Limits kept explicit: the file's size, how deeply it may nest, and how much of each thing.
MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 64  # an export nests 8 deep; far deeper is refused before any parser recurses
MAX_PLAYERS_IN_FILE = 10_000
MAX_NIGHTS = 10_000
MAX_GAMES_A_NIGHT = 200
MAX_ROUNDS = 500
MAX_SEATS = engine.MOST_PLAYERS
MAX_CHANGES = 500
MAX_COLOUR = 32_767  # the column is a positive small integer
MAX_VERSION = 1_000_000
SUMMARY_LENGTH = 1_000
BY_LENGTH = 150  # HandChange.changed_by_name
CARDS_LENGTH = 200  # Hand.cards


class ImportProblem(Exception):
    """The file cannot be imported; `problems` says where and why, the first problem first."""

    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def _between(low: int, high: int):
    def check(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"must be between {low} and {high}")
        return value

    return Annotated[int, AfterValidator(check)]


def _name(value: str) -> str:
    name = normalise_name(value)
    if not 1 <= len(name) <= NAME_LENGTH:
        raise ValueError(f"a name needs 1 to {NAME_LENGTH} characters")
    return name


def _moment(value: datetime) -> datetime:
    """A time the database can keep: aware, and within years 1 to 9999 once in UTC (a time of
    31 December 9999 east of Greenwich is past the year 9999 in UTC)."""
    try:
        if timezone.is_naive(value):
            value = timezone.make_aware(value)
        value.astimezone(UTC)
    except (OverflowError, ValueError) as error:
        raise ValueError("is a time outside the years 1 to 9999 in UTC") from error
    return value


def _cards(value: str) -> str:
    parse_hand(value)  # CardError is a ValueError: pydantic reports it at this field
    return value


def _card(value: str) -> str:
    parse_card(value)
    return value


Name = Annotated[str, AfterValidator(_name)]
Moment = Annotated[datetime, AfterValidator(_moment)]
Text = Annotated[str, StringConstraints(max_length=SUMMARY_LENGTH)]
Points = _between(0, engine.MAX_POINTS)
Seat = _between(0, MAX_SEATS - 1)


class Record(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class PlayerRecord(Record):
    name: Name
    colour_index: _between(0, MAX_COLOUR) | None = None
    created_at: Moment | None = None


# What more a game asks of an entry (Oklahoma Gin's upcard): a few short words by name.
ExtraEntry = Annotated[
    dict[
        Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,20}$")],
        Annotated[str, StringConstraints(max_length=8)],
    ],
    Field(max_length=4),
]
RESULTS = tuple(
    sorted({""} | {name for kind in engine.KINDS.values() for name in kind.result_names})
)


class EntryRecord(Record):
    """A hand's entry as a change keeps it, to restore it on an undo."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    outcome: Literal[tuple(value for value, _ in Hand.OUTCOMES)]
    cards: Annotated[str, StringConstraints(max_length=CARDS_LENGTH), AfterValidator(_cards)]
    entered_points: Points | None
    extra: ExtraEntry = {}


def _entry(value: dict) -> dict:
    """{} (no hand) or an entry; kept as the plain dict the column stores."""
    if value:
        EntryRecord.model_validate(value)
    return value


class ChangeRecord(Record):
    by: Annotated[str, StringConstraints(max_length=BY_LENGTH)]
    at: Moment
    old_summary: Text
    new_summary: Text
    old_points: Points | None = None
    new_points: Points
    # What an undo restores ({} for no hand; files from before undo existed say null: none).
    before: Annotated[dict[str, Any], Field(max_length=4), AfterValidator(_entry)] | None = None
    after: Annotated[dict[str, Any], Field(max_length=4), AfterValidator(_entry)] | None = None
    undo: bool = False
    undone_at: Moment | None = None


class RemovedHandChangeRecord(ChangeRecord):
    """A change of a hand an undo took back: the hand is gone, its seat says whose it was."""

    seat: Seat


class HandRecord(Record):
    seat: Seat
    outcome: Literal[tuple(value for value, _ in Hand.OUTCOMES)]
    cards: Annotated[str, StringConstraints(max_length=CARDS_LENGTH), AfterValidator(_cards)]
    entered_points: Points | None = None
    extra: ExtraEntry = {}
    points: Points
    melds: Annotated[
        list[Annotated[list[Annotated[str, AfterValidator(_card)]], Field(max_length=13)]],
        Field(max_length=13),
    ]
    all_pure: bool
    version: _between(1, MAX_VERSION)
    updated_at: Moment | None = None
    changes: Annotated[list[ChangeRecord], Field(max_length=MAX_CHANGES)]


class RoundRecord(Record):
    number: _between(1, MAX_ROUNDS)
    dealer: Seat
    completed_at: Moment | None = None
    result: Literal[RESULTS] = ""
    hands: Annotated[list[HandRecord], Field(max_length=MAX_SEATS)]
    removed_hand_changes: Annotated[
        list[RemovedHandChangeRecord], Field(max_length=MAX_CHANGES)
    ] = []


class GameRecord(Record):
    kind: Literal[tuple(engine.KINDS)]
    rules: Annotated[dict[str, Any], Field(max_length=20)]
    created_at: Moment | None = None
    finished_at: Moment | None = None
    seats: Annotated[list[Name], Field(min_length=2, max_length=MAX_SEATS)]
    rounds: Annotated[list[RoundRecord], Field(max_length=MAX_ROUNDS)]


class NightRecord(Record):
    date: date
    created_at: Moment | None = None
    games: Annotated[list[GameRecord], Field(max_length=MAX_GAMES_A_NIGHT)]


class ExportFile(Record):
    format: Literal["scorekeeper"]
    version: Literal[1]
    players: Annotated[list[PlayerRecord], Field(max_length=MAX_PLAYERS_IN_FILE)]
    nights: Annotated[list[NightRecord], Field(max_length=MAX_NIGHTS)]


def json_depth(raw: bytes) -> int:
    """How deeply the JSON text nests, counted without parsing it (brackets inside strings
    don't count), so a file nested a million deep is refused before any parser recurses."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _where(location) -> str:
    where = "file"
    for part in location:
        if isinstance(part, int):
            where += f"[{part}]"
        elif where == "file":
            where = str(part)
        else:
            where += f".{part}"
    return where


_MESSAGES = {
    "missing": "is missing",
    "int_type": "should be a whole number",
    "string_type": "should be text",
    "bool_type": "should be true or false",
    "list_type": "should be a list",
    "dict_type": "should be an object",
    "model_type": "should be an object",
    "model_attributes_type": "should be an object",
}


def _message(error) -> str:
    problem = error["type"]
    if problem in _MESSAGES:
        return _MESSAGES[problem]
    if problem == "value_error":
        return str(error["ctx"]["error"])
    if problem == "too_long":
        return f"holds more than {error['ctx']['max_length']} items"
    if problem == "too_short":
        return f"needs at least {error['ctx']['min_length']} items"
    if problem == "string_too_long":
        return f"is longer than {error['ctx']['max_length']} characters"
    if problem == "literal_error":
        return f"should be one of {error['ctx']['expected']}"
    return error["msg"][0].lower() + error["msg"][1:]


def read_export(raw: bytes) -> ExportFile:
    """The file as checked records, or ImportProblem naming the first problems and where."""
    if len(raw) > MAX_FILE_BYTES:
        raise ImportProblem([f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB"])
    if json_depth(raw) > MAX_DEPTH:
        raise ImportProblem([f"the file nests deeper than {MAX_DEPTH} levels: not an export"])
    try:
        export = ExportFile.model_validate_json(raw)
    except ValidationError as error:
        errors = error.errors()
        if errors[0]["type"] == "json_invalid":
            raise ImportProblem([f"the file is not JSON: {errors[0]['ctx']['error']}"]) from None
        problems = [f"{_where(e['loc'])}: {_message(e)}" for e in errors]
        raise ImportProblem(problems[:20]) from None
    except (ValueError, RecursionError) as error:
        raise ImportProblem([f"the file is not JSON: {error}"]) from None
    problems = list(_references(export))
    if problems:
        raise ImportProblem(problems[:20])
    return export


def _references(export: ExportFile):
    """What one field cannot check alone: names resolved, seats and dealers in range, each
    round and seat once, the rules and the cards of each game's kind."""
    names = set()
    for i, player in enumerate(export.players):
        # As the database compares them: spaces folded, then regardless of case.
        key = player.name.lower()
        if key in names:
            yield f"players[{i}].name: {player.name} is listed twice"
        names.add(key)
    for i, night in enumerate(export.nights):
        for j, game in enumerate(night.games):
            where = f"nights[{i}].games[{j}]"
            yield from _game_references(game, where, names)


def _game_references(game: GameRecord, where: str, names: set):
    definition = engine.KINDS[game.kind]
    try:
        rules = definition.rules_from(game.rules)
    except (CardError, ValueError, TypeError) as error:
        yield f"{where}.rules: {error}"
        return
    seated = [name.lower() for name in game.seats]
    for k, name in enumerate(game.seats):
        if name.lower() not in names:
            yield f"{where}.seats[{k}]: {name} is not among the file's players"
    if len(set(seated)) != len(seated):
        yield f"{where}.seats: a player sits twice"
    numbers = set()
    for k, round_ in enumerate(game.rounds):
        rwhere = f"{where}.rounds[{k}]"
        if definition.rounds and round_.number > definition.rounds:
            yield f"{rwhere}.number: there is no round {round_.number} in this game"
        if round_.number in numbers:
            yield f"{rwhere}.number: round {round_.number} appears twice"
        numbers.add(round_.number)
        if round_.dealer >= len(game.seats):
            yield f"{rwhere}.dealer: is not one of the game's seats"
        taken = set()
        for m, hand in enumerate(round_.hands):
            hwhere = f"{rwhere}.hands[{m}]"
            if hand.seat >= len(game.seats):
                yield f"{hwhere}.seat: is not one of the game's seats"
            if hand.seat in taken:
                yield f"{hwhere}.seat: has two hands in one round"
            taken.add(hand.seat)
            try:
                definition.check_cards(parse_hand(hand.cards), rules)
            except CardError as error:
                yield f"{hwhere}.cards: {error}"
        for m, change in enumerate(round_.removed_hand_changes):
            if change.seat >= len(game.seats):
                yield f"{rwhere}.removed_hand_changes[{m}].seat: is not one of the game's seats"
