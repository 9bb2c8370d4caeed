"""A game's options as data: each field of a rules dataclass carries its label, range or
choices and help in its metadata, so forms, option lists and validation read one source."""

from dataclasses import asdict, dataclass, fields

from .cards import CardError


@dataclass(frozen=True, slots=True)
class Option:
    """How one rule is offered at the table."""

    label: str
    low: int | None = None
    high: int | None = None
    choices: tuple = ()  # ((value, label), ...) when the rule is a choice
    help: str = ""
    blank: str | None = None  # what an empty answer means (the value is None), if allowed
    from_players: bool = False  # an empty answer takes the default for the number of players
    shown_if: tuple | None = None  # (other rule, value): only relevant then
    # Offered at once when a game is set up; the rest are rarely changed, so they wait behind
    # "More options".
    in_view: bool = False

    def describe(self, value) -> str:
        """The value as the "options of this game" list says it."""
        if value is None:
            return self.blank or "none"
        for choice, label in self.choices:
            if choice == value:
                return label
        return str(value)


def option(label: str, **details) -> dict:
    """Field metadata for a rule: `field(default=..., metadata=option("Decks", low=1, ...))`."""
    if "choices" in details:
        details["choices"] = tuple(details["choices"])
    return {"option": Option(label, **details)}


def options_of(rules_class) -> list[tuple[str, Option, object]]:
    """(name, option, default) of each rule of a rules dataclass, in declaration order."""
    return [(f.name, f.metadata["option"], f.default) for f in fields(rules_class)]


def described(rules) -> list[tuple[str, str]]:
    """(label, value in words) of each rule that matters for these rules."""
    lines = []
    for name, opt, _ in options_of(type(rules)):
        if opt.shown_if and getattr(rules, opt.shown_if[0]) != opt.shown_if[1]:
            continue
        lines.append((opt.label, opt.describe(getattr(rules, name))))
    return lines


def rules_from_dict(cls, data, game_name: str):
    """Rules from a JSON object: omitted keys take the defaults, unknown keys are refused."""
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise CardError("rules must be an object")
    unknown = sorted(str(key) for key in set(data) - {f.name for f in fields(cls)})
    if unknown:
        raise CardError(f"unknown {game_name} rule: {', '.join(unknown)}")
    try:
        return cls(**data)
    except TypeError as error:
        raise CardError(f"the {game_name} rules are not understood: {error}") from error


def check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardError(f"rule {name} must be a whole number")
    if not low <= value <= high:
        raise CardError(f"rule {name} must be between {low} and {high}, not {value}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise CardError(f"rule {name} must be true or false")
    return value


def check_choice(name: str, value, choices) -> str:
    if value not in choices:
        listed = " or ".join(f'"{choice}"' for choice in choices)
        raise CardError(f"rule {name} must be {listed}, not {value!r}")
    return value


def check_options(rules) -> None:
    """Every rule within the range or among the choices its metadata gives."""
    for name, opt, _ in options_of(type(rules)):
        value = getattr(rules, name)
        if value is None and opt.blank is not None:
            continue
        if opt.choices and all(isinstance(choice, bool) for choice, _ in opt.choices):
            check_bool(name, value)
        elif opt.choices:
            if isinstance(value, bool):
                raise CardError(f"rule {name} must be one of its choices, not {value!r}")
            check_choice(name, value, [choice for choice, _ in opt.choices])
        elif opt.low is not None:
            check_int(name, value, opt.low, opt.high)


class Rules:
    """What every game's rules dataclass shares: checked against its metadata when made, read
    from and written to the JSON stored with a game."""

    __slots__ = ()
    game_name = ""

    def __post_init__(self):
        check_options(self)

    @classmethod
    def from_dict(cls, data: dict | None):
        return rules_from_dict(cls, data, cls.game_name)

    def to_dict(self) -> dict:
        return asdict(self)
