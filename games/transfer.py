"""Export a group's history as CSV or JSON, and import the JSON back into an empty group."""

import csv
import io
from datetime import date, datetime

from django.db import transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_datetime

from games.engine import games as engine
from games.engine.cards import CardError, parse_card, parse_hand

from .models import (
    Game,
    GameNight,
    Hand,
    HandChange,
    Player,
    Round,
    Seat,
)

FORMAT = "scorekeeper"
VERSION = 1
CSV_COLUMNS = [
    "night", "game", "game_kind", "round", "dealer", "seat", "player", "outcome", "cards",
    "entered_points", "points",
]  # fmt: skip


def _nights(group, night=None):
    nights = GameNight.objects.filter(group=group).order_by("date", "created_at")
    if night is not None:
        nights = nights.filter(pk=night.pk)
    return nights.prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("created_at", "pk")),
        Prefetch("games__seats", queryset=Seat.objects.select_related("player")),
        Prefetch("games__rounds", queryset=Round.objects.order_by("number")),
        Prefetch("games__rounds__hands", queryset=Hand.objects.order_by("seat__position")),
        Prefetch("games__rounds__hands__changes", queryset=HandChange.objects.order_by("pk")),
        Prefetch(
            "games__rounds__changes",
            queryset=HandChange.objects.filter(hand=None).order_by("pk"),
            to_attr="removed_hand_changes",
        ),
    )


def _time(value):
    return value.isoformat() if value else None


def export_json(group, night=None) -> dict:
    """Everything needed to rebuild the group's history (or one night's) elsewhere."""
    nights = list(_nights(group, night))
    used = {seat.player_id for n in nights for g in n.games.all() for seat in g.seats.all()}
    players = Player.objects.filter(group=group).order_by("created_at", "pk")
    if night is not None:
        players = players.filter(pk__in=used)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "players": [
            {"name": p.name, "colour_index": p.colour_index, "created_at": _time(p.created_at)}
            for p in players
        ],
        "nights": [],
    }
    for n in nights:
        games = []
        for game in n.games.all():
            seats = list(game.seats.all())
            index = {seat.pk: i for i, seat in enumerate(seats)}
            games.append({
                "kind": game.kind,
                "rules": game.rules,
                "created_at": _time(game.created_at),
                "finished_at": _time(game.finished_at),
                "seats": [seat.player.name for seat in seats],
                "rounds": [_round(r, index) for r in game.rounds.all()],
            })  # fmt: skip
        data["nights"].append(
            {"date": n.date.isoformat(), "created_at": _time(n.created_at), "games": games}
        )
    return data


def _round(round_, index):
    data = {
        "number": round_.number,
        "dealer": index[round_.dealer_id],
        "completed_at": _time(round_.completed_at),
        "hands": [_hand(h, index) for h in round_.hands.all()],
    }
    if round_.removed_hand_changes:  # the history of hands an undo took back
        data["removed_hand_changes"] = [
            {"seat": index[c.seat_id], **_change(c)} for c in round_.removed_hand_changes
        ]
    return data


def _change(change):
    return {
        "by": change.changed_by_name,
        "at": _time(change.changed_at),
        "old_summary": change.old_summary,
        "new_summary": change.new_summary,
        "old_points": change.old_points,
        "new_points": change.new_points,
        "before": change.before,
        "after": change.after,
        "undo": change.undo,
        "undone_at": _time(change.undone_at),
    }


def _hand(hand, index):
    return {
        "seat": index[hand.seat_id],
        "outcome": hand.outcome,
        "cards": hand.cards,
        "entered_points": hand.entered_points,
        "points": hand.points,
        "melds": hand.melds,
        "all_pure": hand.all_pure,
        "version": hand.version,
        "updated_at": _time(hand.updated_at),
        "changes": [_change(c) for c in hand.changes.all()],
    }


