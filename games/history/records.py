"""The group's records per game kind, set as the games were played: the highest and lowest
game total, the most declarations in a night, the longest winning streak, the biggest comeback
and the best hand ever. Worked out by going through the finished games in the order they were
played, so every time a record was set is known (the year in review lists those of its year)."""

from collections import Counter, defaultdict
from dataclasses import dataclass

from games import engine

from .story import Feat, best_hand, comeback, feat_words
from .tales import Tale

HIGHEST, LOWEST, DECLARATIONS, STREAK, COMEBACK, BEST_HAND = (
    "highest",
    "lowest",
    "declarations",
    "streak",
    "comeback",
    "best_hand",
)
TITLES = {
    HIGHEST: "Highest game total",
    LOWEST: "Lowest game total",
    DECLARATIONS: "Most {tally} in a night",
    STREAK: "Longest winning streak",
    COMEBACK: "Biggest comeback",
    BEST_HAND: "Best hand ever",
}
ORDER = list(TITLES)


@dataclass(frozen=True)
class RecordSet:
    """A record as it was set: by whom, how much, in which game and round, and when."""

    kind: str
    what: str
    player: int
    value: int
    key: tuple
    tale: Tale
    round: int | None
    feat: Feat | None = None

    @property
    def title(self) -> str:
        kind = engine.KINDS[self.kind]
        tally = kind.went_out_tally.split(",")[1]
        return TITLES[self.what].format(tally=tally)

    def words(self, names: dict) -> str:
        """The record in words, the player's name first."""
        who = names.get(self.player, "?")
        kind = engine.KINDS[self.kind]
        if self.what in (HIGHEST, LOWEST):
            return f"{who}: {self.value} points"
        if self.what == DECLARATIONS:
            tally = kind.went_out_tally.split(",")[self.value != 1]
            return f"{who}: {self.value} {tally}"
        if self.what == STREAK:
            return f"{who}: {self.value} game{'s' if self.value != 1 else ''} won in a row"
        if self.what == COMEBACK:
            won = "won" if len(self.tale.winners) == 1 else "shared the win"
            return f"{who}: {won} from {self.value} points behind"
        return feat_words(self.tale, self.feat, names)


def records_set(tales: list[Tale]) -> list[RecordSet]:
    """Every record as it was set, in the order the finished games were played: a record is
    set by beating the one before it (the first to reach a value keeps it)."""
    held: dict[tuple[str, str], RecordSet] = {}
    found: list[RecordSet] = []
    streaks: Counter = Counter()  # (kind, player) -> games won in a row, alone at the top
    declared: dict[tuple, Counter] = defaultdict(Counter)  # (kind, night) -> player -> count
    last_declared: dict[tuple, int] = {}

    def offer(record: RecordSet):
        now = held.get((record.kind, record.what))
        if now is None or record.key > now.key:
            held[(record.kind, record.what)] = record
            found.append(record)

    # A game finished before any round was played holds no result to compare.
    played = (t for t in tales if t.finished and t.rounds)
    for tale in sorted(played, key=lambda t: t.order):
        kind, last = tale.kind, tale.last_round
        for _, player, points in tale.places:
            offer(RecordSet(kind, HIGHEST, player, points, (points,), tale, last))
            offer(RecordSet(kind, LOWEST, player, points, (-points,), tale, last))
        night = declared[(kind, tale.night_id)]
        for facts in tale.rounds:
            for hand in facts.hands:
                if hand.outcome == engine.WENT_OUT:
                    night[hand.player] += 1
                    last_declared[(kind, tale.night_id, hand.player)] = facts.number
        for player in tale.players:
            if night[player]:
                where = last_declared[(kind, tale.night_id, player)]
                count = night[player]
                offer(RecordSet(kind, DECLARATIONS, player, count, (count,), tale, where))
        winners = tale.winners
        for player in tale.players:
            # A shared first place is no win alone: it ends a streak as a loss does.
            won = winners == [player]
            streaks[(kind, player)] = streaks[(kind, player)] + 1 if won else 0
            run = streaks[(kind, player)]
            if run:
                offer(RecordSet(kind, STREAK, player, run, (run,), tale, last))
        back = comeback(tale)
        if back is not None:
            offer(
                RecordSet(
                    kind, COMEBACK, back.player, back.behind, (back.behind,), tale, back.round
                )
            )
        feat = best_hand(tale)
        if feat is not None:
            offer(
                RecordSet(
                    kind, BEST_HAND, feat.player, feat.points, feat.key, tale, feat.round, feat
                )
            )
    return found


def standing_records(found: list[RecordSet]) -> dict[str, list[RecordSet]]:
    """The records that stand, per game kind, in the order of `ORDER`."""
    latest: dict[tuple[str, str], RecordSet] = {}
    for record in found:
        latest[(record.kind, record.what)] = record
    by_kind: dict[str, list[RecordSet]] = {}
    for slug in engine.KINDS:
        rows = [latest[(slug, what)] for what in ORDER if (slug, what) in latest]
        if rows:
            by_kind[slug] = rows
    return by_kind
