"""One photo of the whole table, for the round page: the reader's hands (games.vision.tables)
given to the round's seats, the hand nearest the photo's bottom edge to the photographer's seat
and each next one to the next seat to their left (the deal's way round), each hand read as its
panel reads a photo of one hand (games.photos). Cards lying between two hands belong to none
until the player gives them to a seat. Nothing here is saved: the page carries the reading, as
moved by the player, in its form until each hand is saved from its panel."""

from dataclasses import dataclass, replace

from games import vision
from games.engine.cards import Card, CardError, parse_card

from .photos import PhotoReading, reading_again, reading_of, supply_of

MOST_CARDS = 60  # a hand carried back by the page holds at most this many (a 6-seat table: 13)


class TableMoveError(ValueError):
    """A move or a carried reading that does not fit the table (a page left open too long, or
    a crafted request); its message is for the page."""


@dataclass(frozen=True)
class TableHand:
    """A seat's hand as the photo shows it."""

    seat: object  # games.models.Seat
    reading: PhotoReading
    goes_to: object = None  # the seat a card tapped in this hand goes to (None: the next one)

    @property
    def faces(self) -> list[Card]:
        return [parse_card(card) for card in self.reading.cards]

    @property
    def checks(self) -> dict[str, str]:
        return dict(self.reading.unsure)


@dataclass(frozen=True)
class LooseCard:
    """A card lying where two hands touch: the seats it may be in, the likelier first."""

    card: str
    words: str  # "check: 6 of clubs, or 9?" where the reader doubts the card itself too
    seats: tuple

    @property
    def face(self) -> Card:
        return parse_card(self.card)


@dataclass(frozen=True)
class TablePhoto:
    """A table's hands, in the table's order from the photographer's."""

    hands: tuple[TableHand, ...]
    loose: tuple[LooseCard, ...] = ()

    @property
    def seats(self) -> list:
        return [hand.seat for hand in self.hands]

    def destination(self, hand: TableHand):
        """Where a card tapped in `hand` goes: the seat chosen for it, else the next hand round
        the table (a card read into the wrong hand is most often its neighbour's)."""
        if hand.goes_to is not None and hand.goes_to != hand.seat:
            return hand.goes_to
        at = self.hands.index(hand)
        return self.hands[(at + 1) % len(self.hands)].seat

    @property
    def moves(self) -> list[tuple[TableHand, object, list]]:
        """Each hand, where its tapped cards go, and the seats they may go to."""
        return [
            (hand, self.destination(hand), [s for s in self.seats if s != hand.seat])
            for hand in self.hands
        ]

    @property
    def empty(self) -> bool:
        """No card was found anywhere in the photo."""
        return not self.loose and not any(hand.reading.cards for hand in self.hands)

    @property
    def note(self) -> str:
        found = sum(len(hand.reading.cards) for hand in self.hands) + len(self.loose)
        first, *others = [hand.seat.player.name for hand in self.hands]
        said = f"Found {found} cards in {len(self.hands)} hands: {first}'s nearest the camera"
        if others:
            said += f", then to {first}'s left {_listed(others)}"
        said += ". Check each hand below; nothing is saved until you save."
        if self.loose:
            said += f" {_count(len(self.loose))} could be either of two hands: give each a seat."
        return said


def photographer(panels, entering_for: int | None) -> int | None:
    """The seat a table photo is first taken from: this phone's player's, or the first seat
    still to enter (the phone remembers another once chosen)."""
    if entering_for is not None:
        return entering_for
    waiting = [panel.seat.pk for panel in panels if panel.hand is None]
    return (waiting or [panel.seat.pk for panel in panels] or [None])[0]


def seats_from(seats: list, photographer) -> list:
    """The round's seats in the table's order starting from the photographer's."""
    at = seats.index(photographer)
    return seats[at:] + seats[:at]


def read_table_photo(data: bytes, seats: list, photographer, kind, rules, number) -> TablePhoto:
    """The hands of a photo of the table (its bytes), one for each of `seats` (the round's, in
    the table's order). Raises vision.PhotoError for a file that cannot be read."""
    order = seats_from(seats, photographer)
    table = vision.read_table(data, len(order), supply_of(kind, rules))
    found = [reading for hand in table.hands for reading in hand]
    doubtful = set(vision.unsure(found + [d.reading for d in table.doubtful]))
    hands = tuple(
        TableHand(seat, reading_of(group, doubtful, kind, rules, number))
        for seat, group in zip(order, table.hands, strict=True)
    )
    deck = {str(card) for card in kind.deck(rules)}
    loose = []
    for between in table.doubtful:
        card = _card(between.reading.card)
        if card in deck:
            words = vision.check_words(between.reading) if between.reading in doubtful else ""
            loose.append(LooseCard(card, words, tuple(order[h] for h in between.hands)))
    return TablePhoto(hands, tuple(loose))


