"""Gin Rummy at the table: two phones, a hand each, both hands scored together once both are
in, points to the hand's winner, the game to its target and the bonuses after it."""

import json

import pytest

from games.history import leaderboard, player_record
from games.models import Game, Round
from tests.helpers import save, seats, status_of

pytestmark = pytest.mark.database

# Ann knocks with 1 (the AS); Bob lays 3H 4H and 8H 9H off on her 5-7H, keeps 48: 47 to Ann.
KNOCK = "5H 6H 7H JS JD JC 2C 3C 4C AS"
KNOCK_DEFENDER = "3H 4H 8H 9H KS QS KD 2D 9S 7C"
# Gin against 44 deadwood: 44 + 25.
GIN = "AH 2H 3H 5S 5D 5C 9C 10C JC QC"
GIN_DEFENDER = "4H 6H 7H KS QS 2S 3S 7D 8H 8S"
# Ten deadwood each (the KC, the KS): the defender undercuts for 0 + 25.
UNDERCUT = "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"
UNDERCUT_DEFENDER = "AC 2C 3C 4D 5D 6D 7H 8H 9H KS"
# Two layouts of 6: three 3s (59 to the knocker) or 2-4H, which takes Bob's 5H 6H (51).
TWO_WAYS = "2H 3H 4H 3S 3D 9C 10C JC QC KC"
TWO_WAYS_DEFENDER = "3C 5H 6H 8S 9S KD QD 2S 7D 8D"


@pytest.fixture
def gin(member, make_game):
    return make_game(member, kind="gin", names=("Ann", "Bob"))


def knocked(client, game, number, seat, cards, **extra):
    return save(client, game, number, seat, cards, outcome="went_out", **extra)


def page(client, game, number=None):
    url = f"/games/{game.pk}/" if number is None else f"/games/{game.pk}/rounds/{number}/"
    return client.get(url).content.decode()


def points(game, number):
    round_ = game.rounds.get(number=number)
    return [hand.points for hand in round_.hands.order_by("seat__position")], round_.result


