"""A save's change, drawn for the streams from what the save holds (`lookups.round_state_saved`),
is the change drawn from the round read again from the database (`lookups.round_state`), for
every kind of viewer: first saves and saves again, a member's and a guest's, a save that moves
another hand's points (Rummy's four pure sequences), one that scores the round as a whole (Gin),
one that opens the next round and one that finishes the game."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import POINTS, WENT_OUT
from games.live.changes import _keep, draw, drawn, forget_guest_links
from games.live.streams import Holder
from games.lookups import round_state, round_state_saved
from games.models import Entry, Hand, LiveChange
from tests.helpers import save, seats
from tests.test_live_streams import HOLDER, as_guest, signed_in

pytestmark = pytest.mark.django_db

ZONE = "Europe/Paris"


class Drawings(Holder):
    """The ASGI application's holder, keeping the work a view leaves to do after its answer."""

    def __init__(self):
        super().__init__(after_answer=True)


def saved_through(client: Client, game, number, seat, **fields):
    """Save a hand as a phone does; the save the view hands to be drawn (its hand and the game
    version it made)."""
    holder = Drawings()
    token = HOLDER.set(holder)
    try:
        hand = Hand.objects.filter(round__game=game, round__number=number, seat=seat).first()
        version = hand.version if hand else 0
        answer = save(client, game, number, seat, version=version, htmx=True, **fields)
    finally:
        HOLDER.reset(token)
    assert answer.status_code == 200, answer.content[:300]
    ((_, (game_id, drawn_number, made, zone, hand)),) = holder.after
    assert (game_id, drawn_number, zone) == (game.pk, number, "")
    return hand, made


def assert_drawn_alike(hand, version, django_assert_max_num_queries):
    """The change to `version` drawn from the save's own objects (in one query) is the one
    drawn from the round read again, for each kind of viewer."""
    forget_guest_links()
    with django_assert_max_num_queries(1):
        from_save = round_state_saved(hand, version)
    assert from_save is not None
    read_again = round_state(hand.round.game_id, hand.round.number)
    assert from_save.is_last_known == read_again.is_last_known
    assert from_save.changes_count == read_again.changes_count
    drawn = draw(from_save, version, ZONE)
    assert drawn == draw(read_again, version, ZONE)
    return drawn


def test_a_table_of_three_by_members_and_guests(member, make_game, django_assert_max_num_queries):
    game = make_game(member)
    ann, bob, cid = seats(game)
    phone, guest = signed_in(member), as_guest(game)
    kinds = set()
    for client, seat, points in [
        (phone, ann, "7"),
        (guest, bob, "12"),
        (phone, ann, "9"),  # saved again
        (guest, bob, "4"),  # again, by the guest link that may undo it
    ]:
        hand, version = saved_through(client, game, 1, seat, outcome=POINTS, points=points)
        kinds |= set(assert_drawn_alike(hand, version, django_assert_max_num_queries))
    assert kinds == {f"member|{ZONE}", f"guest|{ZONE}", f"guest:{hand.guest_pass_id}|{ZONE}"}
    # Cid goes out: the round is complete and the next one opens (no longer the last known).
    hand, version = saved_through(phone, game, 1, cid, outcome=WENT_OUT)
    drawn = assert_drawn_alike(hand, version, django_assert_max_num_queries)
    assert game.rounds.filter(number=2).exists() and "Next ›" in drawn[f"member|{ZONE}"]
    hand, version = saved_through(guest, game, 2, bob, outcome=POINTS, points="3")
    assert_drawn_alike(hand, version, django_assert_max_num_queries)


def test_four_pure_sequences_move_the_other_hand(member, make_game, django_assert_max_num_queries):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"), max_count=80)
    ann, bob = seats(game)
    phone = signed_in(member)
    counted = "5H 6H 7H 8C 8D 8S 2C 4D 9S JC QD KH AS"
    hand, version = saved_through(phone, game, 1, bob, cards=counted)
    assert_drawn_alike(hand, version, django_assert_max_num_queries)
    pure = "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"
    hand, version = saved_through(phone, game, 1, ann, cards=pure, outcome=WENT_OUT)
    assert Hand.objects.get(seat=bob).moved_in_version == version  # Bob's count doubled
    drawn = assert_drawn_alike(hand, version, django_assert_max_num_queries)
    assert f'id="hand-line-{bob.pk}"' in drawn[f"member|{ZONE}"]


def test_gin_scores_both_hands_together(member, make_game, django_assert_max_num_queries):
    game = make_game(member, kind="gin", names=("Ann", "Bob"))
    ann, bob = seats(game)
    phone, guest = signed_in(member), as_guest(game)
    knock = "5H 6H 7H JS JD JC 2C 3C 4C AS"
    hand, version = saved_through(phone, game, 1, ann, cards=knock, outcome=WENT_OUT)
    assert_drawn_alike(hand, version, django_assert_max_num_queries)
    hand, version = saved_through(guest, game, 1, bob, cards="3H 4H 8H 9H KS QS KD 2D 9S 7C")
    assert_drawn_alike(hand, version, django_assert_max_num_queries)


def test_the_save_that_finishes_the_game(member, make_game, django_assert_max_num_queries):
    game = make_game(member, kind="five-crowns", names=("Ann", "Bob"))
    ann, bob = seats(game)
    for number in range(1, 11):
        round_ = game.rounds.get(number=number)
        round_.save_hand(ann, Entry(WENT_OUT), member)
        round_.save_hand(bob, Entry(POINTS, "", number), member)
    phone = signed_in(member)
    hand, version = saved_through(phone, game, 11, ann, outcome=WENT_OUT)
    assert_drawn_alike(hand, version, django_assert_max_num_queries)
    hand, version = saved_through(phone, game, 11, bob, outcome=POINTS, points="5")
    game.refresh_from_db()
    assert game.finished_at is not None
    drawn = assert_drawn_alike(hand, version, django_assert_max_num_queries)
    assert "This game is finished" in drawn[f"member|{ZONE}"]
    assert "Undo" not in drawn[f"member|{ZONE}"]


def test_a_later_change_is_not_drawn_from_an_earlier_save(member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    phone = signed_in(member)
    hand, version = saved_through(phone, game, 1, ann, outcome=POINTS, points="7")
    saved_through(phone, game, 1, bob, outcome=POINTS, points="8")
    assert round_state_saved(hand, version) is None


def test_a_change_drawn_again_replaces_the_one_kept(member, make_game):
    game = make_game(member)
    _keep(game.pk, 7, 1, {f"member|{ZONE}": "<p>first</p>"})
    _keep(game.pk, 7, 2, {f"member|{ZONE}": "<p>again</p>", "guest": "<p>ü</p>"})
    _keep(game.pk, 8, 2, {})
    assert drawn(game.pk, 7) == (2, {f"member|{ZONE}": "<p>again</p>", "guest": "<p>ü</p>"})
    assert drawn(game.pk, 8) == (2, {})
    assert drawn(game.pk, 9) is None
    kept = LiveChange.objects.get(game=game, version=7)
    assert abs(kept.made_at - timezone.now()) < timedelta(minutes=1)
