"""Export a group's history as CSV or JSON, and import the JSON back into an empty group."""

import csv
import io
from datetime import datetime

from django.db import transaction
from django.db.models import Prefetch

from .import_schema import ImportProblem, read_export
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
    "night",
    "game",
    "game_kind",
    "round",
    "dealer",
    "seat",
    "player",
    "outcome",
    "cards",
    "entered_points",
    "points",
]


def _nights(group, night=None):
    nights = GameNight.objects.filter(group=group).order_by("date", "created_at")
    if night is not None:
        nights = nights.filter(pk=night.pk)
    return nights.prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("created_at", "pk")),
        Prefetch("games__seats", queryset=Seat.objects.select_related("player")),
        Prefetch("games__rounds", queryset=Round.objects.order_by("number")),
        Prefetch("games__rounds__hands", queryset=Hand.objects.order_by("seat__position")),
        Prefetch("games__rounds__changes", queryset=HandChange.objects.order_by("pk")),
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
            games.append(
                {
                    "kind": game.kind,
                    "rules": game.rules,
                    "created_at": _time(game.created_at),
                    "finished_at": _time(game.finished_at),
                    "seats": [seat.player.name for seat in seats],
                    "rounds": [_round(r, index) for r in game.rounds.all()],
                }
            )
        data["nights"].append(
            {"date": n.date.isoformat(), "created_at": _time(n.created_at), "games": games}
        )
    return data


def _round(round_, index):
    changes: dict[int, list] = {}
    for change in round_.changes.all():
        changes.setdefault(change.seat_id, []).append(change)
    hands = list(round_.hands.all())
    data = {
        "number": round_.number,
        "dealer": index[round_.dealer_id],
        "completed_at": _time(round_.completed_at),
        "result": round_.result,
        "hands": [_hand(h, index, changes.pop(h.seat_id, [])) for h in hands],
    }
    removed = sorted((c for seat in changes.values() for c in seat), key=lambda c: c.pk)
    if removed:  # the history of hands an undo took back
        data["removed_hand_changes"] = [{"seat": index[c.seat_id], **_change(c)} for c in removed]
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


def _hand(hand, index, changes):
    return {
        "seat": index[hand.seat_id],
        "outcome": hand.outcome,
        "cards": hand.cards,
        "entered_points": hand.entered_points,
        "extra": hand.extra,
        "points": hand.points,
        "melds": hand.melds,
        "all_pure": hand.all_pure,
        "version": hand.version,
        "updated_at": _time(hand.updated_at),
        "changes": [_change(c) for c in changes],
    }


# A spreadsheet reads a cell that begins with one of these as a formula (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as written: numbers stay numbers, and text that would be
    read as a formula gets a leading apostrophe, which spreadsheets show as text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _SpreadsheetWriter:
    """csv.writer whose text cells are made safe to open in a spreadsheet."""

    def __init__(self, out):
        self._writer = csv.writer(out)

    def writerow(self, row):
        self._writer.writerow([spreadsheet_cell(value) for value in row])


def export_csv(group, night=None) -> str:
    """One row per hand: the night, the game, the round, the player, the cards and points."""
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    writer.writerow(CSV_COLUMNS)
    for n in _nights(group, night):
        for game in n.games.all():
            seats = {seat.pk: seat for seat in game.seats.all()}
            for r in game.rounds.all():
                for hand in r.hands.all():
                    seat = seats[hand.seat_id]
                    writer.writerow(
                        [
                            n.date.isoformat(),
                            game.pk,
                            game.kind,
                            r.number,
                            seats[r.dealer_id].player.name,
                            seat.position + 1,
                            seat.player.name,
                            hand.outcome,
                            hand.cards,
                            hand.entered_points,
                            hand.points,
                        ]
                    )
    return out.getvalue()


@transaction.atomic
def import_json(group, raw: bytes) -> dict:
    """Rebuild an export in an empty group, whole or not at all: the file is read through the
    schema first (ImportProblem names the first problems and where), then written in one
    transaction."""
    if group.players.exists() or group.nights.exists():
        raise ImportProblem(["this group already has players or games: import into an empty one"])
    export = read_export(raw)
    now = datetime.now().astimezone()
    created = Player.objects.bulk_create(
        Player(
            group=group,
            name=entry.name,
            colour_index=entry.colour_index or 0,
            created_at=entry.created_at or now,
        )
        for entry in export.players
    )
    players = {player.name.lower(): player for player in created}
    counts = {"nights": 0, "games": 0, "hands": 0}
    for entry in export.nights:
        night = GameNight.objects.create(
            group=group, date=entry.date, created_at=entry.created_at or now
        )
        counts["nights"] += 1
        for g in entry.games:
            game = Game.objects.start(
                group=group,
                kind=g.kind,
                rules=g.rules,
                night=night,
                players=[players[name.lower()] for name in g.seats],
                created_at=g.created_at or now,
                first_round=False,
            )
            if g.finished_at:
                game.finished_at = g.finished_at
                game.save(update_fields=["finished_at"])
            counts["games"] += 1
            seats = list(game.seats.order_by("position"))
            for r in g.rounds:
                round_ = Round.objects.create(
                    game=game,
                    number=r.number,
                    dealer=seats[r.dealer],
                    completed_at=r.completed_at,
                    result=r.result,
                )
                # A round's hands in one insert, then all of its changes in another.
                hands = Hand.objects.bulk_create(
                    Hand(
                        round=round_,
                        seat=seats[h.seat],
                        outcome=h.outcome,
                        cards=h.cards,
                        entered_points=h.entered_points,
                        extra=dict(h.extra),
                        points=h.points,
                        melds=[list(meld) for meld in h.melds],
                        all_pure=h.all_pure,
                        version=h.version,
                        updated_at=h.updated_at or now,
                    )
                    for h in r.hands
                )
                counts["hands"] += len(hands)
                HandChange.objects.bulk_create(
                    [
                        _imported_change(c, round_, hand.seat)
                        for h, hand in zip(r.hands, hands, strict=True)
                        for c in h.changes
                    ]
                    + [_imported_change(c, round_, seats[c.seat]) for c in r.removed_hand_changes]
                )
    return counts


def _imported_change(c, round_, seat) -> HandChange:
    return HandChange(
        round=round_,
        seat=seat,
        changed_by_name=c.by,
        changed_at=c.at,
        old_summary=c.old_summary,
        new_summary=c.new_summary,
        old_points=c.old_points,
        new_points=c.new_points,
        before=c.before or {},
        after=c.after or {},
        undo=c.undo,
        undone_at=c.undone_at,
    )
