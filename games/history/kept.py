"""What the look-back works out once and keeps: a group's tales, records and ratings, kept in
this server process and made stale in one place, `Kept.key`.

The key is read in one query on every look: each game's id, version, night and date. Every
change that can alter a story, a record or a rating changes it: a hand saved, undone or
corrected counts a new version of its game (`Game.changed`), finishing and reopening too, an
import adds games, a night's new date is in it. Only the games whose row changed are told
again; the records and ratings are worked out again from the tales on first use."""

from dataclasses import dataclass
from functools import cached_property

from ..models import Game
from ..recent import Recent
from . import ratings, records
from .tales import Tale, tales_of

GROUPS_KEPT = 32  # the groups one process keeps, most recently looked at
_KEPT = Recent(GROUPS_KEPT)  # group id -> Kept
RETELL_BY_ID = 400  # more games changed than this: tell the whole group again


@dataclass
class Kept:
    """A group's games told, and what follows from them; only read once made."""

    key: tuple
    tales: dict[int, Tale]

    @cached_property
    def in_order(self) -> list[Tale]:
        return sorted(self.tales.values(), key=lambda tale: tale.order)

    @cached_property
    def records_set(self) -> list[records.RecordSet]:
        return records.records_set(self.in_order)

    @cached_property
    def records(self) -> dict[str, list[records.RecordSet]]:
        return records.standing_records(self.records_set)

    @cached_property
    def ratings(self) -> dict[str, dict[int, list[ratings.Rated]]]:
        return ratings.rate(self.in_order)


def _key(group_id: int) -> tuple:
    rows = Game.objects.filter(group_id=group_id).order_by("pk")
    return tuple(rows.values_list("pk", "version", "night_id", "night__date", "created_at"))


def kept(group_id: int) -> Kept:
    """The group's look-back as its data is now: kept, or told again where it changed."""
    key = _key(group_id)
    old = _KEPT.get(group_id)
    if old is not None and old.key == key:
        return old
    same = set(old.key) & set(key) if old is not None else set()
    tales = {row[0]: old.tales[row[0]] for row in same}
    changed = [row[0] for row in key if row not in same]
    if len(changed) > RETELL_BY_ID:
        tales = tales_of(Game.objects.filter(group_id=group_id))
    elif changed:
        tales |= tales_of(Game.objects.filter(pk__in=changed))
    fresh = Kept(key, tales)
    _KEPT.put(group_id, fresh)
    return fresh


def forget() -> None:
    """Forget every group kept (a database put back from a backup repeats ids and versions)."""
    _KEPT.clear()