def _card(label: str) -> str:
    try:
        return str(parse_card(label))
    except CardError:
        return label


# ---------------------------------------------------------------- carried by the page, moved


def carried(post, seats: list, kind, rules, number) -> TablePhoto:
    """The reading the page carries in its form (`hand-<seat>`, `check-<seat>`, `loose`), in the
    table's order from the `photographer` field's seat. Raises TableMoveError."""
    by_pk = {seat.pk: seat for seat in seats}
    photographer = by_pk.get(_number(post.get("photographer")))
    if photographer is None:
        raise TableMoveError("Say which seat the photo was taken from, and read it again.")
    deck = {str(card) for card in kind.deck(rules)}
    hands = []
    for seat in seats_from(seats, photographer):
        cards = _cards(post.get(f"hand-{seat.pk}", ""), deck)
        unsure = []
        for line in post.getlist(f"check-{seat.pk}")[:MOST_CARDS]:
            card, _, words = line.partition(" ")
            if _card(card) in cards and words.startswith("check: "):
                unsure.append((_card(card), words[:80]))
        goes_to = by_pk.get(_number(post.get(f"to-{seat.pk}")))
        reading = reading_again(cards, unsure, kind, rules, number)
        hands.append(TableHand(seat, reading, goes_to if goes_to != seat else None))
    loose = []
    for line in post.getlist("loose")[:MOST_CARDS]:
        card, _, rest = line.partition("|")
        pks, _, words = rest.partition("|")
        may_be = tuple(by_pk[pk] for pk in map(_number, pks.split(",")) if pk in by_pk)
        card = _cards(card, deck)
        if len(card) != 1 or not may_be:
            raise TableMoveError(_stale())
        loose.append(LooseCard(card[0], words[:80] if words.startswith("check: ") else "", may_be))
    return TablePhoto(tuple(hands), tuple(loose))


def moved(table: TablePhoto, move: str, kind, rules, number) -> TablePhoto:
    """The reading after one tap: `hand:<from>:<to>` gives a seat's hand to another seat (and
    that seat's to the first), `card:<from>:<card>:<to>` moves one card to another hand
    (`card:<from>:<card>`: to the hand chosen for that hand's taps), and `loose:<at>:<to>` gives
    the at-th card lying between hands to a seat."""
    what, *parts = move.split(":")
    by_pk = {hand.seat.pk: hand for hand in table.hands}
    try:
        if what == "hand" and len(parts) == 2:
            one, other = (by_pk[_number(pk)] for pk in parts)
            swapped = {one.seat.pk: other.reading, other.seat.pk: one.reading}
            hands = (replace(h, reading=swapped.get(h.seat.pk, h.reading)) for h in table.hands)
            return replace(table, hands=tuple(hands))
        if what == "card" and len(parts) == 2:
            source = by_pk[_number(parts[0])]
            parts = [*parts, table.destination(source).pk]
        if what == "card" and len(parts) == 3:
            source, target = by_pk[_number(parts[0])], by_pk[_number(parts[2])]
            card = _card(parts[1])
            if card not in source.reading.cards or source is target:
                raise TableMoveError(_stale())
            words = source.checks.get(card)
            cards = list(source.reading.cards)
            cards.remove(card)
            left = [(c, w) for c, w in source.reading.unsure if c != card or cards.count(c)]
            taken = _with(target, card, words, kind, rules, number)
            given = replace(source, reading=reading_again(cards, left, kind, rules, number))
            changed = {source.seat.pk: given, target.seat.pk: taken}
            return replace(table, hands=tuple(changed.get(h.seat.pk, h) for h in table.hands))
        if what == "loose" and len(parts) == 2:
            at, target = _number(parts[0]), by_pk[_number(parts[1])]
            if at is None or not 0 <= at < len(table.loose):
                raise TableMoveError(_stale())
            card = table.loose[at]
            taken = _with(target, card.card, card.words or None, kind, rules, number)
            hands = tuple(taken if h is target else h for h in table.hands)
            return TablePhoto(hands, table.loose[:at] + table.loose[at + 1 :])
    except KeyError:
        pass
    raise TableMoveError(_stale())


def _with(hand: TableHand, card: str, words, kind, rules, number) -> TableHand:
    unsure = list(hand.reading.unsure) + ([(card, words)] if words else [])
    cards = [*hand.reading.cards, card]
    return replace(hand, reading=reading_again(cards, unsure, kind, rules, number))


def _cards(text: str, deck: set) -> list[str]:
    cards = [_card(label) for label in text.split()]
    if len(cards) > MOST_CARDS or any(card not in deck for card in cards):
        raise TableMoveError(_stale())
    return cards


def _number(text) -> int | None:
    text = str(text or "")
    return int(text) if text.isdigit() and len(text) < 10 else None


def _stale() -> str:
    return "This reading of the table no longer fits the round: read the photo again."


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _count(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"
