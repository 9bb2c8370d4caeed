"""Every game is read from its description: the new-game form, the options list, the words
and the picker come from games.engine.kinds, and nothing above the engine branches on it."""

import re
from pathlib import Path

import pytest

from games.engine import DRAWN, DROP, KINDS, MIDDLE_DROP, WENT_OUT, WRONG_DECLARATION
from games.forms import NewGameForm
from games.models import Game, Hand, Player
from tests.helpers import hand_url

ROOT = Path(__file__).resolve().parent.parent


# Everything above the engine: the app's code (its migrations record the database's history,
# the choices' names included), every template and every script.
ABOVE_THE_ENGINE = [
    path
    for pattern in ("games/**/*.py", "templates/**/*.html", "static/js/*.js")
    for path in ROOT.glob(pattern)
    if not path.is_relative_to(ROOT / "games/engine")
    and not path.is_relative_to(ROOT / "games/migrations")
]
# A branch on the game names it: by its slug, by one of the engine's game modules, by a slug
# compared with, or by an outcome only some games have.
GAME_MODULES = {path.stem for path in (ROOT / "games/engine").glob("*.py")} - {
    "__init__",
    "cards",
    "options",
    "outcomes",
    "games",
    "arrangement",
    "answers",
    "score_line",
}
BRANCHES = re.compile(
    "|".join(
        # a slug as a word of its own ("gin" is also a piece of "login" and "engine")
        [rf"(?<![\w-]){re.escape(slug)}(?![\w-])" for slug in KINDS]
        + [rf"\bengine\.{module}\b|\bengine import .*\b{module}\b" for module in GAME_MODULES]
        + [r"(\.slug|\bkind)\s*[!=]==?\s*[\"']"]
        + [
            rf"[\"']{outcome}[\"']"
            for outcome in (WENT_OUT, DROP, MIDDLE_DROP, WRONG_DECLARATION, DRAWN)
        ]
    )
)


def test_nothing_outside_the_engine_branches_on_the_kind_of_game():
    assert len(ABOVE_THE_ENGINE) > 60  # the whole app, not a chosen few files
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in ABOVE_THE_ENGINE
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if BRANCHES.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("kind", list(KINDS.values()), ids=list(KINDS))
def test_the_new_game_form_offers_every_rule_with_its_label_and_default(kind):
    form = NewGameForm(group=None)
    for name, option, default in kind.options():
        field = form.fields[kind.form_prefix + name]
        assert field.label == option.label
        if not option.from_players:
            initial = field.initial
            assert initial in (
                default,
                str(default),
                "yes" if default is True else "no" if default is False else "",
            )


def new_game_data(kind, **overrides):
    data = {"kind": kind.slug, "players": "Ann, Bob, Cid", "date": "2026-11-22"}
    for name, _, default in kind.options():
        value = "yes" if default is True else "no" if default is False else default
        data[kind.form_prefix + name] = "" if value is None else value
    return data | overrides


@pytest.mark.django_db
def test_a_five_crowns_game_starts_with_its_own_options_and_words(signed_in, member):
    kind = KINDS["five-crowns"]
    response = signed_in.post("/games/new/", new_game_data(kind))
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/rounds/1/"
    assert game.kind == "five-crowns" and game.rules == {"decks": 2}
    page = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    assert "Round 1 of 11" in page and "<strong>3s wild, jokers too</strong>" in page
    assert 'data-name="7 of stars"' in page
    assert 'data-name="Ace of hearts"' not in page and 'data-name="2 of hearts"' not in page
    assert 'data-name="Joker"' in page
    table = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert "<dt>Decks</dt><dd>2</dd>" in table


@pytest.mark.django_db
def test_a_bad_option_is_refused_with_its_range_and_nothing_is_started(signed_in):
    kind = KINDS["rummy13"]
    page = signed_in.post("/games/new/", new_game_data(kind, r_decks=13)).content.decode()
    assert "Ensure this value is less than or equal to 12." in page
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_other_games_options_do_not_stop_a_game_from_starting(signed_in):
    data = new_game_data(KINDS["three-thirteen"], r_decks="lots", fc_decks="-3")
    signed_in.post("/games/new/", data)
    assert Game.objects.get().kind == "three-thirteen"


@pytest.mark.django_db
def test_a_five_crowns_hand_is_scored_through_the_round_page(signed_in, member, make_game):
    game = make_game(member, kind="five-crowns", names=("Ann", "Bob"))
    ann, bob = game.seats.all()
    response = signed_in.post(
        hand_url(game, 1, ann), {"outcome": "cards", "cards": "9X 10★ JK"}, HTTP_HX_REQUEST="true"
    )
    assert "<strong>0</strong> points" in response.content.decode()
    refused = signed_in.post(
        hand_url(game, 1, bob), {"outcome": "cards", "cards": "AH 9X 10X", "save": "1"}
    )
    assert refused.status_code == 422
    assert 'aria-label="Ace of hearts"' in refused.content.decode()
    assert "</span></span> is not a card of Five Crowns" in refused.content.decode()
    assert not Hand.objects.exists()


HANDS = {
    1: [("went_out", "5H 6H 7H"), ("cards", "KS QD 2C"), ("cards", "KC QH AD")],
    2: [("went_out", "5H 6H 7H 8H"), ("cards", "AS 2D 5C 5D"), ("cards", "9S 9D 2C 2D")],
}


@pytest.mark.django_db
def test_wild_rank_labels_follow_the_round_number_not_the_row(signed_in, member, make_game):
    game = make_game(member)
    for number, hands in HANDS.items():
        for seat, (outcome, cards) in zip(game.seats.all(), hands, strict=True):
            signed_in.post(
                hand_url(game, number, seat), {"outcome": outcome, "cards": cards, "save": "1"}
            )
    game.finish()
    bob = Player.objects.get(name="Bob")
    Hand.objects.filter(seat__player=bob, round__number=1).delete()
    page = signed_in.get(f"/players/{bob.pk}/").content.decode()
    rows = re.findall(r"<td>(\d+) \(([^)]*)\)</td>", page)
    assert rows == [("2", "4s wild")]
