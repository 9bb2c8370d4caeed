"""The new-game page asks for one game: one is chosen as it opens, only its options are shown
(every game's stay in the HTML for a phone without JavaScript), and the rarely changed ones wait
behind "More options"."""

import re

import pytest

from games.engine import KINDS
from tests.test_views_kinds import new_game_data

pytestmark = pytest.mark.django_db

KEPT_IN_VIEW = {"decks", "target", "variant"}  # what a table settles before every game


def chosen_game(page: str) -> list[str]:
    return re.findall(r'<input type="radio" name="kind" value="([\w-]+)"[^>]*\bchecked\b', page)


def shown_options(page: str) -> list[str]:
    return re.findall(r'<fieldset class="options" data-game="([\w-]+)">', page)


def test_a_new_group_opens_on_three_thirteen_with_only_its_options_shown(signed_in):
    page = signed_in.get("/games/new/").content.decode()
    assert chosen_game(page) == ["three-thirteen"]
    assert shown_options(page) == ["three-thirteen"]
    assert page.count('<fieldset class="options" data-game=') == len(KINDS)


def test_the_page_opens_on_the_game_the_group_played_last(signed_in, member, make_game):
    make_game(member, kind="rummy13")
    make_game(member, kind="gin", names=("Ann", "Bob"))
    page = signed_in.get("/games/new/").content.decode()
    assert chosen_game(page) == ["gin"]
    assert shown_options(page) == ["gin"]


def test_another_groups_games_do_not_choose_the_game(signed_in, make_member, make_game):
    make_game(make_member("bea"), kind="five-crowns", names=("Ann", "Bob"))
    assert chosen_game(signed_in.get("/games/new/").content.decode()) == ["three-thirteen"]


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_only_the_options_kept_in_view_come_before_more_options(signed_in, kind):
    page = signed_in.get("/games/new/").content.decode()
    start = page.index(f'data-game="{kind.slug}"')
    ends = [page.find(mark, start + 1) for mark in ('<fieldset class="options"', "Start the game")]
    fieldset = page[start : min(end for end in ends if end != -1)]
    more = fieldset.find('<details class="more-options">')
    for name, option, _ in kind.options():
        where = fieldset.index(f'name="{kind.form_prefix}{name}"')
        assert (more == -1 or where < more) == option.in_view, name
        assert option.in_view or name not in KEPT_IN_VIEW, name


def test_a_refused_rare_option_opens_more_options_on_the_game_asked_for(signed_in):
    kind = KINDS["rummy13"]
    page = signed_in.post("/games/new/", new_game_data(kind, r_jokers=99)).content.decode()
    assert chosen_game(page) == ["rummy13"] and shown_options(page) == ["rummy13"]
    assert '<details class="more-options" open>' in page


def test_an_unknown_game_shows_every_games_options(signed_in):
    data = new_game_data(KINDS["gin"]) | {"kind": "poker"}
    page = signed_in.post("/games/new/", data).content.decode()
    assert chosen_game(page) == []
    assert len(shown_options(page)) == len(KINDS)
