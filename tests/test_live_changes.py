"""A save's change, drawn for the streams from what the save holds (`lookups.round_state_saved`),
is the change drawn from the round read again from the database (`lookups.round_state`), for
every kind of viewer: first saves and saves again, a member's and a guest's, a save that moves
another hand's points (Rummy's four pure sequences), one that scores the round as a whole (Gin),
one that opens the next round and one that finishes the game."""

from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import POINTS, WENT_OUT
from games.live.changes import _keep, draw, drawn, forget_guest_links, mark_followed
from games.lookups import round_state, round_state_saved
from games.models import Entry, Game, Hand, LiveChange
from games.views import rounds
from tests.helpers import save, seats
from tests.test_live_streams import as_guest, signed_in

pytestmark = pytest.mark.django_db

ZONE = "Europe/Paris"


def saved_through(client: Client, game, number, seat, **fields):
    """Save a hand as a phone does; the save as the view hands it to be drawn inside its
    transaction (its hand and the game version it made)."""
    handed = []
    drawing = rounds.drawing_save

    def watched(request):
        within = drawing(request)

        def draw_it(hand):
            handed.append((hand, hand.round.game.version, getattr(request, "time_zone", "")))
            within(hand)

        return draw_it

    hand = Hand.objects.filter(round__game=game, round__number=number, seat=seat).first()
    version = hand.version if hand else 0
    with mock.patch.object(rounds, "drawing_save", watched):
        answer = save(client, game, number, seat, version=version, htmx=True, **fields)
    assert answer.status_code == 200, answer.content[:300]
    ((hand, made, zone),) = handed
    assert zone == ""
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


def test_a_save_draws_its_change_only_while_a_round_page_follows_the_game(member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    phone = signed_in(member)
    _, version = saved_through(phone, game, 1, ann, outcome=POINTS, points="7")
    assert drawn(game.pk, version) is None  # no stream follows it: nothing drawn, nothing kept
    mark_followed([game.pk])  # a round page's stream, on any worker, follows it
    _, version = saved_through(phone, game, 1, bob, outcome=POINTS, points="8")
    number, parts = drawn(game.pk, version)  # committed with the save itself
    assert number == 1 and "Bob" in parts["member|"]
    Game.objects.filter(pk=game.pk).update(followed_until=timezone.now() - timedelta(seconds=1))
    _, version = saved_through(phone, game, 1, ann, outcome=POINTS, points="9")
    assert drawn(game.pk, version) is None  # its mark ran out: the streams went


def test_an_undo_draws_its_change_in_its_own_transaction(member, make_game):
    game = make_game(member)
    ann, _, _ = seats(game)
    phone = signed_in(member)
    saved_through(phone, game, 1, ann, outcome=POINTS, points="7")
    mark_followed([game.pk])
    change = game.rounds.get(number=1).last_save()
    answer = phone.post(f"/games/{game.pk}/rounds/1/undo/", {"change": change.pk})
    assert answer.status_code == 302
    game.refresh_from_db()
    number, parts = drawn(game.pk, game.version)
    assert number == 1 and "Ann" in parts["member|"]


def test_a_drawing_that_fails_leaves_the_save_to_stand(member, make_game, caplog):
    game = make_game(member)
    ann, _, _ = seats(game)
    mark_followed([game.pk])
    with mock.patch("games.live.changes.draw", side_effect=ValueError("a template broke")):
        hand, version = saved_through(signed_in(member), game, 1, ann, outcome=POINTS, points="7")
    assert Hand.objects.get(pk=hand.pk).points == 7 and drawn(game.pk, version) is None
    assert "drawing the change" in caplog.text


def test_a_change_is_drawn_for_guests_only_while_a_guests_page_follows(member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    phone = signed_in(member)
    as_guest(game)  # the game has a guest link: its phones would see their own change
    forget_guest_links()
    mark_followed([game.pk])  # members' round pages follow it, no guest's
    _, version = saved_through(phone, game, 1, ann, outcome=POINTS, points="7")
    assert set(drawn(game.pk, version)[1]) == {"member|"}  # drawn once, not for guests too
    mark_followed([game.pk], by_guests=[game.pk])  # a guest's round page follows it too
    _, version = saved_through(phone, game, 1, bob, outcome=POINTS, points="8")
    assert set(drawn(game.pk, version)[1]) == {"member|", "guest|"}
    Game.objects.filter(pk=game.pk).update(
        guests_followed_until=timezone.now() - timedelta(seconds=1)
    )
    _, version = saved_through(phone, game, 1, ann, outcome=POINTS, points="9")
    assert set(drawn(game.pk, version)[1]) == {"member|"}  # the guest's mark ran out
