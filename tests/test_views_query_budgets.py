"""What a phone at a table of four asks most often stays cheap: a save, the round's summary it
triggers, a scoring request and a poll of an unchanged table each run a fixed, small number of
SQL queries (savepoints included)."""

import pytest
from django.db import connection

from games.lookups import round_state
from games.models import HandChange
from tests.helpers import save, seats, status_of
from tests.test_views_live import shown_etag

pytestmark = pytest.mark.django_db

SAVE, SUMMARY, SCORING, UNCHANGED_POLL = 12, 6, 3, 1
# On PostgreSQL a save also sends its NOTIFY (games.live.announce), inside its transaction.
SAVE_NOTIFIED = SAVE + (1 if connection.vendor == "postgresql" else 0)
FOUR = ("Ann", "Bob", "Cid", "Dee")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(member, make_game):
    return make_game(member, names=FOUR)


def test_a_save_stays_within_its_budget(signed_in, game, django_assert_max_num_queries):
    ann, bob, cid, dee = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out", htmx=True)
    with django_assert_max_num_queries(SAVE_NOTIFIED):
        first = save(signed_in, game, 1, bob, "KS QD 2C", htmx=True)  # a first save
    with django_assert_max_num_queries(SAVE_NOTIFIED):
        again = save(signed_in, game, 1, bob, "KS QD 3C", version=1, htmx=True)  # a change
    save(signed_in, game, 1, cid, "9S 9D 2D", htmx=True)
    with django_assert_max_num_queries(SAVE_NOTIFIED):
        last = save(signed_in, game, 1, dee, "4C 8H JD", htmx=True)  # completes the round
    assert [status_of(r) for r in (first, again, last)] == [200, 200, 200]
    assert game.rounds.filter(completed_at__isnull=False).count() == 1
    assert game.rounds.count() == 2


def test_the_round_summary_stays_within_its_budget(signed_in, game, django_assert_max_num_queries):
    ann, bob, *_ = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out", htmx=True)
    save(signed_in, game, 1, bob, "KS QD 2C", htmx=True)
    with django_assert_max_num_queries(SUMMARY):
        response = signed_in.get(f"/games/{game.pk}/rounds/1/", **HTMX)
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="round-status"')
    assert "Still to enter: Cid, Dee." in text and "Undo last save: Bob" in text


def test_scoring_a_hand_stays_within_its_budget(signed_in, game, django_assert_max_num_queries):
    url = f"/games/{game.pk}/rounds/1/seats/{seats(game)[0].pk}/"
    with django_assert_max_num_queries(SCORING):
        response = signed_in.post(url, {"outcome": "cards", "cards": "5H 6H 7H"}, **HTMX)
    assert "<strong>0</strong> points" in response.content.decode()


@pytest.mark.parametrize("page", ["", "rounds/1/"])
def test_an_unchanged_poll_stays_within_its_budget(
    signed_in, game, django_assert_max_num_queries, page
):
    etag = shown_etag(signed_in, f"/games/{game.pk}/{page}")
    with django_assert_max_num_queries(UNCHANGED_POLL):
        response = signed_in.get(f"/games/{game.pk}/{page}live/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304


def test_a_changed_poll_reads_each_seats_latest_change_not_the_rounds_whole_history(
    signed_in, game
):
    ann, bob = seats(game)[:2]
    for version in range(12):  # a hand corrected again and again: its history grows
        cards = "KS QD 2C" if version % 2 == 0 else "KS QD 3C"
        assert status_of(save(signed_in, game, 1, bob, cards, version=version, htmx=True)) == 200
    save(signed_in, game, 1, ann, "5H 6H 7H", outcome="went_out", htmx=True)
    state = round_state(game.pk, 1)
    assert sorted(state.saves) == sorted(
        (change.seat_id, change.game_version)
        for change in [HandChange.objects.filter(seat=s).first() for s in (ann, bob)]
    )
    assert state.last_save == HandChange.objects.first()  # Ann's, the latest
    live = signed_in.get(f"/games/{game.pk}/rounds/1/live/", HTTP_IF_NONE_MATCH='"stale"')
    assert live.status_code == 200
    assert f'id="hand-shown-{bob.pk}"' in live.content.decode()
