"""Wild cards are marked wherever a card is drawn (the picker, the chosen cards, the melds,
a saved hand), and reasons for a refusal show card faces, not notation."""

import re

import pytest

from games.templatetags.cards import card_text
from tests.helpers import hand_url

pytestmark = pytest.mark.django_db


def picker_wilds(html: str) -> set[str]:
    """The names of the picker's buttons marked wild (class "wild")."""
    buttons = re.findall(r"<button[^>]*name=\"tap\"[^>]*>", html)
    return {
        re.search(r'data-name="([^"]+)"', button).group(1)
        for button in buttons
        if re.search(r'class="[^"]*\bwild\b', button)
    }


def wild_faces(html: str) -> list[str]:
    """The names of the card faces drawn as wild."""
    return re.findall(r'<span class="face[^"]*\bwild\b[^"]*" role="img" aria-label="([^"]+)"', html)


def chosen_cards(html: str) -> list[tuple[str, bool]]:
    """The chosen cards, (spoken name, drawn as wild), in order."""
    return [
        (name, "wild" in classes.split())
        for classes, name in re.findall(
            r'<button name="untap"[^>]*><span class="face ([^"]*)"[^>]*>.*?'
            r'<span class="visually-hidden" data-name>Remove ([^<]+)</span>',
            html,
        )
    ]


def test_three_thirteen_marks_the_rounds_rank_and_printed_jokers(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"), jokers=2)
    ann = game.seats.first()
    response = signed_in.post(
        hand_url(game, 1, ann), {"outcome": "cards", "cards": "3H 5S", "tap": "JK"}
    )
    html = response.content.decode()
    assert picker_wilds(html) == {
        "3 of clubs",
        "3 of diamonds",
        "3 of hearts",
        "3 of spades",
        "Joker",
    }
    chosen = html.split('class="chosen"')[1].split('class="picker"')[0]
    preview = html.split('class="preview"')[1].split('class="reasons"')[0]
    # The chosen cards (above the picker), then the meld they make (below it).
    assert chosen_cards(chosen) == [("3 of hearts", True), ("5 of spades", False), ("Joker", True)]
    assert sorted(wild_faces(preview)) == ["3 of hearts (wild)", "Joker (wild)"]


def test_rummys_wild_joker_rank_and_jokers_are_marked(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob"), wild_rank="7")
    ann = game.seats.first()
    cards = "2H 3H 4H 5S 6S 8S 7C 9D 10D JD QC KC"
    response = signed_in.post(
        hand_url(game, 1, ann), {"outcome": "cards", "cards": cards, "tap": "JK"}
    )
    html = response.content.decode()
    assert picker_wilds(html) == {
        "7 of clubs",
        "7 of diamonds",
        "7 of hearts",
        "7 of spades",
        "Joker",
    }
    melds = html.split('class="melds"')[1].split('class="points-line"')[0]
    assert "7 of clubs (wild)" in wild_faces(melds) or "Joker (wild)" in wild_faces(melds)


def test_five_crowns_marks_the_rounds_rank_and_its_jokers(signed_in, member, make_game):
    game = make_game(member, kind="five-crowns", names=("Ann", "Bob"))
    html = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    wilds = picker_wilds(html)
    assert wilds == {
        "3 of clubs",
        "3 of diamonds",
        "3 of hearts",
        "3 of spades",
        "3 of stars",
        "Joker",
    }


def test_a_saved_hands_melds_mark_the_wild_cards(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = game.seats.all()
    signed_in.post(
        hand_url(game, 1, ann),
        {"outcome": "went_out", "cards": "3C 8H 8S", "save": "1", "version": 0},
    )
    html = signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode()
    shown = html.split('class="shown-hand"')[1].split('class="reasons"')[0]
    assert wild_faces(shown) == ["3 of clubs (wild)"]


def test_a_supply_refusal_shows_the_card_face(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"), decks=1)
    ann, bob = game.seats.all()
    signed_in.post(
        hand_url(game, 1, ann), {"outcome": "cards", "cards": "KS QD 4C", "save": "1", "version": 0}
    )
    response = signed_in.post(
        hand_url(game, 1, bob), {"outcome": "cards", "cards": "KS 9D 5C", "save": "1", "version": 0}
    )
    assert response.status_code == 422
    error = re.search(
        r'<p class="field-error[^"]*" role="alert"[^>]*>(.*?)</p>', response.content.decode()
    )
    assert error, "the refusal is shown"
    shown = error.group(1)
    assert "KS" not in re.sub(r"<[^>]+>", "", shown.replace("K<span", "<span"))
    assert 'aria-label="King of spades"' in shown
    assert "is held twice across the hands of this round, but 1 deck has only 1" in shown


def test_a_went_out_refusal_shows_the_left_over_cards_as_faces(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    entry = {"outcome": "went_out", "cards": "5H 6H 8C", "save": "1"}
    response = signed_in.post(hand_url(game, 1, game.seats.first()), entry)
    shown = re.search(
        r'<p class="field-error[^"]*" role="alert"[^>]*>(.*?)</p>', response.content.decode()
    ).group(1)
    assert "does not meld completely" in shown
    assert sorted(re.findall(r'aria-label="([^"]+)"', shown)) == [
        "5 of hearts",
        "6 of hearts",
        "8 of clubs",
    ]


def test_card_text_draws_cards_and_escapes_the_rest():
    shown = card_text("KS (King of spades) is held 3 times <b>", None)
    assert shown.startswith('<span class="face black small" role="img" aria-label="King of spades"')
    assert "(King of spades)" not in shown
    assert shown.endswith(" is held 3 times &lt;b&gt;")
    wild = card_text("7H and JK cannot be placed", 7)
    assert re.findall(r'aria-label="([^"]+)"', wild) == ["7 of hearts (wild)", "Joker (wild)"]


def test_card_text_leaves_typed_tokens_and_examples_as_text():
    message = '"1H" is not a card: write a rank and a suit, like 7H or 10S'
    assert card_text(message) == message.replace('"', "&quot;")
    assert "face" not in card_text("ASK QUESTIONS")