def test_gin_is_for_two_players(signed_in):
    options = {"target": 100, "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 31}
    options |= {"box_bonus": 25, "shutout_doubles": "yes", "variant": "standard"}
    form = {"kind": "gin", "players": "Ann, Bob, Cid", "date": "2026-11-23"}
    form |= {f"g_{name}": value for name, value in options.items()}
    response = signed_in.post("/games/new/", form)
    assert "Gin Rummy is played by 2 players, not 3." in response.content.decode()
    assert not Game.objects.exists()
    response = signed_in.post("/games/new/", {**form, "players": "Ann, Bob", "g_target": 150})
    game = Game.objects.get()
    assert status_of(response) == 302 and game.kind == "gin"
    assert game.rules["target"] == 150 and game.rules["variant"] == "standard"


def test_the_round_page_asks_who_knocked_and_offers_no_points_field(signed_in, gin):
    html = page(signed_in, gin, 1)
    assert "Hand 1" in html and "<strong>10</strong> cards a hand" in html
    for label in ("Knocked", "Did not knock", "Drawn hand"):
        assert f"<span>{label}</span>" in html
    assert "Points as a number" not in html
    assert "First upcard" not in html  # Oklahoma only


def test_one_hand_in_scores_nothing_yet_and_both_in_score_the_knock_with_layoffs(signed_in, gin):
    ann, bob = seats(gin)
    knocked(signed_in, gin, 1, ann, KNOCK)
    assert points(gin, 1) == ([0], "")
    assert "Still to enter: Bob" in page(signed_in, gin, 1)
    save(signed_in, gin, 1, bob, KNOCK_DEFENDER)
    assert points(gin, 1) == ([47, 0], "knock")
    html = page(signed_in, gin, 1)
    assert "Knock: Ann scores 47" in html
    assert html.count("laid off onto meld 2") == 4
    assert "deadwood <strong>1</strong>" in html and "deadwood <strong>48</strong>" in html
    # The winner deals the next hand.
    assert gin.rounds.get(number=2).dealer == ann


def test_gin_undercut_and_a_drawn_hand(signed_in, gin):
    ann, bob = seats(gin)
    save(signed_in, gin, 1, bob, "", outcome="drawn")
    assert points(gin, 1) == ([0], "drawn")
    assert "Drawn hand: nobody knocked" in page(signed_in, gin, 1)
    assert gin.rounds.get(number=2).dealer == ann  # dealt again by the same dealer
    knocked(signed_in, gin, 2, ann, UNDERCUT)
    save(signed_in, gin, 2, bob, UNDERCUT_DEFENDER)
    assert points(gin, 2) == ([0, 25], "undercut")
    assert gin.rounds.get(number=3).dealer == bob
    knocked(signed_in, gin, 3, bob, GIN)
    save(signed_in, gin, 3, ann, GIN_DEFENDER)
    assert points(gin, 3) == ([0, 69], "gin")
    table = page(signed_in, gin)
    for note in ("Drawn", "Bob · Undercut", "Bob · Gin"):
        assert f'<span class="score-note">{note}</span>' in table
    assert "= </span>94" in table  # Bob's running total after hand 3


def test_a_knock_and_a_drawn_hand_in_one_round_must_be_settled(signed_in, gin):
    ann, bob = seats(gin)
    knocked(signed_in, gin, 1, ann, KNOCK)
    save(signed_in, gin, 1, bob, "", outcome="drawn")
    html = page(signed_in, gin, 1)
    assert "Ann knocked, but Bob said it was a drawn hand: change one of them" in html
    assert gin.rounds.get(number=1).completed_at is None


def test_an_illegal_knock_is_refused_and_the_cards_stay(signed_in, gin):
    ann, _ = seats(gin)
    response = knocked(signed_in, gin, 1, ann, "AS 2S 3S 4H 5H 6H 7D 8D KC QC", htmx=True)
    html = response.content.decode()
    assert status_of(response) == 422
    assert "Not a legal knock: 35 deadwood, and the knock limit is 10" in html
    assert 'value="AS 2S 3S 4H 5H 6H 7D 8D KC QC"' in html
    assert not gin.rounds.get(number=1).hands.exists()


def test_a_card_in_both_hands_is_refused_naming_it(signed_in, gin):
    ann, bob = seats(gin)
    knocked(signed_in, gin, 1, ann, KNOCK)
    response = save(signed_in, gin, 1, bob, "5H KS QS KD 2D 9S 7C 8D 8C 10C", htmx=True)
    assert status_of(response) == 422
    assert "5♥" in response.content.decode() or "5H" in response.content.decode()
    assert gin.rounds.get(number=1).hands.count() == 1


def test_big_gin_takes_eleven_cards(signed_in, gin):
    ann, bob = seats(gin)
    response = knocked(signed_in, gin, 1, ann, "AH 2H 3H 5S 5D 5C 9C 10C JC QC KC")
    assert status_of(response) == 302
    save(signed_in, gin, 1, bob, GIN_DEFENDER)
    assert points(gin, 1) == ([44 + 31, 0], "big_gin")


def test_the_table_picks_the_layout_actually_laid_down(signed_in, gin):
    ann, bob = seats(gin)
    knocked(signed_in, gin, 1, ann, TWO_WAYS)
    save(signed_in, gin, 1, bob, TWO_WAYS_DEFENDER)
    assert points(gin, 1) == ([59, 0], "knock")
    html = page(signed_in, gin, 1)
    assert "Which melds did Ann lay down?" in html
    assert "Knock: Ann scores 59 · scored" in html and "Knock: Ann scores 51" in html
    hand = gin.rounds.get(number=1).hands.get(seat=ann)
    knocked(signed_in, gin, 1, ann, TWO_WAYS, version=hand.version, extra_laid_down="1")
    assert points(gin, 1) == ([51, 0], "knock")
    assert "Knock: Ann scores 51 · scored" in page(signed_in, gin, 1)
    # Entering the hand again as the form sends it leaves the choice to the best play.
    hand.refresh_from_db()
    knocked(signed_in, gin, 1, ann, "2H 3H 4H 3S 3D 9C 10C JC QC 8C", version=hand.version)
    hand.refresh_from_db()
    knocked(signed_in, gin, 1, ann, TWO_WAYS, version=hand.version)
    assert points(gin, 1) == ([59, 0], "knock")


def test_oklahoma_needs_the_upcard_and_a_spade_doubles(signed_in, member, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"), variant="oklahoma")
    ann, bob = seats(game)
    assert "First upcard" in page(signed_in, game, 1)
    response = knocked(signed_in, game, 1, ann, KNOCK, htmx=True)
    assert status_of(response) == 422
    assert "Oklahoma needs the first upcard" in response.content.decode()
    # An ace: gin only.
    response = knocked(signed_in, game, 1, ann, KNOCK, extra_upcard="AD", htmx=True)
    assert "knock limit is 0 (gin only)" in response.content.decode()
    knocked(signed_in, game, 1, ann, KNOCK, extra_upcard="3s")
    save(signed_in, game, 1, bob, KNOCK_DEFENDER)
    assert points(game, 1) == ([94, 0], "knock")
    html = page(signed_in, game, 1)
    assert "scores 94 (doubled: a spade upcard)" in html and "Knock limit 3." in html
    change = game.rounds.get(number=1).changes.filter(seat=ann).first()
    assert change.new_summary.startswith("Knocked (first upcard 3S): ")


def test_the_game_ends_at_the_target_with_its_bonuses(signed_in, gin):
    ann, bob = seats(gin)
    save(signed_in, gin, 1, ann, "", outcome="drawn")
    knocked(signed_in, gin, 2, ann, UNDERCUT)
    save(signed_in, gin, 2, bob, UNDERCUT_DEFENDER)  # Bob 25
    knocked(signed_in, gin, 3, ann, KNOCK)
    save(signed_in, gin, 3, bob, KNOCK_DEFENDER)  # Ann 47
    gin.refresh_from_db()
    assert not gin.finished_at
    knocked(signed_in, gin, 4, ann, GIN)
    save(signed_in, gin, 4, bob, GIN_DEFENDER)  # Ann 47 + 69 = 116: over
    gin.refresh_from_db()
    assert gin.finished_at and not gin.rounds.filter(number=5).exists()
    html = page(signed_in, gin)
    # Ann: 116 + game bonus 100 + 2 hands × 25; Bob: 25 + 1 hand × 25.
    assert "Game bonus: +100" in html
    assert "Box bonus: 2 hands won × 25: +50" in html
    assert "Box bonus: 1 hand won × 25: +25" in html
    assert '<span class="pts">266</span>' in html and '<span class="pts">50</span>' in html
    assert html.index("266") < html.index('<span class="pts">50</span>')
    board = leaderboard(gin.group, kind="gin")
    assert [(row.player.name, row.wins) for row in board] == [("Ann", 1), ("Bob", 0)]
    record = player_record(ann.player)
    assert record.best["gin"].total_of(ann.player_id) == 266
    assert record.head_to_head[0][1:] == (1, 0, 0)
    # It can be reopened as any other game, and the bonuses wait for its end again.
    signed_in.post(f"/games/{gin.pk}/reopen/")
    gin.refresh_from_db()
    assert not gin.finished_at
    assert "Game bonus" not in page(signed_in, gin)


def test_a_shutout_doubles_the_game_bonus(signed_in, member, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"), target=100)
    ann, bob = seats(game)
    knocked(signed_in, game, 1, ann, KNOCK)
    save(signed_in, game, 1, bob, KNOCK_DEFENDER)
    knocked(signed_in, game, 2, ann, GIN)
    save(signed_in, game, 2, bob, GIN_DEFENDER)
    html = page(signed_in, game)
    assert "Shutout: game bonus doubled: +100" in html
    assert '<span class="pts">366</span>' in html  # 116 + 100 + 100 + 2 × 25


def test_undo_restores_the_upcard(signed_in, member, make_game):
    game = make_game(member, kind="gin", names=("Ann", "Bob"), variant="oklahoma")
    ann, _ = seats(game)
    knocked(signed_in, game, 1, ann, KNOCK, extra_upcard="5D")
    hand = game.rounds.get(number=1).hands.get()
    knocked(signed_in, game, 1, ann, KNOCK, extra_upcard="9C", version=hand.version)
    hand.refresh_from_db()
    assert hand.extra == {"upcard": "9C"}
    round_ = Round.objects.get(game=game, number=1)
    signed_in.post(f"/games/{game.pk}/rounds/1/undo/", {"change": round_.last_save().pk})
    hand.refresh_from_db()
    assert hand.extra == {"upcard": "5D"}


def test_export_and_import_carry_the_upcard_and_each_hands_result(
    signed_in, member, make_game, django_user_model
):
    from games.models import Group, Membership
    from games.transfer import export_json, import_json

    game = make_game(member, kind="gin", names=("Ann", "Bob"), variant="oklahoma")
    ann, bob = seats(game)
    knocked(signed_in, game, 1, ann, KNOCK, extra_upcard="3S")
    save(signed_in, game, 1, bob, KNOCK_DEFENDER)
    exported = export_json(game.group)
    zoe = django_user_model.objects.create_user("zoe", password="x")
    group = Group.objects.create(name="Zoe's table")
    Membership.objects.create(user=zoe, group=group)
    import_json(group, json.dumps(exported).encode())
    copy = Game.objects.get(group=group)
    round_ = copy.rounds.get(number=1)
    assert round_.result == "knock"
    assert round_.hands.get(seat__position=0).extra == {"upcard": "3S"}
    assert [n["games"][0]["rounds"] for n in export_json(group)["nights"]] == [
        n["games"][0]["rounds"] for n in exported["nights"]
    ]