def export_csv(group, night=None) -> str:
    """One row per hand: the night, the game, the round, the player, the cards and points."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for n in _nights(group, night):
        for game in n.games.all():
            seats = {seat.pk: seat for seat in game.seats.all()}
            for r in game.rounds.all():
                for hand in r.hands.all():
                    seat = seats[hand.seat_id]
                    writer.writerow([
                        n.date.isoformat(), game.pk, game.kind, r.number,
                        seats[r.dealer_id].player.name, seat.position + 1, seat.player.name,
                        hand.outcome, hand.cards, hand.entered_points, hand.points,
                    ])  # fmt: skip
    return out.getvalue()


class ImportProblem(Exception):
    """The file cannot be imported; `problems` says where and why."""

    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


class _Checker:
    """Reads the whole document, collecting every problem with where it is."""

    def __init__(self):
        self.problems = []

    def fail(self, where, message):
        if len(self.problems) < 20:
            self.problems.append(f"{where}: {message}")

    def need(self, data, key, kind, where, *, optional=False):
        if not isinstance(data, dict):
            self.fail(where, "should be an object")
            return None
        if key not in data:
            if not optional:
                self.fail(f"{where}.{key}", "is missing")
            return None
        value = data[key]
        if value is None and optional:
            return None
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            names = {str: "text", int: "a whole number", list: "a list", dict: "an object",
                     bool: "true or false"}  # fmt: skip
            self.fail(f"{where}.{key}", f"should be {names.get(kind, kind.__name__)}")
            return None
        return value

    def moment(self, data, key, where, optional=True):
        text = self.need(data, key, str, where, optional=optional)
        if text is None:
            return None
        value = parse_datetime(text)
        if value is None:
            self.fail(f"{where}.{key}", f"{text!r} is not a date and time")
        return value


def read_import(data) -> list:
    """Check a whole export document; return it as plain values to create, or raise
    ImportProblem naming every problem found (nothing is written)."""
    check = _Checker()
    if not isinstance(data, dict):
        raise ImportProblem(["the file should hold one JSON object (an export of this app)"])
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ImportProblem(["this is not an export of this app (format scorekeeper, version 1)"])
    players = check.need(data, "players", list, "file") or []
    names = {}
    for i, entry in enumerate(players):
        where = f"players[{i}]"
        name = check.need(entry, "name", str, where)
        if name is not None:
            if not 1 <= len(name.strip()) <= 40:
                check.fail(f"{where}.name", "should have 1 to 40 characters")
            elif name.lower() in names:
                check.fail(f"{where}.name", f"{name} is listed twice")
            else:
                names[name.lower()] = name
        check.need(entry, "colour_index", int, where, optional=True)
        check.moment(entry, "created_at", where)
    nights = check.need(data, "nights", list, "file") or []
    for i, night in enumerate(nights):
        where = f"nights[{i}]"
        text = check.need(night, "date", str, where)
        if text is not None:
            try:
                date.fromisoformat(text)
            except ValueError:
                check.fail(f"{where}.date", f"{text!r} is not a date (YYYY-MM-DD)")
        check.moment(night, "created_at", where)
        for j, game in enumerate(check.need(night, "games", list, where) or []):
            _check_game(check, game, f"{where}.games[{j}]", names)
    if check.problems:
        raise ImportProblem(check.problems)
    return data


def _check_game(check, game, where, names):
    kind = check.need(game, "kind", str, where)
    if kind is not None and kind not in engine.KINDS:
        check.fail(f"{where}.kind", f"{kind!r} is not a game of this app")
        return
    definition = engine.KINDS.get(kind)
    rules = check.need(game, "rules", dict, where)
    engine_rules = None
    if rules is not None and definition:
        try:
            engine_rules = definition.rules_from(rules)
        except CardError as error:
            check.fail(f"{where}.rules", str(error))
    check.moment(game, "created_at", where)
    check.moment(game, "finished_at", where)
    seats = check.need(game, "seats", list, where) or []
    if len(seats) < 2:
        check.fail(f"{where}.seats", "a game needs at least two players")
    for k, name in enumerate(seats):
        if not isinstance(name, str) or name.lower() not in names:
            check.fail(f"{where}.seats[{k}]", f"{name!r} is not among the file's players")
    if len({str(s).lower() for s in seats}) != len(seats):
        check.fail(f"{where}.seats", "a player sits twice")
    numbers = set()
    for k, round_ in enumerate(check.need(game, "rounds", list, where) or []):
        rwhere = f"{where}.rounds[{k}]"
        number = check.need(round_, "number", int, rwhere)
        if number is not None:
            if number < 1 or (definition and definition.rounds and number > definition.rounds):
                check.fail(f"{rwhere}.number", f"there is no round {number} in this game")
            if number in numbers:
                check.fail(f"{rwhere}.number", f"round {number} appears twice")
            numbers.add(number)
        dealer = check.need(round_, "dealer", int, rwhere)
        if dealer is not None and not 0 <= dealer < len(seats):
            check.fail(f"{rwhere}.dealer", "is not one of the game's seats")
        check.moment(round_, "completed_at", rwhere)
        taken = set()
        for m, hand in enumerate(check.need(round_, "hands", list, rwhere) or []):
            _check_hand(
                check, hand, f"{rwhere}.hands[{m}]", len(seats), taken, definition, engine_rules
            )
        removed = check.need(round_, "removed_hand_changes", list, rwhere, optional=True) or []
        for m, change in enumerate(removed):
            cwhere = f"{rwhere}.removed_hand_changes[{m}]"
            seat = check.need(change, "seat", int, cwhere)
            if seat is not None and not 0 <= seat < len(seats):
                check.fail(f"{cwhere}.seat", "is not one of the game's seats")
            _check_change(check, change, cwhere)


def _check_hand(check, hand, where, seat_count, taken, definition, rules):
    seat = check.need(hand, "seat", int, where)
    if seat is not None:
        if not 0 <= seat < seat_count:
            check.fail(f"{where}.seat", "is not one of the game's seats")
        if seat in taken:
            check.fail(f"{where}.seat", "has two hands in one round")
        taken.add(seat)
    outcome = check.need(hand, "outcome", str, where)
    if outcome is not None and outcome not in dict(Hand.OUTCOMES):
        check.fail(f"{where}.outcome", f"{outcome!r} is not a way a hand ends")
    cards = check.need(hand, "cards", str, where)
    if cards is not None:
        try:
            parsed = parse_hand(cards)
            if rules is not None:
                definition.check_cards(parsed, rules)
        except CardError as error:
            check.fail(f"{where}.cards", str(error))
    check.need(hand, "entered_points", int, where, optional=True)
    points = check.need(hand, "points", int, where)
    if points is not None and points < 0:
        check.fail(f"{where}.points", "cannot be negative")
    melds = check.need(hand, "melds", list, where)
    for meld in melds or []:
        if not isinstance(meld, list):
            check.fail(f"{where}.melds", "should be lists of cards")
            break
        try:
            for card in meld:
                parse_card(card)
        except (CardError, AttributeError):
            check.fail(f"{where}.melds", f"{meld!r} holds something that is not a card")
            break
    check.need(hand, "all_pure", bool, where)
    version = check.need(hand, "version", int, where)
    if version is not None and version < 1:
        check.fail(f"{where}.version", "should be 1 or more")
    check.moment(hand, "updated_at", where)
    for n, change in enumerate(check.need(hand, "changes", list, where) or []):
        _check_change(check, change, f"{where}.changes[{n}]")


def _check_change(check, change, cwhere):
    check.need(change, "by", str, cwhere)
    check.moment(change, "at", cwhere, optional=False)
    check.need(change, "old_summary", str, cwhere)
    check.need(change, "new_summary", str, cwhere)
    check.need(change, "old_points", int, cwhere, optional=True)
    check.need(change, "new_points", int, cwhere)
    # What an undo restores (exports from before undo existed have none).
    for key in ("before", "after"):
        state = change.get(key) if isinstance(change, dict) else None
        if state is None or state == {}:
            continue
        if not isinstance(state, dict):
            check.fail(f"{cwhere}.{key}", "should be an object")
            continue
        outcome = check.need(state, "outcome", str, f"{cwhere}.{key}")
        if outcome is not None and outcome not in dict(Hand.OUTCOMES):
            check.fail(f"{cwhere}.{key}.outcome", f"{outcome!r} is not a way a hand ends")
        cards = check.need(state, "cards", str, f"{cwhere}.{key}")
        if cards is not None:
            try:
                parse_hand(cards)
            except CardError as error:
                check.fail(f"{cwhere}.{key}.cards", str(error))
        check.need(state, "entered_points", int, f"{cwhere}.{key}", optional=True)
    if isinstance(change, dict):
        check.need(change, "undo", bool, cwhere, optional=True)
        check.moment(change, "undone_at", cwhere)


def _at(text, default=None):
    return parse_datetime(text) if text else default


@transaction.atomic
def import_json(group, data) -> dict:
    """Rebuild an export in an empty group. Checks everything first; raises ImportProblem."""
    if group.players.exists() or group.nights.exists():
        raise ImportProblem(["this group already has players or games: import into an empty one"])
    read_import(data)
    now = datetime.now().astimezone()
    created = Player.objects.bulk_create(
        Player(
            group=group,
            name=entry["name"].strip(),
            colour_index=entry.get("colour_index") or 0,
            created_at=_at(entry.get("created_at"), now),
        )
        for entry in data["players"]
    )
    players = {player.name.lower(): player for player in created}
    counts = {"nights": 0, "games": 0, "hands": 0}
    for entry in data["nights"]:
        night = GameNight.objects.create(group=group, date=date.fromisoformat(entry["date"]),
                                         created_at=_at(entry.get("created_at"), now))  # fmt: skip
        counts["nights"] += 1
        for g in entry["games"]:
            game = Game.objects.start(
                group=group, kind=g["kind"], rules=g["rules"], night=night,
                players=[players[name.lower()] for name in g["seats"]],
                created_at=_at(g.get("created_at"), now), first_round=False,
            )  # fmt: skip
            if g.get("finished_at"):
                game.finished_at = _at(g["finished_at"])
                game.save(update_fields=["finished_at"])
            counts["games"] += 1
            seats = list(game.seats.order_by("position"))
            for r in g["rounds"]:
                round_ = Round.objects.create(
                    game=game, number=r["number"], dealer=seats[r["dealer"]],
                    completed_at=_at(r.get("completed_at")),
                )  # fmt: skip
                for h in r["hands"]:
                    hand = Hand.objects.create(
                        round=round_, seat=seats[h["seat"]], outcome=h["outcome"],
                        cards=h["cards"], entered_points=h.get("entered_points"),
                        points=h["points"], melds=h["melds"], all_pure=h["all_pure"],
                        version=h["version"], updated_at=_at(h.get("updated_at"), now),
                    )  # fmt: skip
                    counts["hands"] += 1
                    HandChange.objects.bulk_create(
                        _imported_change(c, round_, hand.seat, hand) for c in h["changes"]
                    )
                HandChange.objects.bulk_create(
                    _imported_change(c, round_, seats[c["seat"]], None)
                    for c in r.get("removed_hand_changes") or []
                )
    return counts


def _imported_change(c, round_, seat, hand) -> HandChange:
    return HandChange(
        hand=hand, round=round_, seat=seat, changed_by_name=c["by"], changed_at=_at(c["at"]),
        old_summary=c["old_summary"], new_summary=c["new_summary"],
        old_points=c.get("old_points"), new_points=c["new_points"],
        before=c.get("before"), after=c.get("after"), undo=bool(c.get("undo")),
        undone_at=_at(c.get("undone_at")),
    )  # fmt: skip
