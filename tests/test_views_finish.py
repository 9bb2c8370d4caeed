"""Finishing a game asks first, a finished game is read-only until reopened, its standings,
and a rematch with the same players and options and the next dealer."""

import re

import pytest

from games import engine
from games.engine import DROP, POINTS, WENT_OUT
from games.models import Entry, Game, Hand
from tests.helpers import save, seats, status_of, without_tokens

pytestmark = pytest.mark.django_db


def test_finish_asks_first_and_says_what_becomes_of_the_open_round(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    save(signed_in, game, 1, ann, outcome="points", points="7")
    page = signed_in.get(f"/games/{game.pk}/finish/").content.decode()
    assert "Finish the game now?" in page
    assert "Round 1 of 11 is not complete: 1 of 3 hands is entered." in page
    assert "That hand counts in the final totals" in page
    assert "Yes, finish the game" in page and "No, keep playing" in page
    game.refresh_from_db()
    assert game.finished_at is None  # asking changes nothing
    signed_in.post(f"/games/{game.pk}/finish/")
    game.refresh_from_db()
    assert game.finished_at is not None


def test_finish_says_an_empty_round_is_left_out(signed_in, member, make_game):
    game = make_game(member, kind="rummy13")
    page = signed_in.get(f"/games/{game.pk}/finish/").content.decode()
    assert "Deal 1 has no hand entered yet: it is left out of the game." in page


def test_the_game_page_links_to_the_question_not_a_one_tap_finish(signed_in, member, make_game):
    game = make_game(member)
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/finish/"' in page
    assert f'action="/games/{game.pk}/finish/"' not in page


def test_a_finished_game_refuses_saves_with_the_reason(signed_in, member, make_game):
    game = make_game(member)
    ann, bob, _ = seats(game)
    save(signed_in, game, 1, ann, outcome="points", points="7")
    game.finish()
    for htmx in (False, True):
        response = save(signed_in, game, 1, bob, outcome="points", points="9", htmx=htmx)
        assert status_of(response) == 422
        assert "This game is finished: reopen it to change a hand" in response.content.decode()
    response = save(signed_in, game, 1, ann, outcome="points", points="1", version=1)
    assert status_of(response) == 422
    assert [(h.seat_id, h.points) for h in Hand.objects.all()] == [(ann.pk, 7)]


def test_a_finished_games_round_page_offers_no_save(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    save(signed_in, game, 1, ann, outcome="points", points="7")
    assert re.search(
        r"<button[^>]*name=\"save\"", signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    )
    game.finish()
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "This game is finished" in page
    assert not re.search(r"<button[^>]*name=\"save\"", page)


def test_reopening_makes_the_hands_changeable_again(signed_in, member, make_game):
    game = make_game(member)
    ann = seats(game)[0]
    game.finish()
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "Reopen the game" in page
    signed_in.post(f"/games/{game.pk}/reopen/")
    game.refresh_from_db()
    assert game.finished_at is None
    assert status_of(save(signed_in, game, 1, ann, outcome="points", points="3")) == 302
    assert Hand.objects.get().points == 3


def test_pool_standings_place_the_later_out_higher(signed_in, member, make_game):
    """Cid is out after deal 1 with 120, Bob after deal 2 with 150: Bob places above Cid
    though his total is higher, and Ann, the last player left, wins."""
    game = make_game(
        member, kind="rummy13", names=("Ann", "Bob", "Cid"), format="pool", pool_limit=101
    )
    ann, bob, cid = seats(game)
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT), member)
    first.save_hand(bob, Entry(POINTS, "", 80), member)
    first.save_hand(cid, Entry(POINTS, "", 120), member)
    second = game.rounds.get(number=2)
    second.save_hand(ann, Entry(WENT_OUT), member)
    second.save_hand(bob, Entry(POINTS, "", 70), member)  # 150: more than Cid's 120
    game.refresh_from_db()
    assert game.finished_at is not None
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    names = re.findall(r'<span class="who">([^<]+)</span>', page.split("Final standings")[1])
    assert names[:3] == ["Ann", "Bob", "Cid"]


