"""Every penalty says why, in the words of the rules: a Rummy hand with no pure sequence, a
third set, a count doubled by the winner's pure sequences, what a wild card stands for, Gin's
layoffs and undercut. The round page shows them under the hand, while it is entered and once
it is saved."""

import re
from html import unescape

import pytest

from tests.helpers import save, seats

pytestmark = pytest.mark.django_db

# Sevens and Kings make two sets, but with no pure sequence they count like the rest.
NO_PURE = "7C 7H 7S KC KD KS 2H 5D 9S 10C JD 4S 6H"
# A pure sequence and three sets: only two of the sets come off (the Fives are counted).
THREE_SETS = "2H 3H 4H 7C 7H 7S KC KD KS 5C 5D 5S 9D"
# Four pure sequences: the others count double.
ALL_PURE = "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH"


def reasons(html: str, seat) -> list[str]:
    """The reasons listed under a hand's panel, in words: a card face is read by its name."""
    panel = html.split(f'id="hand-{seat.pk}"')[1].split("</section>")[0]
    found = re.search(r'<ul class="reasons"[^>]*>(.*?)</ul>', panel, re.S)
    if not found:
        return []
    said = re.sub(r'<span class="suit">[^<]*</span>', "", found.group(1))
    said = re.sub(
        r'<span class="face[^"]*" role="img" aria-label="([^"]+)">[^<]*</span>', r"\1", said
    )
    items = re.findall(r"<li>(.*?)</li>", said)
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in items]


def round_page(client, game, number=1) -> str:
    return client.get(f"/games/{game.pk}/rounds/{number}/").content.decode()


@pytest.fixture
def rummy(member, make_game):
    return make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam"))


def test_a_rummy_hand_without_a_pure_sequence_says_every_card_counts(signed_in, rummy):
    maya, priya, sam = seats(rummy)
    save(signed_in, rummy, 1, priya, NO_PURE)
    assert reasons(round_page(signed_in, rummy), priya) == ["No pure sequence: every card counts"]


def test_a_third_set_is_counted_because_only_two_sets_come_off(signed_in, rummy):
    maya, priya, sam = seats(rummy)
    save(signed_in, rummy, 1, sam, THREE_SETS)
    assert reasons(round_page(signed_in, rummy), sam) == ["Only two sets come off"]


def test_the_reason_shows_while_the_hand_is_entered(signed_in, rummy):
    maya, priya, sam = seats(rummy)
    preview = save(signed_in, rummy, 1, sam, THREE_SETS, htmx=True, save="")
    assert 'class="preview"' in preview.content.decode()
    assert "Only two sets come off" in preview.content.decode()


def test_a_count_doubled_by_the_winners_pure_sequences_names_the_winner(signed_in, rummy):
    maya, priya, sam = seats(rummy)
    save(signed_in, rummy, 1, priya, NO_PURE)
    save(signed_in, rummy, 1, maya, ALL_PURE, outcome="went_out")
    page = round_page(signed_in, rummy)
    assert reasons(page, priya) == [
        "No pure sequence: every card counts",
        "Doubled: Maya's melds are all pure",
    ]
    assert (
        "Maya declared four pure sequences: every other count is doubled (Priya&#x27;s count)."
        in page
    )


def test_a_count_saved_after_the_winners_pure_sequences_is_answered_doubled(signed_in, rummy):
    # The save's own answer (the hand's line and cards, swapped in on the saving phone) draws
    # the doubling from the round as the save left it, as every other phone is shown it.
    maya, priya, sam = seats(rummy)
    save(signed_in, rummy, 1, maya, ALL_PURE, outcome="went_out")
    answer = save(signed_in, rummy, 1, priya, NO_PURE, htmx=True).content.decode()
    assert "Doubled: Maya&#x27;s melds are all pure" in answer
    assert reasons(round_page(signed_in, rummy), priya)[-1] == "Doubled: Maya's melds are all pure"


def test_a_capped_count_says_so(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Maya", "Priya"), max_count=80)
    maya, priya = seats(game)
    save(signed_in, game, 1, priya, NO_PURE)
    assert reasons(round_page(signed_in, game), priya) == [
        "No pure sequence: every card counts",
        "Capped at 80: the most one deal counts",
    ]


def test_a_jokers_part_in_a_meld_and_a_wild_card_left_over_are_told(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"), jokers=2)  # round 1: 3s are wild
    ann, bob = seats(game)
    save(signed_in, game, 1, bob, "5H JK 9C")
    save(signed_in, game, 1, ann, "5S 6S JK", outcome="went_out")
    page = round_page(signed_in, game)
    assert reasons(page, ann) == ["Joker (wild) stands for 7 of spades"]
    assert reasons(page, bob) == ["Joker (wild) is wild but left over: it counts 20"]


def test_a_wild_card_left_over_counts_its_face_value(signed_in, member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = seats(game)
    for number, (went_out, left) in enumerate(
        [("5H 6H 7H", "KS QD 2C"), ("5H 6H 7H 8H", "KS QD 2C 9D")], start=1
    ):
        save(signed_in, game, number, ann, went_out, outcome="went_out")
        save(signed_in, game, number, bob, left)
    # Round 3: 5s are wild; Bob's 5C melds nothing (two cards of other ranks, no run).
    save(signed_in, game, 3, bob, "5C KS QD 2C 9D")
    assert "5 of clubs (wild) is wild but left over: it counts 5" in reasons(
        round_page(signed_in, game, 3), bob
    )


def test_gin_says_what_was_laid_off_and_why_an_undercut_scores(signed_in, member, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"))
    ann, bob = seats(game)
    save(signed_in, game, 1, ann, "5H 6H 7H JS JD JC 2C 3C 4C AS", outcome="went_out")
    save(signed_in, game, 1, bob, "3H 4H 8H 9H KS QS KD 2D 9S 7C")
    page = round_page(signed_in, game)
    assert "Bob laid off" in page and "onto Ann&#x27;s melds: they do not count" in page
    assert "Ann knocked with 1 deadwood and Bob has 48: 48 − 1 = 47" in page
    save(signed_in, game, 2, bob, "AS 2S 3S 4H 5H 6H 7D 8D 9D KC", outcome="went_out")
    save(signed_in, game, 2, ann, "AC 2C 3C 4D 5D 6D 7H 8H 9H KS")
    assert (
        "Undercut: Ann&#x27;s deadwood (10) is not more than Bob&#x27;s (10): "
        "10 − 10 + 25 undercut bonus = 25"
    ) in round_page(signed_in, game, 2)
