"""Every phone at the table saves at the same instant: threads on real connections (a file
SQLite database, or PostgreSQL in CI) race through the views. No exception escapes a view,
each race has exactly one winner, and the stored rounds and totals are those of the same saves
made one after another."""

import threading
from itertools import combinations, islice

import pytest
from django.db import connections
from django.test import Client

from games.models import Game, Hand, HandChange, NightLink
from tests.helpers import hand_url, status_of

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def race(calls):
    """Run every call at once, each on its own thread and connection; (status or exception)."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index):
        try:
            barrier.wait(timeout=10)
            results[index] = calls[index]()
        except BaseException as error:  # noqa: BLE001 - the test reports what escaped
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def phones(user, count):
    clients = []
    for _ in range(count):
        client = Client(raise_request_exception=True)
        client.force_login(user)
        clients.append(client)
    return clients


def saver(client, game, number, seat, cards="", outcome="cards", version=0, points=""):
    data = {"outcome": outcome, "cards": cards, "points": points, "save": "1", "version": version}
    return lambda: status_of(client.post(hand_url(game, number, seat), data, **HTMX))


def statuses(results):
    for result in results:
        assert isinstance(result, int), f"an exception escaped a view: {result!r}"
    return sorted(results)


FIRST_HANDS = [
    "KS QD 2C",
    "KC QH AD",
    "9S 9D 2D",
    "4C 8H JD",
    "5S 7C QS",
    "3D 6S 10H",
    "AS 4D 8C",
    "2H 6C JS",
    "10C KD 7H",
    "JH 3C 7H",
]


@pytest.mark.parametrize("count", [2, 10])
def test_phones_saving_the_same_new_hand_at_once_have_one_winner(member, make_game, count):
    clients = phones(member, count)
    for _ in range(5):
        game = make_game(member)
        seat = game.seats.get(position=1)
        results = statuses(
            race([saver(client, game, 1, seat, FIRST_HANDS[i]) for i, client in enumerate(clients)])
        )
        assert results == [200] + [409] * (count - 1)
        hand = Hand.objects.get(round__game=game, seat=seat)
        assert hand.version == 1 and hand.cards in FIRST_HANDS[:count]
        assert HandChange.objects.filter(round=hand.round, seat=hand.seat).count() == 1


@pytest.mark.parametrize("count", [2, 10])
def test_phones_resaving_a_hand_with_the_version_they_read_lose_no_update(member, make_game, count):
    clients = phones(member, count)
    game = make_game(member)
    seat = game.seats.get(position=1)
    assert saver(clients[0], game, 1, seat, "2S 3S 4H")() == 200
    # Every phone a different hand each time, so no save repeats what is stored.
    cards = ["KS", "QD", "2C", "KC", "QH", "AD", "7C", "8D"]
    hands = (" ".join(three) for three in combinations(cards, 3))
    for version in range(1, 4):
        results = statuses(
            race(
                [
                    saver(client, game, 1, seat, cards, version=version)
                    for client, cards in zip(clients, islice(hands, count), strict=True)
                ]
            )
        )
        assert results == [200] + [409] * (count - 1)
        hand = Hand.objects.get(round__game=game, seat=seat)
        assert hand.version == version + 1
    assert HandChange.objects.filter(round=hand.round, seat=hand.seat).count() == 4


def round_of(game, number):
    """What the score table shows of a round: each seat's points, and who deals next."""
    round_ = game.rounds.get(number=number)
    points = {h.seat.position: h.points for h in round_.hands.select_related("seat")}
    after = game.rounds.filter(number=number + 1).select_related("dealer").first()
    game.refresh_from_db()
    return (
        points,
        round_.completed_at is not None,
        after and after.dealer.position,
        game.finished_at is not None,
    )


def play_round_at_once(member, game, number, entries, clients):
    seats = list(game.seats.all())
    calls = [
        saver(clients[i], game, number, seats[position], cards, outcome, points=points)
        for i, (position, outcome, cards, points) in enumerate(entries)
    ]
    return statuses(race(calls))


def play_round_in_turn(member, game, number, entries, clients):
    seats = list(game.seats.all())
    return [
        saver(clients[0], game, number, seats[position], cards, outcome, points=points)()
        for position, outcome, cards, points in entries
    ]


RUMMY_ALL_PURE = [
    (0, "went_out", "AH 2H 3H 4H 5S 6S 7S 8D 9D 10D JC QC KC", ""),
    (1, "cards", "9C 10C JC 2D 4S 6H 8S QD KS AD 3C 5H 7D", ""),
    (2, "cards", "2S 2C 2D 4D 6C 8H 10S QS KD AC 3S 5D 7H", ""),
]


def test_a_whole_rummy_deal_saved_at_once_doubles_every_loser(member, make_game):
    clients = phones(member, 3)
    for _ in range(4):
        racing = make_game(member, kind="rummy13")
        in_turn = make_game(member, kind="rummy13")
        assert play_round_at_once(member, racing, 1, RUMMY_ALL_PURE, clients) == [200] * 3
        assert play_round_in_turn(member, in_turn, 1, RUMMY_ALL_PURE, clients) == [200] * 3
        expected = round_of(in_turn, 1)
        assert expected[0] == {0: 0, 1: 2 * 65, 2: 2 * 79}
        assert round_of(racing, 1) == expected


