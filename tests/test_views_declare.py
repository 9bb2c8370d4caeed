"""A hand that melds completely, entered as "Cards left", asks before it saves: did the player
declare (go out, knock)? The answer saves it one way or the other; nothing is saved before."""

import pytest

from games.models import Hand
from tests.helpers import save, seats

pytestmark = pytest.mark.django_db

# Four sequences of Maya's, all pure: a winning declaration, or 0 counted as cards left.
COMPLETE = "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"


@pytest.fixture
def rummy(member, make_game):
    return make_game(member, kind="rummy13", names=("Maya", "Priya"))


def test_a_complete_hand_saved_as_cards_left_asks_whether_the_player_declared(signed_in, rummy):
    maya, priya = seats(rummy)
    for htmx in (False, True):
        response = save(signed_in, rummy, 1, maya, COMPLETE, htmx=htmx)
        page = response.content.decode()
        assert response.status_code == 200
        assert "Not saved yet: Did Maya declare?" in page
        assert '<button type="submit" name="answer" value="went_out"' in page
        assert "Yes, Maya declared" in page and "No, cards left: 0 points" in page
        assert "data-refused" in page  # the panel keeps what was entered, not saved
        assert not Hand.objects.exists()


def test_yes_saves_the_hand_as_declared_and_no_as_cards_left(signed_in, rummy):
    maya, priya = seats(rummy)
    response = save(signed_in, rummy, 1, maya, COMPLETE, htmx=True, answer="went_out")
    assert response.status_code == 200 and response["X-Hand-Version"] == "1"
    hand = Hand.objects.get(seat=maya)
    assert (hand.outcome, hand.points, hand.all_pure) == ("went_out", 0, True)
    response = save(signed_in, rummy, 1, maya, COMPLETE, version=1, answer="cards", save="")
    assert response.status_code == 302  # an answer is a save, even without "save"
    assert Hand.objects.get(seat=maya).outcome == "cards"


def test_no_question_once_another_player_went_out(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))  # round 1 of Three Thirteen: 3s wild
    ann, bob = seats(game)
    asked = save(signed_in, game, 1, bob, "5H 6H 7H")
    assert "Did Bob go out?" in asked.content.decode() and not Hand.objects.exists()
    save(signed_in, game, 1, ann, "8C 9C 10C", outcome="went_out")
    # Bob laid down everything on his last turn: 0 as cards left, with nothing to ask.
    assert save(signed_in, game, 1, bob, "5H 6H 7H").status_code == 302
    assert Hand.objects.get(seat=bob).outcome == "cards"


def test_a_hand_that_does_not_meld_completely_is_saved_without_a_question(signed_in, rummy):
    maya, priya = seats(rummy)
    response = save(signed_in, rummy, 1, priya, "7C 7H 7S KC KD KS 2H 5D 9S 10C JD 4S 6H")
    assert response.status_code == 302
    assert Hand.objects.get(seat=priya).points == 97


def test_gin_asks_whether_a_hand_with_no_deadwood_knocked(signed_in, member, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"))
    ann, bob = seats(game)
    asked = save(signed_in, game, 1, ann, "AH 2H 3H 5S 5D 5C 9C 10C JC QC")
    assert "Did Ann knock?" in asked.content.decode()
    assert "No, did not knock: 0 deadwood" in asked.content.decode()
