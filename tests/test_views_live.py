"""The live URLs the score table, round and game night pages poll: 304 while nothing changed,
the page's live parts once it did, and only for the game's group."""

import re
from html import unescape

import pytest

from games.engine.games import POINTS
from games.models import Entry, Game, Membership
from tests.conftest import hand_url

pytestmark = pytest.mark.django_db

# A poll of an unchanged table: the signed-in user and their group (as every page of the site
# costs them), then the one query of the live view, the version.
UNCHANGED_POLL_QUERIES = 3


def live_urls(game):
    return {
        "game": (f"/games/{game.pk}/", f"/games/{game.pk}/live/"),
        "round": (f"/games/{game.pk}/rounds/1/", f"/games/{game.pk}/rounds/1/live/"),
        "night": (f"/nights/{game.night_id}/", f"/nights/{game.night_id}/live/"),
    }


def shown_etag(client, page_url) -> str:
    """The ETag the page was drawn at, as live.js reads it from the page."""
    page = client.get(page_url).content.decode()
    return unescape(re.search(r'data-live-etag="([^"]+)"', page).group(1))


@pytest.fixture
def bob(django_user_model, member):
    """A second member of Ann's group, on another phone."""
    user = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=user, group=member.memberships.first().group)
    return user


@pytest.mark.parametrize("page", ["game", "round", "night"])
def test_an_unchanged_table_answers_304_after_one_query_of_its_own(
    signed_in, member, make_game, django_assert_num_queries, page
):
    page_url, live_url = live_urls(make_game(member))[page]
    etag = shown_etag(signed_in, page_url)
    with django_assert_num_queries(UNCHANGED_POLL_QUERIES):
        response = signed_in.get(live_url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response["ETag"] == etag
    assert response.content == b""


@pytest.mark.parametrize("page", ["game", "round", "night"])
def test_a_hand_saved_on_another_phone_is_sent_with_a_new_etag(
    signed_in, member, bob, make_game, page
):
    game = make_game(member)
    page_url, live_url = live_urls(game)[page]
    etag = shown_etag(signed_in, page_url)
    cid = game.seats.get(position=2)
    game.rounds.get().save_hand(cid, Entry(POINTS, "", 37), bob)
    response = signed_in.get(live_url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] not in ("", etag)
    assert "37" in response.content.decode()
    assert signed_in.get(live_url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_the_round_sends_its_summary_and_each_hand_with_who_saved_it(
    signed_in, member, bob, make_game
):
    game = make_game(member)
    cid = game.seats.get(position=2)
    game.rounds.get().save_hand(cid, Entry(POINTS, "", 37), bob)
    body = signed_in.get(f"/games/{game.pk}/rounds/1/live/").content.decode()
    assert 'id="round-status"' in body
    assert "Still to enter: Ann, Bob." in body
    panel = re.search(rf'<section class="hand-panel" id="hand-{cid.pk}".*?</section>', body, re.S)
    assert 'data-live-key="1 37 "' in panel.group(0)
    assert "Saved by bob" in panel.group(0)
    assert "<html" not in body  # the live parts only, not the page


def test_the_score_table_sends_the_new_totals(signed_in, member, bob, make_game):
    game = make_game(member)
    seats = list(game.seats.all())
    for seat, points in zip(seats, (0, 12, 7), strict=True):
        outcome = "went_out" if points == 0 else POINTS
        game.rounds.get().save_hand(seat, Entry(outcome, "", points or None), bob)
    body = signed_in.get(f"/games/{game.pk}/live/").content.decode()
    assert 'id="game-live"' in body and 'id="game-actions"' in body
    totals = re.search(r"<tfoot>.*</tfoot>", body, re.S).group(0)
    assert re.findall(r">(\d+)</td>", totals) == ["0", "12", "7"]
    assert "Enter round 2" in body


def test_finishing_and_reopening_change_the_etag(signed_in, member, make_game):
    game = make_game(member)
    seen = {shown_etag(signed_in, f"/games/{game.pk}/")}
    game.finish()
    seen.add(signed_in.get(f"/games/{game.pk}/live/")["ETag"])
    game.reopen()
    seen.add(signed_in.get(f"/games/{game.pk}/live/")["ETag"])
    assert len(seen) == 3


def test_a_new_game_on_the_night_changes_the_nights_etag(signed_in, member, make_game):
    game = make_game(member)
    etag = shown_etag(signed_in, f"/nights/{game.night_id}/")
    second = make_game(member, kind="rummy13", names=("Ann", "Dee"))
    assert second.night_id == game.night_id
    response = signed_in.get(f"/nights/{game.night_id}/live/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "Rummy" in response.content.decode()


def test_a_refused_or_repeated_save_is_no_change(signed_in, member, make_game):
    game = make_game(member)
    round_ = game.rounds.get()
    ann = game.seats.get(position=0)
    round_.save_hand(ann, Entry(POINTS, "", 5), member)
    etag = signed_in.get(f"/games/{game.pk}/live/")["ETag"]
    signed_in.post(hand_url(game, 1, ann), {"outcome": POINTS, "points": "5", "version": "1",
                                            "save": "1"})  # fmt: skip
    signed_in.post(hand_url(game, 1, ann), {"outcome": "cards", "cards": "ZZ", "save": "1"})
    response = signed_in.get(f"/games/{game.pk}/live/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304


@pytest.mark.parametrize("page", ["game", "round", "night"])
def test_another_group_gets_not_found_even_with_the_etag(
    client, member, make_member, make_game, page
):
    game = make_game(member)
    _, live_url = live_urls(game)[page]
    client.force_login(member)
    etag = client.get(live_url)["ETag"]
    client.force_login(make_member("zed"))
    for headers in ({}, {"HTTP_IF_NONE_MATCH": etag}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(live_url, **headers)
        assert response.status_code == 404
        assert b"Ann" not in response.content


@pytest.mark.parametrize("page", ["game", "round", "night"])
def test_a_stranger_is_sent_to_log_in(client, member, make_game, page):
    _, live_url = live_urls(make_game(member))[page]
    response = client.get(live_url)
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize("page", ["game", "round", "night"])
def test_the_etag_is_each_members_own_and_no_cache_shares_it(client, member, bob, make_game, page):
    _, live_url = live_urls(make_game(member))[page]
    client.force_login(member)
    ann_answer = client.get(live_url)
    client.force_login(bob)
    bob_answer = client.get(live_url)
    assert ann_answer["ETag"] != bob_answer["ETag"]
    assert client.get(live_url, HTTP_IF_NONE_MATCH=ann_answer["ETag"]).status_code == 200
    for response in (ann_answer, bob_answer):
        assert "Cookie" in response["Vary"]
        assert "private" in response["Cache-Control"]
        assert "no-cache" in response["Cache-Control"]


def test_the_etag_differs_between_groups_for_the_same_state(client, make_member, make_game):
    ann, zed = make_member("ann"), make_member("zed")
    games = [make_game(ann), make_game(zed)]
    assert [g.version for g in games] == [1, 1]
    etags = []
    for user, game in zip((ann, zed), games, strict=True):
        client.force_login(user)
        etags.append(client.get(f"/games/{game.pk}/live/")["ETag"])
    assert etags[0] != etags[1]


def test_writes_are_refused(signed_in, member, make_game):
    game = make_game(member)
    for _, live_url in live_urls(game).values():
        assert signed_in.post(live_url).status_code == 405


def test_the_version_counts_each_change_of_the_game(member, make_game):
    game = make_game(member)
    round_ = game.rounds.get()
    ann, bob, cid = game.seats.all()

    def version():
        return Game.objects.get(pk=game.pk).version

    assert version() == 1
    round_.save_hand(ann, Entry(POINTS, "", 5), member)
    assert version() == 2
    round_.save_hand(ann, Entry(POINTS, "", 5, version=1), member)  # the same again
    assert version() == 2
    round_.save_hand(bob, Entry("went_out"), member)
    round_.save_hand(cid, Entry(POINTS, "", 9), member)  # completes the round, opens round 2
    assert version() == 4
    game.finish()
    assert version() == 5
    game.reopen()
    assert version() == 6
