"""A group's year in review: nights, games, hours at the table, the most played game, each
player's wins and the records set that year, read from the kept tales."""

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games import engine

from .kept import Kept
from .records import ORDER, RecordSet

LONGEST_NIGHT = timedelta(hours=12)  # a night's span past this is a game left open, not play


@dataclass
class YearInReview:
    year: int
    nights: int = 0
    games: int = 0
    finished: int = 0
    hours: float = 0.0
    most_played: list = field(default_factory=list)  # (GameKind, games), most first
    wins: list = field(default_factory=list)  # (player id, wins, played), most wins first
    records: list[RecordSet] = field(default_factory=list)

    @property
    def top_played(self) -> tuple[list, int]:
        """The games played most (all of them where several share the most) and how often."""
        if not self.most_played:
            return [], 0
        most = self.most_played[0][1]
        return [kind for kind, n in self.most_played if n == most], most


def _ended(tale) -> datetime:
    """When play at a game ended: when it was finished, or its hands were last played if that
    was earlier (a game reopened to correct an old round is finished again long after it was
    played); a game in play, when its last round was completed; a game with no hand played,
    when it was started."""
    if tale.played_until is None:  # no hand played: no time at the table
        return tale.started
    return min(moment for moment in (tale.finished, tale.played_until) if moment is not None)


def years(kept: Kept) -> list[int]:
    """The years the group played in, latest first."""
    return sorted({tale.date.year for tale in kept.in_order}, reverse=True)


def review(kept: Kept, year: int) -> YearInReview:
    found = YearInReview(year)
    tales = [tale for tale in kept.in_order if tale.date.year == year]
    nights: dict[int, list] = {}
    kinds: Counter = Counter()
    wins: Counter = Counter()
    played: Counter = Counter()
    for tale in tales:
        nights.setdefault(tale.night_id, []).append(tale)
        kinds[tale.kind] += 1
        if tale.finished and tale.rounds:  # one finished with no hand is no result
            found.finished += 1
            for player in tale.players:
                played[player] += 1
            for player in tale.winners:
                wins[player] += 1
    found.nights, found.games = len(nights), len(tales)
    spans = timedelta()
    for night in nights.values():
        start = min(tale.started for tale in night)
        end = max(_ended(tale) for tale in night)
        spans += min(max(end - start, timedelta()), LONGEST_NIGHT)
    found.hours = round(spans.total_seconds() / 3600, 1)
    found.most_played = [(engine.KINDS[slug], n) for slug, n in kinds.most_common()]
    found.wins = sorted(
        ((player, wins[player], n) for player, n in played.items()),
        key=lambda row: (-row[1], -row[2], row[0]),
    )
    # The last record of each kind set that year (one beaten again the same year is not listed).
    last = {}
    for record in kept.records_set:
        if record.tale.date.year == year:
            last[(record.kind, record.what)] = record
    kinds_in_order = list(engine.KINDS)  # the app's order of games, as the records page's
    found.records = sorted(
        last.values(), key=lambda r: (kinds_in_order.index(r.kind), ORDER.index(r.what))
    )
    return found
