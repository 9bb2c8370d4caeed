"""The live URLs the score table, round and game night pages poll: 304 while nothing changed,
the page's live parts once it did, and only for the game's group."""

import gzip
import re
from html import unescape

import pytest

from games.engine import POINTS
from games.models import Entry, Game, Membership
from tests.factories import join
from tests.helpers import hand_url, without_tokens

pytestmark = pytest.mark.django_db

# A poll of an unchanged table: one query reads the version and checks who asks.
UNCHANGED_POLL_QUERIES = 1


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


@pytest.mark.parametrize("page", ["game", "round"])
def test_a_guests_unchanged_poll_is_one_query_too(
    client, member, make_game, django_assert_num_queries, page
):
    game = make_game(member)
    guest_pass = game.guest_passes.create()
    client.post(guest_pass.get_absolute_url(), {"device": "Bob's phone"})
    page_url, live_url = live_urls(game)[page]
    etag = shown_etag(client, page_url)
    with django_assert_num_queries(UNCHANGED_POLL_QUERIES):
        response = client.get(live_url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304


def test_a_member_removed_or_whose_password_changed_is_not_answered_at_once(
    client, member, bob, make_game
):
    game = make_game(member)
    client.force_login(bob)
    live_url = f"/games/{game.pk}/rounds/1/live/"
    etag = shown_etag(client, f"/games/{game.pk}/rounds/1/")
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    bob.set_password("another-secret-42")
    bob.save()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 302  # to log in
    client.force_login(bob)
    etag = shown_etag(client, f"/games/{game.pk}/rounds/1/")
    Membership.objects.filter(user=bob).delete()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_member_of_two_groups_polls_only_the_current_groups_games(
    client, member, bob, make_game, make_member
):
    game = make_game(member)
    other = make_member("dee").memberships.get().group
    join(other, bob)
    client.force_login(bob)
    live_url = f"/games/{game.pk}/live/"
    etag = shown_etag(client, f"/games/{game.pk}/")
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.post("/group/switch/", {"group": other.pk})
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 404


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
    line = re.search(rf'<span class="hand-line" id="hand-line-{cid.pk}".*?</span></span>', body)
    # The line every phone shows: how the hand ended, its points, who saved it.
    assert "Points as a number · <strong>37</strong> points" in line.group(0)
    assert "Saved by bob" in line.group(0)
    assert re.search(rf'<div class="shown-hand" id="hand-shown-{cid.pk}"', body)
    assert "<html" not in body  # the live parts only, not the page
    assert (
        "picker" not in body
        and "<form" not in body.split('id="round-status"')[1].split("</section>")[1]
    )  # no hand's form: what a phone is entering stays as it is


def test_a_changed_round_sends_only_the_hands_saved_since_the_phones_version(
    signed_in, member, bob, make_game
):
    game = make_game(member)
    ann, bob_seat, cid = game.seats.all()
    first = game.rounds.get()
    first.save_hand(cid, Entry(POINTS, "", 37), bob)
    etag = shown_etag(signed_in, f"/games/{game.pk}/rounds/1/")
    first.save_hand(ann, Entry(POINTS, "", 4), bob)
    first.save_hand(bob_seat, Entry(POINTS, "", 9), bob)
    body = signed_in.get(f"/games/{game.pk}/rounds/1/live/", HTTP_IF_NONE_MATCH=etag)
    lines = re.findall(r'id="hand-line-(\d+)"', body.content.decode())
    assert sorted(map(int, lines)) == sorted([ann.pk, bob_seat.pk])  # not Cid's, unchanged
    # A phone that sends no version it showed gets every hand.
    everything = signed_in.get(f"/games/{game.pk}/rounds/1/live/").content.decode()
    assert len(re.findall(r'id="hand-line-', everything)) == 3


def test_a_hand_whose_points_another_save_changed_is_sent_too(signed_in, member, bob, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"))
    ann, bob_seat = game.seats.all()
    hand = game.rounds.get()
    hand.save_hand(ann, Entry("went_out", "5H 6H 7H JS JD JC 2C 3C 4C AS"), bob)
    etag = shown_etag(signed_in, f"/games/{game.pk}/rounds/1/")
    # Bob's hand gives Ann her 47: both lines are sent, Ann's with her new points.
    hand.save_hand(bob_seat, Entry("cards", "3H 4H 8H 9H KS QS KD 2D 9S 7C"), bob)
    body = signed_in.get(f"/games/{game.pk}/rounds/1/live/", HTTP_IF_NONE_MATCH=etag)
    html = body.content.decode()
    lines = re.findall(r'id="hand-line-(\d+)"', html)
    assert sorted(map(int, lines)) == sorted([ann.pk, bob_seat.pk])
    assert re.search(rf'id="hand-line-{ann.pk}".*?Knocked · <strong>47</strong>', html, re.S)
    # A save that moves no other hand sends its own line alone (7D for 7C: Ann still 47).
    etag = body["ETag"]
    hand.refresh_from_db()
    saved = hand.hands.get(seat=bob_seat)
    hand.save_hand(
        bob_seat, Entry("cards", "3H 4H 8H 9H KS QS KD 2D 9S 7D", version=saved.version), bob
    )
    body = signed_in.get(f"/games/{game.pk}/rounds/1/live/", HTTP_IF_NONE_MATCH=etag)
    lines = re.findall(r'id="hand-line-(\d+)"', body.content.decode())
    assert list(map(int, lines)) == [bob_seat.pk]


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
    signed_in.post(
        hand_url(game, 1, ann), {"outcome": POINTS, "points": "5", "version": "1", "save": "1"}
    )
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
        assert "Ann" not in without_tokens(response.content)


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


def test_an_expired_guest_pass_stops_a_guests_polls_at_once_and_a_finished_game_does_not(
    client, member, make_game
):
    from datetime import timedelta

    from django.utils import timezone

    game = make_game(member)
    guest_pass = game.guest_passes.create()
    client.post(guest_pass.get_absolute_url(), {"device": "Bob's phone"})
    live_url = f"/games/{game.pk}/rounds/1/live/"
    etag = shown_etag(client, f"/games/{game.pk}/rounds/1/")
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    guest_pass.created_at = timezone.now() - timedelta(hours=13)
    guest_pass.save()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 302  # to log in
    guest_pass.created_at = timezone.now()
    guest_pass.save()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A guest stays for the evening: the finish is sent (its page shows the final scores).
    game.finish()
    assert client.get(live_url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_version_is_read_from_an_etag_the_gzip_middleware_made_weak(
    signed_in, member, bob, make_game
):
    game = make_game(member)
    ann, _, cid = game.seats.all()
    first = game.rounds.get()
    first.save_hand(cid, Entry(POINTS, "", 37), bob)
    etag = shown_etag(signed_in, f"/games/{game.pk}/rounds/1/")
    first.save_hand(ann, Entry(POINTS, "", 4), bob)
    weak = signed_in.get(
        f"/games/{game.pk}/rounds/1/live/",
        HTTP_IF_NONE_MATCH=f"W/{etag}",
        HTTP_ACCEPT_ENCODING="gzip",
    )
    assert weak["Content-Encoding"] == "gzip" and weak["ETag"].startswith('W/"')
    lines = re.findall(r'id="hand-line-(\d+)"', gzip.decompress(weak.content).decode())
    assert lines == [str(ann.pk)]


def test_the_rounds_changes_are_counted_in_what_is_sent(signed_in, member, bob, make_game):
    game = make_game(member)
    etag = shown_etag(signed_in, f"/games/{game.pk}/rounds/1/")
    first = game.rounds.get()
    first.save_hand(game.seats.get(position=2), Entry(POINTS, "", 37), bob)
    first.save_hand(game.seats.get(position=1), Entry(POINTS, "", 5), bob)
    sent = signed_in.get(f"/games/{game.pk}/rounds/1/live/", HTTP_IF_NONE_MATCH=etag)
    body = sent.content.decode()
    assert '<div id="round-history" data-live data-live-key="some">' in body
    assert 'id="round-changes-count" data-live data-live-key="2">2</span>' in body


def test_a_phone_one_version_behind_is_answered_the_change_as_drawn(signed_in, member, make_game):
    """The ask after word of a version (a phone whose stream could not carry the change) is
    answered with the change drawn where it was made, in one query, as the round drawn again
    would answer it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live.changes import mark_followed
    from games.models import LiveChange
    from tests.helpers import save, seats

    game = make_game(member)
    ann, _, _ = seats(game)
    mark_followed([game.pk])
    save(signed_in, game, 1, ann, outcome=POINTS, points="7", htmx=True)
    game.refresh_from_db()
    url = f"/games/{game.pk}/rounds/1/live/"
    behind = {"HTTP_IF_NONE_MATCH": f'"{game.version - 1}.x"'}

    with CaptureQueriesContext(connection) as kept_reads:
        kept = signed_in.get(url, **behind)
    LiveChange.objects.all().delete()  # not drawn: the round is read and drawn here
    with CaptureQueriesContext(connection) as drawn_reads:
        drawn_here = signed_in.get(url, **behind)
    assert kept.status_code == drawn_here.status_code == 200
    assert kept["ETag"] == drawn_here["ETag"]
    assert without_tokens(kept.content.decode()) == without_tokens(drawn_here.content.decode())
    assert (
        "Ann" in kept.content.decode()
        and "live-csrf-token-of-the-phone" not in kept.content.decode()
    )
    assert len(kept_reads) < len(drawn_reads)


def test_a_phone_one_version_behind_on_a_game_no_stream_follows_is_not_looked_up_for_it(
    signed_in, member, make_game
):
    """Where no stream follows the game (phones that poll: nothing was drawn), the ask one
    version behind reads the round and draws it, without first looking for a drawn change."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import LiveChange
    from tests.helpers import save, seats

    game = make_game(member)
    ann, _, _ = seats(game)
    save(signed_in, game, 1, ann, outcome=POINTS, points="7", htmx=True)
    game.refresh_from_db()
    assert game.followed_until is None and not LiveChange.objects.exists()
    behind = {"HTTP_IF_NONE_MATCH": f'"{game.version - 1}.x"'}
    with CaptureQueriesContext(connection) as reads:
        answer = signed_in.get(f"/games/{game.pk}/rounds/1/live/", **behind)
    assert answer.status_code == 200 and "Ann" in answer.content.decode()
    table = LiveChange._meta.db_table
    assert not [query for query in reads.captured_queries if table in query["sql"]]


def test_a_change_no_save_drew_is_drawn_once_for_every_phone_that_asks(
    signed_in, client, member, bob, make_game
):
    """A save made before any round page followed the game drew nothing; once a stream follows
    it, the first phone one version behind that asks draws the change and keeps it, and the
    other phones that ask the same are answered from it, as from a save's own drawing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.live.changes import forget_guest_links, mark_followed
    from games.models import LiveChange
    from tests.helpers import save, seats
    from tests.test_live_streams import as_guest

    game = make_game(member)
    ann, _, _ = seats(game)
    guest = as_guest(game)
    forget_guest_links()
    save(signed_in, game, 1, ann, outcome=POINTS, points="7", htmx=True)
    game.refresh_from_db()
    assert not LiveChange.objects.exists()
    mark_followed([game.pk])
    url = f"/games/{game.pk}/rounds/1/live/"
    behind = {"HTTP_IF_NONE_MATCH": f'"{game.version - 1}.x"'}

    with CaptureQueriesContext(connection) as first_reads:
        first = signed_in.get(url, **behind)
    kept = LiveChange.objects.get()
    assert (kept.game_id, kept.version, kept.round_number) == (game.pk, game.version, 1)

    client.force_login(bob)
    with CaptureQueriesContext(connection) as next_reads:
        then = client.get(url, **behind)
    assert first.status_code == then.status_code == 200
    assert (
        "Ann" in then.content.decode()
        and "live-csrf-token-of-the-phone" not in then.content.decode()
    )
    assert without_tokens(then.content.decode()) == without_tokens(first.content.decode())
    assert len(next_reads) < len(first_reads)
    assert LiveChange.objects.count() == 1
    # A guest's phone (no guest's page followed the game: not drawn for guests) is drawn its own.
    as_seen = guest.get(url, **behind)
    assert as_seen.status_code == 200 and "Ann" in as_seen.content.decode()
    assert as_seen["ETag"] != then["ETag"] and LiveChange.objects.count() == 1


def test_a_change_not_to_the_rounds_hands_or_a_state_moved_on_is_not_kept(
    signed_in, member, make_game
):
    """Only a change to the asking round's hands is kept for it (the game finished is drawn for
    the phone alone), and only while the game is still at that version: a round read after a
    later save is not kept as the earlier change."""
    from games.live.changes import keep_asked, mark_followed
    from games.lookups import round_state
    from games.models import LiveChange
    from tests.helpers import save, seats

    game = make_game(member)
    ann, bob_seat, _ = seats(game)
    save(signed_in, game, 1, ann, outcome=POINTS, points="7", htmx=True)
    game.refresh_from_db()
    game.finish()
    game.refresh_from_db()
    mark_followed([game.pk])
    behind = {"HTTP_IF_NONE_MATCH": f'"{game.version - 1}.x"'}
    answer = signed_in.get(f"/games/{game.pk}/rounds/1/live/", **behind)
    assert answer.status_code == 200 and "Ann" in answer.content.decode()
    assert not LiveChange.objects.exists()

    game.reopen()
    game.refresh_from_db()
    state = round_state(game.pk, 1)
    read_at = state.round.game.version
    save(signed_in, game, 1, bob_seat, outcome=POINTS, points="9", htmx=True)
    assert keep_asked(state, read_at, "") is not None  # drawn, for the phone that asked
    assert not LiveChange.objects.filter(version=read_at).exists()  # the game moved on: not kept
    assert LiveChange.objects.filter(version=read_at + 1).exists()  # (the save drew its own)


def test_a_change_that_cannot_be_kept_is_still_the_askers_answer(signed_in, member, make_game):
    """A database that will not keep the change drawn at an ask (a full disk, a lock waited
    out) still lets the poll answer with it: a poll never fails for what is only kept."""
    from unittest import mock

    from django.db import OperationalError

    from games.live import changes
    from games.live.changes import mark_followed
    from games.models import LiveChange
    from tests.helpers import save, seats

    game = make_game(member)
    ann, _, _ = seats(game)
    save(signed_in, game, 1, ann, outcome=POINTS, points="7", htmx=True)
    game.refresh_from_db()
    mark_followed([game.pk])
    behind = {"HTTP_IF_NONE_MATCH": f'"{game.version - 1}.x"'}
    with mock.patch.object(changes, "_keep", side_effect=OperationalError("database is full")):
        answer = signed_in.get(f"/games/{game.pk}/rounds/1/live/", **behind)
    assert answer.status_code == 200 and "Ann" in answer.content.decode()
    assert not LiveChange.objects.exists()


@pytest.mark.parametrize("saver", ["member", "guest"])
def test_a_saves_answer_shows_the_hand_as_its_change_drew_it_byte_for_byte(
    signed_in, member, make_game, monkeypatch, saver
):
    """Where a round page follows the game, a save's answer is made from the hand's line and
    cards its change drew (not drawn a second time): exactly what the template draws for the
    saving phone, a member's or a guest's, for a name whose quotes could look like an id."""
    from games.live.changes import mark_followed
    from games.views import rounds
    from tests.helpers import save, seats
    from tests.test_live_streams import as_guest
    from tests.test_views_reasons import ALL_PURE, NO_PURE, THREE_SETS

    game = make_game(member, kind="rummy13", names=('Ann "id="hand-line-1"', "Bob", "Cid"))
    phone = signed_in if saver == "member" else as_guest(game)
    drawn_and_template = []
    render = rounds.render

    def both_ways(request, name, context, *args, **kwargs):
        if name.endswith("#hand-saved"):
            alone = render(request, name, context | {"as_drawn": None}, *args, **kwargs)
            drawn_and_template.append((context["as_drawn"], alone.content))
        return render(request, name, context, *args, **kwargs)

    monkeypatch.setattr(rounds, "render", both_ways)
    ann, bob, _ = seats(game)
    mark_followed([game.pk])
    # Bob counts; Ann goes out with four pure sequences: Bob's count doubles.
    for seat, cards, outcome in [(bob, NO_PURE, "cards"), (ann, ALL_PURE, "went_out")]:
        answer = save(phone, game, 1, seat, cards, outcome=outcome, htmx=True)
        assert answer.status_code == 200, answer.content[:300]
        drawn, alone = drawn_and_template.pop()
        assert drawn is not None  # made from the change's drawing
        assert answer.content == alone
        assert answer.content.count(b'hx-swap-oob="true"') == 2
        assert b"&quot;id=&quot;hand-line-1&quot;" in answer.content or seat != ann

    # Not followed: nothing drawn, the template draws them.
    game.__class__.objects.filter(pk=game.pk).update(followed_until=None)
    answer = save(phone, game, 1, bob, THREE_SETS, htmx=True, version=1)
    drawn, alone = drawn_and_template.pop()
    assert drawn is None and answer.content == alone
