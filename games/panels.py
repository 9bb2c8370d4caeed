"""One player's hand on the round page: what was saved, or what is being entered."""

from collections import Counter
from dataclasses import dataclass, field

from games import engine
from games.engine.cards import Card, CardError, parse_hand, sort_cards

from .forms import extra_field
from .models import Entry, Hand, Round, Seat, outcome_label


@dataclass
class PickerCard:
    card: Card
    held: int
    full: bool
    wild: bool
    limit: int  # copies of the card in the round's supply


@dataclass(frozen=True)
class OutcomeChoice:
    value: str
    label: str
    cards: bool  # scored from the cards: the picker shows
    entered: bool  # entered as a number: the points field shows
    extras: bool = False  # what more the game asks shows with it (Oklahoma's upcard)


@dataclass
class HandPanel:
    """Everything the round page draws for one player's hand."""

    round: Round
    seat: Seat
    hand: Hand | None  # as saved, if it was
    entry: Entry
    scored: engine.Scored | None = None
    error: str | None = None
    conflict: Hand | None = None  # saved from another phone meanwhile
    question: str | None = None  # asked before saving (a hand that melds completely)
    doubler: str | None = None  # the winner whose four pure sequences double this count
    editing: bool = False
    collapsed: bool = False  # another hand is entered first
    reading: object = None  # the cards a photo showed (photos.PhotoReading), to check
    photo_problem: str | None = None  # why a photo could not be read
    undone: bool = False  # the entry of a save just undone on this phone, to correct
    chosen: list[Card] = field(default_factory=list)
    picker: list[list[PickerCard]] = field(default_factory=list)

    @classmethod
    def saved(cls, round_: Round, seat: Seat, hand: Hand | None, *, picker=True, doubler=None):
        """The hand as stored (after any doubling by `doubler`, the winner's name), with why its
        points are what they are; with its picker unless only its summary is drawn."""
        if hand is None:
            return cls.build(round_, seat, None, Entry(engine.CARDS), picker=picker)
        entry = hand.entry
        scored = engine.Scored(
            points=hand.points, melds=hand.melds, unmelded=hand.leftover, all_pure=hand.all_pure
        )
        return cls.build(round_, seat, hand, entry, scored=scored, picker=picker, doubler=doubler)

    @classmethod
    def entering(cls, round_: Round, seat: Seat, hand: Hand | None, entry: Entry, **shown):
        """What a phone is entering, scored on its own as the cards stand; `shown` says what
        more the panel shows (a refusal, a conflict)."""
        scored = shown.pop("scored", None)
        if scored is None and (entry.cards or entry.outcome != engine.CARDS):
            scored = round_.score(entry)
        return cls.build(round_, seat, hand, entry, scored=scored, editing=True, **shown)

    @classmethod
    def build(cls, round_, seat, hand, entry, picker=True, **shown):
        panel = cls(round_, seat, hand, entry, **shown)
        try:
            panel.chosen = sort_cards(parse_hand(entry.cards))
        except CardError as problem:
            panel.error = panel.error or str(problem)
        scored_error = panel.scored.error if panel.scored is not None else None
        # While cards are still being chosen, the count says enough.
        if panel.error is None and scored_error and panel.editing and not panel.counting:
            panel.error = scored_error
        if panel.offered and picker:
            panel.picker = panel._picker()
        return panel

    def _picker(self) -> list[list[PickerCard]]:
        game = self.round.game
        kind, rules = game.kind_def, game.engine_rules
        held = Counter(self.chosen)
        rows: list[list[PickerCard]] = []
        for card in kind.deck(rules):
            limit = kind.copies(card, rules)
            wild = kind.is_wild(card, self.round.number, rules)
            item = PickerCard(card, held[card], held[card] >= limit, wild, limit)
            if rows and rows[-1][0].card.suit == card.suit:
                rows[-1].append(item)
            else:
                rows.append([item])
        return rows

    # ---------------------------------------------------------------- for the template

    @property
    def chosen_checked(self) -> list[tuple[Card, str | None]]:
        """The chosen cards, each with what to check about it where a photo's reading was
        unsure ("check: 6 of clubs, or 9?"), one mark per unsure reading of the card."""
        left = list(self.reading.unsure) if self.reading else []
        marked = []
        for card in self.chosen:
            words = next((w for c, w in left if c == str(card)), None)
            if words is not None:
                left.remove((str(card), words))
            marked.append((card, words))
        return marked

    @property
    def live_key(self) -> str:
        """What a phone compares to tell that this hand's line or cards changed (`data-live-key`,
        static/js/live.js): the hand's version, when it was saved (seconds since the epoch, then
        its microseconds: `date:"Uu"`) and its points; "0.." for no hand saved. Made here, not by
        the template's `date` filter: twice a hand on every page and change that draws it."""
        hand = self.hand
        if hand is None:
            return "0.."
        when = hand.updated_at
        return f"{hand.version or 0}.{int(when.timestamp())}{when.microsecond:06d}.{hand.points}"

    @property
    def sizes(self) -> tuple[int, ...]:
        """How many cards the hand may hold, as it ended (a Gin knocker 10, or 11)."""
        return self.round.kind_def.holds(self.round.number, self.entry.outcome)

    @property
    def size(self) -> int:
        return self.round.hand_size

    @property
    def count(self) -> int:
        return len(self.chosen)

    @property
    def complete(self) -> bool:
        """As many cards chosen as the hand holds."""
        return self.count in self.sizes

    @property
    def counting(self) -> bool:
        """Cards are still being chosen: fewer than the hand holds, and nothing else wrong."""
        return engine.takes_cards(self.entry.outcome) and 0 < self.count < min(self.sizes)

    @property
    def extras(self) -> list[tuple[engine.Extra, str, str]]:
        """What more the game asks with an outcome: each with its form field and what this
        entry says."""
        game = self.round.game
        said = self.entry.extra or {}
        return [
            (extra, extra_field(extra.name), said.get(extra.name, ""))
            for extra in game.kind_def.extras(game.engine_rules)
            if extra.label
        ]

    @property
    def open(self) -> bool:
        """The panel is open while its hand is not saved, being edited, refused, asked about or
        in conflict; a saved hand shows as one line."""
        stopped = bool(self.error or self.conflict or self.question)
        if self.collapsed and not stopped:
            return False
        return self.hand is None or self.editing or stopped

    @property
    def stopped(self) -> bool:
        """A save of this panel was refused, met a conflict, or is asked about."""
        return bool(self.error or self.conflict or self.question)

    @property
    def reasons(self) -> list[str]:
        """Why the hand's points are what they are, in the rules' words: those of the cards
        entered, or of the hand as saved and as its round changed it (Rummy's double)."""
        game = self.round.game
        kind, rules = game.kind_def, game.engine_rules
        if self.editing or self.hand is None:
            own = self.scored.points if self.scored else None
            reasons = list(self.scored.reasons) if self.scored else []
        else:
            own, reasons = kind.own_count(
                self.hand.outcome, self.hand.cards, self.round.number, rules, self.hand.extra
            )
            reasons = list(reasons)
            if own is None and self.hand.outcome == engine.POINTS:
                own = self.hand.entry.entered  # a count entered as a number is doubled too
        if own is not None:
            reasons += kind.hand_reasons(self.entry.outcome, own, self.doubler, rules)
        return reasons

    @property
    def points(self) -> int | None:
        """The points the panel shows: the saved hand's, or the entry's once the round is known
        (Rummy's double and cap), or None while they cannot be told."""
        if not self.editing and self.hand is not None:
            return self.hand.points
        if self.scored is None or not self.scored.complete:
            return None
        game = self.round.game
        kind = game.kind_def
        doubled = self.doubler is not None
        return kind.hand_points(self.entry.outcome, self.scored.points, doubled, game.engine_rules)

    @property
    def label(self) -> str | None:
        return outcome_label(self.round.game, self.hand.outcome) if self.hand else None

    @property
    def asked(self) -> dict | None:
        """The question asked before saving, with its two answers' words, if any."""
        if not self.question:
            return None
        kind = self.round.game.kind_def
        name = self.seat.player.name
        points = self.points or 0
        return {
            "question": self.question,
            "yes_value": engine.WENT_OUT,
            "no_value": engine.CARDS,
            "yes": f"Yes, {name} {kind.went_out_word}",
            "no": f"No, {kind.cards_label.lower()}: {points} {kind.own_points_word}",
        }

    @property
    def saved_key(self) -> str:
        """The stored hand's `entry_key`, for the phone to tell whether a kept draft reached
        the server ("" for none)."""
        return self.hand.entry_key if self.hand else ""

    @property
    def outcome_choices(self) -> list[OutcomeChoice]:
        """The ways the hand can end, as its form offers them."""
        game = self.round.game
        kind, rules = game.kind_def, game.engine_rules
        with_extras = {extra.outcome for extra in kind.extras(rules) if extra.label}
        return [
            OutcomeChoice(
                value,
                label,
                cards=engine.takes_cards(value),
                entered=value == engine.POINTS,
                extras=value in with_extras,
            )
            for value, label in kind.outcomes(rules)
        ]

    @property
    def wild_rank(self) -> int | None:
        return self.round.wild_rank

    @property
    def max_points(self) -> int:
        """The most a hand may be entered as."""
        return engine.MAX_POINTS

    @property
    def offered(self) -> bool:
        """The hand can still be entered here: a finished game's hands are shown, not offered."""
        return not self.round.game.finished_at
