"""A round's change, drawn once and carried by the streams.

Where a save or an undo is made, inside its transaction, the parts of the round page it changed
(the round's summary and the lines of the hands saved since the version before) are drawn once
for each kind of viewer and kept (`LiveChange`, the last minute of each game), so that they
commit with the version they show: one transaction, and no worker sees the version without them.
Only while a round page's stream follows the game, on any worker of any server: each hub marks
the games its round pages' streams follow (`Game.followed_until`, read with the round's lock).
Every worker's hub, told of the new version, reads them in one query and sends them on each
stream showing that round at the version before (`event: change`): the phone swaps them in
without asking. A phone at another version, on
another page, or of a kind of viewer not drawn for, is told the version and asks, as before.

What a change looks like depends on who looks, and on nothing else of the phone: a guest sees a
member's save as "a member's", the undo button shows only to those who may undo, times are in
the group's time zone (else the saving phone's: phones at one table share one). The forms' CSRF
token is each phone's own, put in by its stream (`CSRF_MARK`).
"""

import logging
import time
import zoneinfo
from dataclasses import dataclass
from datetime import timedelta
from functools import cache, partial

from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, connection
from django.template.loader import render_to_string
from django.utils import timezone

from .. import plain
from ..access import TableAccess, TableRequest
from ..lookups import RoundState, round_changes, round_state, round_state_saved
from ..models import Game, GuestPass, Hand, LiveChange
from .streams import GUEST, MEMBER, key

KEEP = timedelta(minutes=1)  # how long a drawn change is kept
PRUNE_EVERY = 16  # versions of a game between two prunings of the kept changes
LINKS_FOR = 10  # seconds a night's guest links, as read, are taken as they are
_LINKS: dict[int, tuple[float, list[tuple[int]]]] = {}  # by night: when read, what
# Stands for the CSRF token in a drawn change; each stream puts in its phone's own.
CSRF_MARK = "live-csrf-token-of-the-phone"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Guest:
    pass_id: int
    name: str = ""


@dataclass(frozen=True)
class _Looker:
    """The template's `request` as a change's readers (`saver`, `undoable_by`) see it."""

    as_guest: bool
    guest: _Guest | None
    user: AnonymousUser


FOLLOWED_FOR = timedelta(seconds=60)  # a hub's mark that it follows a game lasts this long


def drawing_save(request: TableRequest):
    """What a save does inside its transaction (`Round.save_hand(within=...)`): draw its
    change and keep it with the save, where a round page's stream follows the game."""
    zone = getattr(request, "time_zone", "")

    def within(saved: Hand) -> None:
        version, kept = saved.round.game.version, {}
        read = partial(round_state_saved, saved, version)
        _draw_and_keep(saved.round, version, zone, read, kept)
        # The hand's line and cards as drawn for members: the saving phone's answer shows them
        # (`views.rounds.hand_entry`), as a guest's would (a guest's save is named alike).
        saved.as_drawn = kept.get(saved.seat_id)

    return within


def drawing_undo(request: TableRequest):
    """What an undo does inside its transaction (`Round.undo_last(within=...)`): the same."""
    zone = getattr(request, "time_zone", "")

    def within(round_) -> None:
        read = partial(round_state, round_.game_id, round_.number)
        _draw_and_keep(round_, round_.game.version, zone, read)

    return within


def followed(game: Game) -> bool:
    """A round page's stream follows the game on some worker of some server (as its hub marked
    it, `mark_followed`)."""
    return _not_yet(game.followed_until)


def guests_follow(game: Game) -> bool:
    """A guest's round page follows the game (as its hub marked it, `mark_followed`)."""
    return _not_yet(game.guests_followed_until)


def _not_yet(until) -> bool:
    return until is not None and until > timezone.now()


def drawn_lately(followed_until) -> bool:
    """A change of a game followed until `followed_until` may still be kept as drawn: the game
    was followed within KEEP (a change drawn while it was is kept KEEP after)."""
    return followed_until is not None and followed_until >= timezone.now() - KEEP


def mark_followed(game_ids: list[int], by_guests: list[int] = ()) -> None:
    """Round pages' streams of these games are held here (`by_guests`: of these, guests'
    too): their saves draw their changes for FOLLOWED_FOR from now, for guests only where
    guests follow (a hub marks them again before that while they stay)."""
    until, guests = timezone.now() + FOLLOWED_FOR, set(by_guests)
    if guests:
        Game.objects.filter(pk__in=guests).update(followed_until=until, guests_followed_until=until)
    others = [pk for pk in game_ids if pk not in guests]
    if others:
        Game.objects.filter(pk__in=others).update(followed_until=until)


