"""The writes every save makes in plain SQL for speed (`games.plain.save` and `update`: its hand,
its change, the game's version, the round's result and completion) store exactly what the ORM's
`save()`, `objects.create()` and `update()` store: the same row, read back alike (JSON, aware
dates and times, empty foreign keys), on SQLite and PostgreSQL alike."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import plain
from games.models import Game, Hand, HandChange, Round, Saver
from tests.helpers import save, seats
from tests.test_plain_reads import values
from tests.test_views_reasons import NO_PURE

pytestmark = pytest.mark.django_db


@pytest.fixture
def rummy(member, make_game, signed_in):
    game = make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam"))
    save(signed_in, game, 1, seats(game)[1], NO_PURE)
    return game


def read_back(obj):
    return values(type(obj).objects.get(pk=obj.pk))


def test_an_update_of_every_column_stores_what_the_orms_save_stores(rummy, member):
    hand = Hand.objects.get(round__game=rummy)
    hand.write(
        {"outcome": "went_out", "cards": "7H 8H 9H", "entered_points": None}, Saver.of(member)
    )
    hand.melds, hand.points, hand.extra = [["7H", "8H", "9H"]], 0, {"upcard": "7S"}
    plain.save(hand)
    stored = read_back(hand)
    assert stored == values(hand)
    hand.updated_at += timedelta(seconds=1)
    hand.save()  # the ORM's own, for comparison
    assert read_back(hand) == values(hand) == stored | {"updated_at": hand.updated_at}
    assert isinstance(stored["melds"], list) and stored["updated_at"].tzinfo is not None


def test_an_insert_stores_what_objects_create_stores_and_sets_the_new_key(rummy, member):
    hand = Hand.objects.get(round__game=rummy)
    fields = dict(
        round_id=hand.round_id,
        seat_id=hand.seat_id,
        changed_by=member,
        changed_by_name="ann",
        old_summary="",
        new_summary="Counted: 7H",
        new_points=7,
        before={},
        after={"outcome": "cards", "cards": "7H", "entered_points": None},
        game_version=9,
        save_key="k-1",
    )
    change = HandChange(**fields)
    plain.save(change)
    assert change.pk is not None and not change._state.adding
    orm = HandChange.objects.create(**fields | {"changed_at": change.changed_at})
    ours, theirs = read_back(change), read_back(orm)
    assert ours.pop("id") != theirs.pop("id")
    expected = values(change)
    del expected["id"]
    assert ours == theirs == expected
    assert ours["old_points"] is None and ours["guest_pass_id"] is None


def test_a_row_gone_meanwhile_is_inserted_again_with_its_key(rummy):
    hand = Hand.objects.get(round__game=rummy)
    kept = values(hand)
    Hand.objects.filter(pk=hand.pk).delete()
    plain.save(hand)
    assert read_back(hand) == kept


def test_an_update_of_some_columns_is_the_orms_update(rummy):
    round_ = Round.objects.get(game=rummy, number=1)
    now = timezone.now()
    plain.update(Round, round_.pk, completed_at=now, result="declared")
    assert Round.objects.get(pk=round_.pk).completed_at == now
    assert Round.objects.get(pk=round_.pk).result == "declared"
    version = Game.objects.get(pk=rummy.pk).version
    plain.update(Game, rummy.pk, version=version + 1)
    assert Game.objects.get(pk=rummy.pk).version == version + 1
    plain.update(Round, round_.pk, completed_at=None)
    assert Round.objects.get(pk=round_.pk).completed_at is None


def test_a_save_records_its_change_as_the_history_reads_it(rummy, signed_in):
    game = Game.objects.get(pk=rummy.pk)
    before = game.version
    sam = seats(game)[2]
    save(signed_in, game, 1, sam, NO_PURE)
    change = HandChange.objects.filter(seat=sam).get()
    hand = Hand.objects.get(seat=sam)
    assert change.game_version == before + 1 == Game.objects.get(pk=game.pk).version
    assert (change.new_summary, change.new_points) == (hand.summary, hand.points)
    assert change.after == hand.entry_state and change.before == {}
    assert change.changed_by_name == "ann" and change.changed_at.tzinfo is not None
