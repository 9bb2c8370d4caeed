"""A GET never writes: every page of the site is read inside a check that fails on any
INSERT, UPDATE or DELETE, for a member, a stranger and htmx."""

import pytest
from django.db import connection

from games.engine import POINTS
from games.models import Entry
from tests.helpers import site_urls, url_names

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class WriteSeen(AssertionError):
    pass


def refuse_writes(execute, sql, params, many, context):
    if sql.lstrip().upper().startswith(WRITES):
        raise WriteSeen(f"a GET wrote to the database: {sql[:120]}")
    return execute(sql, params, many, context)


@pytest.fixture
def games(member, make_game):
    """A game with round 1 complete (round 2 open and half entered) and a finished one."""
    playing = make_game(member)
    first = playing.rounds.get()
    seats = list(playing.seats.all())
    for seat, points in zip(seats, (0, 12, 7), strict=True):
        outcome = "went_out" if points == 0 else POINTS
        first.save_hand(seat, Entry(outcome, "", points if points else None), member)
    second = playing.rounds.get(number=2)
    second.save_hand(seats[0], Entry(POINTS, "", 5), member)
    finished = make_game(member, kind="rummy13", names=("Ann", "Dee"))
    finished.finish()
    return playing, finished


def test_the_url_table_covers_every_page_of_the_site(games):
    assert set(site_urls(games[0])) == url_names()


@pytest.mark.parametrize("who", ["member", "stranger"])
def test_no_get_writes_to_the_database(client, member, games, who):
    if who == "member":
        client.force_login(member)
    for game in games:
        for name, url in site_urls(game).items():
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                with connection.execute_wrapper(refuse_writes):
                    response = client.get(url, **headers)
                assert response.status_code < 500, (name, url)


def test_opening_pages_does_not_open_rounds_or_finish_games(signed_in, member, games):
    playing, finished = games
    rounds = playing.rounds.count()
    for url in site_urls(playing).values():
        signed_in.get(url)
    assert playing.rounds.count() == rounds
    playing.refresh_from_db()
    assert playing.finished_at is None