def _draw_and_keep(round_, version: int, zone: str, read, kept: dict | None = None) -> None:
    """Inside the transaction of the change to `version`: draw what it shows on the round's
    page and keep it, so that it commits (and is seen by every worker) with the version itself;
    nothing where no stream follows the game. A drawing that fails leaves the change to stand
    (the phones ask for it); the database failing fails the change, as it would anyway. Each
    hand's line and cards as drawn for members go into `kept` (by seat), if given."""
    if not followed(round_.game):
        return

    def drawing():
        with timezone.override(zoneinfo.ZoneInfo(zone) if zone else None):
            state = read()
            if state is None:
                return None
            return draw(state, version, zone, guests_follow(round_.game), kept)

    parts = _drawn_or_none(round_.game_id, version, drawing)
    if parts is None:
        return
    _keep(round_.game_id, version, round_.number, parts)
    if version % PRUNE_EVERY == 0:
        # Changes older than KEEP: no stream carries them (a phone that far behind asks).
        LiveChange.objects.filter(made_at__lt=timezone.now() - KEEP).delete()


def _drawn_or_none(game_id: int, version: int, drawing) -> dict[str, str] | None:
    """`drawing()`, the parts of the change to `version`; None where drawing it failed (logged:
    the phones ask for the change instead), the database's failing raised."""
    try:
        return drawing()
    except DatabaseError:
        raise
    except Exception:
        log.exception("live: drawing the change to %s v%s failed", game_id, version)
        return None


def _keep(game_id: int, version: int, number: int, parts: dict, asked: bool = False) -> None:
    """Keep the change drawn to `version`: one plain statement, as the ORM's
    `bulk_create(update_conflicts=...)` would send it, without its compiling. A save's drawing
    replaces one kept before; one drawn for a phone that `asked` is kept only while the game
    is still at `version`, and never replaces one."""
    fields = {name: LiveChange._meta.get_field(name) for name in ("parts", "made_at")}
    values = [
        game_id,
        version,
        number,
        fields["parts"].get_db_prep_save(parts, connection),
        fields["made_at"].get_db_prep_save(timezone.now(), connection),
    ]
    with connection.cursor() as cursor:
        if asked:
            cursor.execute(_keep_sql(connection.vendor, True), [*values, game_id, version])
        else:
            cursor.execute(_keep_sql(connection.vendor), values)


def keep_asked(
    state: RoundState, version: int, zone: str, for_guest: bool = False
) -> dict[str, str] | None:
    """A change that no save drew, asked for by a phone one version behind on a round page
    that a stream follows (the save came before any did, or its drawing failed): drawn once
    as the save would have drawn it, and kept for every other phone and worker that asks the
    same, unless the game has moved on meanwhile (then not kept: `state` may show a later
    version) or a drawing is kept already. Drawn for guests where guests follow the game or a
    guest asks (`for_guest`). Its parts, or None where it could not be drawn; a database that
    will not keep them leaves the phone its answer all the same (a poll never fails for it)."""
    game = state.round.game
    guests = for_guest or guests_follow(game)
    parts = _drawn_or_none(game.pk, version, lambda: draw(state, version, zone, guests))
    if parts is None:
        return None
    try:
        _keep(game.pk, version, state.round.number, parts, asked=True)
    except DatabaseError:  # not kept (a full disk, a lock waited out): still this phone's answer
        log.warning("live: keeping the change to %s v%s asked for failed", game.pk, version)
    return parts


@cache
def _keep_sql(vendor: str, asked: bool = False) -> str:
    c, g = LiveChange, Game
    names = ("game", "version", "round_number", "parts", "made_at")
    columns = ", ".join(plain.col(c, name) for name in names)
    conflict = f"ON CONFLICT ({plain.col(c, 'game')}, {plain.col(c, 'version')}) "
    if asked:
        return (
            f"INSERT INTO {plain.table(c)} ({columns}) SELECT %s, %s, %s, %s, %s "
            f"WHERE EXISTS (SELECT 1 FROM {plain.table(g)} WHERE {plain.col(g, 'id')} = %s "
            f"AND {plain.col(g, 'version')} = %s) {conflict}DO NOTHING"
        )
    return (
        f"INSERT INTO {plain.table(c)} ({columns}) VALUES (%s, %s, %s, %s, %s) {conflict}"
        f"DO UPDATE SET {plain.col(c, 'round_number')} = EXCLUDED.{plain.col(c, 'round_number')}, "
        f"{plain.col(c, 'parts')} = EXCLUDED.{plain.col(c, 'parts')}"
    )