POOL_DEALS = [
    [(0, "went_out", "", ""), (1, "points", "", "90"), (2, "points", "", "30")],
    # Bob crosses 101 in deal 2 while the others save at the same instant.
    [(1, "went_out", "", ""), (0, "points", "", "40"), (2, "drop", "", "")],
    [(0, "went_out", "", ""), (1, "points", "", "20"), (2, "points", "", "75")],
]


def test_a_pool_game_saved_at_once_puts_the_same_player_out(member, make_game):
    clients = phones(member, 3)
    for _ in range(3):
        racing = make_game(member, kind="rummy13", format="pool", pool_limit=101)
        in_turn = make_game(member, kind="rummy13", format="pool", pool_limit=101)
        for number, deal in enumerate(POOL_DEALS, start=1):
            play_round_at_once(member, racing, number, deal, clients)
            play_round_in_turn(member, in_turn, number, deal, clients)
            assert round_of(racing, number) == round_of(in_turn, number)
        # Bob (90 + 0 + 20 = 110) is out after deal 3; Cid 30 + 20 + 75 = 125 too: Ann wins.
        assert round_of(in_turn, 3)[3] is True


def test_one_card_saved_on_two_hands_of_a_one_deck_round_is_accepted_once(member, make_game):
    clients = phones(member, 2)
    for _ in range(6):
        game = make_game(member, names=("Ann", "Bob"), decks=1)
        ann, bob = game.seats.all()
        results = statuses(
            race(
                [
                    saver(clients[0], game, 1, ann, "KS QD 2C"),
                    saver(clients[1], game, 1, bob, "KS 9D 4H"),
                ]
            )
        )
        assert results == [200, 422]
        hands = Hand.objects.filter(round__game=game)
        assert hands.count() == 1
        assert sum(hand.cards.split().count("KS") for hand in hands) == 1


def test_a_save_racing_finish_never_lands_in_a_finished_game(member, make_game):
    clients = phones(member, 2)
    for _ in range(6):
        game = make_game(member, names=("Ann", "Bob"))
        ann = game.seats.get(position=0)
        results = race(
            [
                saver(clients[0], game, 1, ann, "KS QD 2C"),
                lambda game=game: status_of(clients[1].post(f"/games/{game.pk}/finish/")),
            ]
        )
        assert statuses(results) in ([200, 302], [302, 422])
        game = Game.objects.get(pk=game.pk)
        assert game.finished_at is not None
        saved_after = Hand.objects.filter(round__game=game, updated_at__gt=game.finished_at)
        assert not saved_after.exists()


def test_phones_undoing_the_same_save_at_once_undo_it_once(member, make_game):
    from games.engine import POINTS
    from games.models import Entry

    clients = phones(member, 4)
    game = make_game(member)
    first = game.rounds.get()
    ann, bob, _ = game.seats.all()
    first.save_hand(ann, Entry(POINTS, "", 4), member)
    first.save_hand(bob, Entry(POINTS, "", 9), member)
    offered = first.last_save().pk
    url = f"/games/{game.pk}/rounds/1/undo/"
    results = statuses(
        race(
            [
                lambda client=client: status_of(client.post(url, {"change": offered}))
                for client in clients
            ]
        )
    )
    assert results == [302] * 4  # each phone is sent back to the round, with its message
    assert HandChange.objects.filter(undo=True).count() == 1
    assert list(Hand.objects.values_list("seat_id", "points")) == [(ann.pk, 4)]


def test_an_undo_racing_a_save_leaves_the_round_as_one_after_the_other(member, make_game):
    from games.engine import POINTS
    from games.models import Entry

    undoer, saver_phone = phones(member, 2)
    for _ in range(5):
        game = make_game(member)
        first = game.rounds.get()
        ann, bob, cid = game.seats.all()
        first.save_hand(ann, Entry(POINTS, "", 4), member)
        offered = first.last_save().pk
        undo = {"change": offered}
        results = statuses(
            race(
                [
                    lambda url=f"/games/{game.pk}/rounds/1/undo/", undo=undo: status_of(
                        undoer.post(url, undo)
                    ),
                    saver(saver_phone, game, 1, bob, outcome="points", points="7"),
                ]
            )
        )
        assert results == [200, 302]
        # Either the undo came first (Ann's hand gone, Bob's saved) or the save did (the undo
        # is refused: Ann's save is no longer the last one).
        hands = dict(Hand.objects.filter(round=first).values_list("seat_id", "points"))
        undone = HandChange.objects.filter(round=first, undo=True).exists()
        assert hands == ({bob.pk: 7} if undone else {ann.pk: 4, bob.pk: 7})


@pytest.mark.parametrize("count", [2, 6])
def test_phones_making_the_nights_link_at_once_make_one(member, make_game, count):
    game = make_game(member)
    url = f"/nights/{game.night_id}/share/link/"
    makers = [
        (lambda client=client: status_of(client.post(url, {"action": "make"})))
        for client in phones(member, count)
    ]
    assert statuses(race(makers)) == [302] * count
    assert NightLink.objects.filter(night=game.night).count() == 1