def test_engine_standings_order_players_out_of_the_pool_by_when():
    seat = engine.Seating
    places = engine.standings(
        [
            seat("early", 0, total=120, out_after=1),
            seat("late", 1, total=150, out_after=2),
            seat("last", 2, total=60),
            seat("late too", 3, total=150, out_after=2),
            seat("late, fewer", 4, total=130, out_after=2),
        ]
    )
    assert [(place, s.key) for place, s in places] == [
        (1, "last"),
        (2, "late, fewer"),
        (3, "late"),
        (3, "late too"),
        (5, "early"),
    ]


def test_a_finished_game_offers_a_rematch(signed_in, member, make_game):
    game = make_game(member)
    assert "Rematch" not in signed_in.get(f"/games/{game.pk}/").content.decode()
    game.finish()
    page = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/new/?rematch={game.pk}"' in page


def test_a_rematch_has_the_same_players_and_options_and_the_next_dealer(
    signed_in, member, make_game
):
    game = make_game(
        member,
        names=("Ann", "Bob", "Cid", "Dee"),
        aces="high_or_low",
        faces="rank",
        jokers=2,
        decks=3,
    )
    ann, bob, cid, dee = seats(game)
    for number, winner in ((1, ann), (2, bob)):
        round_ = game.rounds.get(number=number)
        for seat in (ann, bob, cid, dee):
            round_.save_hand(seat, Entry(WENT_OUT) if seat == winner else Entry(POINTS, "", 5))
    assert game.rounds.get(number=2).dealer == bob  # round 2 was Bob's deal
    game.finish()
    page = signed_in.get(f"/games/new/?rematch={game.pk}").content.decode()
    assert 'value="Cid, Dee, Ann, Bob"' in page  # Cid deals next, the same seats around
    form = signed_in.get(f"/games/new/?rematch={game.pk}").context["form"]
    assert form["kind"].value() == "three-thirteen"
    assert form["tt_aces"].value() == "high_or_low"
    assert form["tt_faces"].value() == "rank"
    assert str(form["tt_jokers"].value()) == "2" and str(form["tt_decks"].value()) == "3"


def test_a_rematch_after_eleven_rounds_starts_after_the_last_dealer(member, make_game):
    game = make_game(member, kind="five-crowns", names=("Ann", "Bob", "Cid"))
    for number in range(1, 12):
        round_ = game.rounds.get(number=number)
        for seat in seats(game):
            out = seat.position == number % 3
            round_.save_hand(seat, Entry(WENT_OUT) if out else Entry(POINTS, "", 4))
    game.refresh_from_db()
    assert game.finished_at is not None
    assert game.rounds.get(number=11).dealer.player.name == "Bob"
    assert [seat.player.name for seat in game.rematch_seats()] == ["Cid", "Ann", "Bob"]


def test_a_rematch_of_another_groups_game_is_a_plain_new_game(
    client, member, make_member, make_game
):
    game = make_game(member, names=("Ann", "Bob"))
    game.finish()
    client.force_login(make_member("zed"))
    page = without_tokens(client.get(f"/games/new/?rematch={game.pk}").content)
    assert "Ann" not in page


def test_a_rematch_starts_a_game_of_the_same_kind(signed_in, member, make_game):
    game = make_game(
        member, kind="rummy13", names=("Ann", "Bob"), format="pool", pool_limit=201, max_count=80
    )
    game.finish()
    form = signed_in.get(f"/games/new/?rematch={game.pk}").context["form"]
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    signed_in.post("/games/new/", data)
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert rematch.rules == game.rules
    assert [s.player.name for s in seats(rematch)] == ["Bob", "Ann"]
    assert DROP in dict(rematch.kind_def.outcomes(rematch.engine_rules))