def draw(
    state: RoundState, version: int, zone: str, guests: bool = True, kept: dict | None = None
) -> dict[str, str]:
    """The parts of the round page that the change to `version` changed, as the round `state`
    after it shows them to each kind of viewer, by `streams.key` (to guests only if `guests`:
    where no guest's page follows the game, a guest who asks is drawn its change then). Each
    changed hand's line and cards as members see them go into `kept` (by seat), if given."""
    context = round_changes(state, version - 1)
    kinds = [(MEMBER, _Looker(False, None, AnonymousUser()))]
    links = _guest_links(state.round.game.night_id) if guests else []
    last = state.last_save
    undoing = last.guest_pass_id if last is not None and guests else None
    if undoing is not None:  # the link that saved it may undo it
        kinds.append((f"{GUEST}:{undoing}", _Looker(True, _Guest(undoing), AnonymousUser())))
    if any(pk != undoing for (pk,) in links):
        # Any other link: pk 0 is none, so it may not undo that save.
        kinds.append((GUEST, _Looker(True, _Guest(0), AnonymousUser())))
    parts = {}
    for name, looker in kinds:
        may = TableAccess(not looker.as_guest, None)
        shown = context | {"request": looker, "may": may, "csrf_token": CSRF_MARK}
        if name == MEMBER and kept is not None:
            shown["kept"] = kept  # filled by the template's {% kept %}
        parts[key(name, zone)] = render_to_string("games/round.html#live-change", shown)
    return parts


def _guest_links(night_id: int) -> list[tuple[int]]:
    """The guest links that may look at a game of the night (two tell whether there are
    others than the last save's), as read in this process within LINKS_FOR. A link made since
    finds no change drawn for it for that long: its phone asks, as without this."""
    now = time.monotonic()
    read = _LINKS.get(night_id)
    if read is None or now - read[0] > LINKS_FOR:
        links = plain.fetch_all(_links_sql(connection.vendor), [night_id])
        read = _LINKS[night_id] = (now, links)
        if len(_LINKS) > 1000:
            _LINKS.clear()
    return read[1]


@cache
def _links_sql(vendor: str) -> str:
    """Two guest links of a night's games (whether there are any, and others than one)."""
    p, g = GuestPass, Game
    return (
        f"SELECT p.{plain.col(p, 'id')} FROM {plain.table(p)} p "
        f"JOIN {plain.table(g)} g ON g.{plain.col(g, 'id')} = p.{plain.col(p, 'game')} "
        f"WHERE g.{plain.col(g, 'night')} = %s LIMIT 2"
    )


def forget_guest_links() -> None:
    """Forget the guest links read (a database put back, or emptied between tests)."""
    _LINKS.clear()


def part_for(parts: dict, looks: str, zone: str, csrf: str) -> str | None:
    """What a drawn change shows a phone (`looks`: games.live.streams.looks) in its time zone,
    with its own CSRF token: a guest falls back to the part drawn for every guest; None when
    none was drawn for it."""
    part = parts.get(key(looks, zone))
    if part is None and looks.startswith(GUEST):
        part = parts.get(key(GUEST, zone))
    return None if part is None else part.replace(CSRF_MARK, csrf)


def drawn(game_id: int, version: int) -> tuple[int, dict] | None:
    """The change to `version` as drawn: its round and its parts, or None (not drawn, or not
    yet): a phone one version behind that asks anyway (games.views.live)."""
    return drawn_between(game_id, version, version).get(version)


def drawn_between(game_id: int, first: int, last: int) -> dict[int, tuple[int, dict]]:
    """The changes to versions `first` to `last` as drawn, by version: their rounds and parts
    (those not drawn are missing). One plain statement (the hub's, for every change)."""
    found = plain.fetch_all(_between_sql(connection.vendor), [game_id, first, last])
    return {
        version: (number, plain.value(LiveChange, "parts", parts))
        for version, number, parts in found
    }


@cache
def _between_sql(vendor: str) -> str:
    c = LiveChange
    return (
        f"SELECT {plain.col(c, 'version')}, {plain.col(c, 'round_number')}, "
        f"{plain.col(c, 'parts')} FROM {plain.table(c)} WHERE {plain.col(c, 'game')} = %s "
        f"AND {plain.col(c, 'version')} BETWEEN %s AND %s"
    )
