"""The look-back held to hand-worked examples, on tales made here (no database): a night's
story, records set game by game, and the OpenSkill rating."""

import math
from datetime import UTC, date, datetime

from games.history import records, story
from games.history.ratings import rate
from games.history.tales import HandFacts, Tale, tell

NAMES = {1: "Ann", 2: "Bob", 3: "Cid"}


def told(
    kind, rounds, players=(1, 2, 3), finished=True, game_id=1, day=date(2025, 1, 1), results=()
):
    """A game told from its rounds: each a list of (player, outcome, points[, cards[, pure]]),
    with each round's result where its game names one."""
    started = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
    ended = datetime(day.year, day.month, day.day, 22, tzinfo=UTC) if finished else None
    tale = Tale(game_id, kind, {}, game_id, day, started, ended, list(players))
    seats = [(100 + p, i, p) for i, p in enumerate(players)]
    rows = []
    for number, hands in enumerate(rounds, start=1):
        for player, outcome, points, *more in hands:
            cards, pure = (more + ["", False])[:2] if more else ("", False)
            hand = HandFacts(player, outcome, points, pure, cards, {})
            result = results[number - 1] if results else ""
            rows.append((number, result, 100 + player, hand))
    return tell(tale, seats, rows)


# Bob is 30 behind Ann after round 1, Cid leads after round 2, Bob wins after round 3:
# totals 0/30/10, 40/30/15, 60/30/40.
COMEBACK = [
    [(1, "went_out", 0), (2, "cards", 30), (3, "cards", 10)],
    [(1, "cards", 40, "KS QD JH 10C"), (2, "went_out", 0), (3, "cards", 5)],
    [(1, "cards", 20), (2, "went_out", 0), (3, "cards", 25)],
]


def texts(tale):
    return {moment.topic: (moment.text, moment.round) for moment in story.game_story(tale, NAMES)}


def test_a_comeback_is_told_with_its_rounds():
    lines = texts(told("three-thirteen", COMEBACK))
    assert lines["winner"] == ("Bob won Three Thirteen with 30 points, 10 ahead of Cid.", 3)
    assert lines["decider"] == ("Round 3 decided it: Bob took the lead for good.", 3)
    assert lines["comeback"] == ("Comeback: Bob was 30 points behind after round 1 and won.", 1)
    # Going out with the most cards: 5 cards in round 3, when 5s are wild.
    assert lines["best"] == (
        "Best hand: Bob went out in round 3 with all 5 cards melded (5s wild).",
        3,
    )
    assert lines["penalty"] == (
        "Biggest penalty: Ann's 40 points in round 2: cards left unmelded.",
        2,
    )


def test_a_comeback_to_a_shared_win_says_so():
    # Round 3 as above but Cid's 15: Bob and Cid both finish on 30, Bob was 30 behind.
    tied = [*COMEBACK[:2], [(1, "cards", 20), (2, "went_out", 0), (3, "cards", 15)]]
    lines = texts(told("three-thirteen", tied))
    assert lines["winner"][0].startswith("Bob and Cid shared the win in Three Thirteen")
    assert lines["comeback"] == (
        "Comeback: Bob was 30 points behind after round 1 and shared the win.",
        1,
    )


def test_two_games_of_one_kind_in_a_night_are_numbered_in_its_story():
    tales = [
        told("three-thirteen", COMEBACK, game_id=1),
        told("three-thirteen", COMEBACK, game_id=2),
        told("three-thirteen", [], game_id=3),  # started by mistake, finished unplayed
        told("gin", [], players=(1, 2), game_id=4),
        told("three-thirteen", [], finished=False, game_id=5),  # just started: counted
    ]
    called = story.game_names(tales)
    assert called == {
        1: "Three Thirteen, game 1",
        2: "Three Thirteen, game 2",
        3: "Three Thirteen",  # not counted, as the night's page does not count it
        4: "Gin Rummy",
        5: "Three Thirteen, game 3",
    }
    names = {moment.game_name for moment in story.night_story(tales, NAMES)}
    assert names == {"Three Thirteen, game 1", "Three Thirteen, game 2"}
    alone = [told("three-thirteen", COMEBACK, game_id=1)]
    assert story.game_names(alone) == {1: "Three Thirteen"}


def test_a_game_in_play_tells_who_leads_and_no_comeback_yet():
    lines = texts(told("three-thirteen", COMEBACK[:2], finished=False))
    assert lines["winner"] == ("Cid leads Three Thirteen by 15 points after round 2.", 2)
    assert "comeback" not in lines and "decider" not in lines


def test_a_doubled_count_without_a_pure_sequence_says_both_reasons():
    # Ann declares four pure sequences; Bob's 13 cards hold no pure sequence (80 once doubled).
    no_pure = "2S 4S 6S 8S 10S QS 3H 5H 7H 9H JH KH 2D"
    tale = told(
        "rummy13",
        [[(1, "went_out", 0, "", True), (2, "cards", 80, no_pure), (3, "cards", 20)]],
    )
    lines = texts(tale)
    assert lines["penalty"][0] == (
        "Biggest penalty: Bob's 80 points in deal 1: No pure sequence: every card counts; "
        "Doubled: Ann's melds are all pure."
    )
    assert lines["best"][0].startswith("Best hand: Ann declared in deal 1: four pure sequences")


def win(game_id, winner=None, day=1):
    """A finished two-player game of Three Thirteen, one round: `winner` goes out (None: a tie
    on 10 each)."""
    if winner is None:
        hands = [(1, "cards", 10), (2, "cards", 10)]
    else:
        hands = [(winner, "went_out", 0), (3 - winner, "cards", 25)]
    return told("three-thirteen", [hands], (1, 2), game_id=game_id, day=date(2025, 1, day))


def standing(tales, what):
    found = records.standing_records(records.records_set(tales))["three-thirteen"]
    return next(record for record in found if record.what == what)


def test_a_tie_breaks_a_winning_streak():
    # Ann wins twice, ties, then wins three times: her longest streak is 3, not 5 or 6.
    tales = [win(1, 1, 1), win(2, 1, 2), win(3, None, 3), win(4, 1, 4), win(5, 1, 5)]
    tales.append(win(6, 1, 6))
    streak = standing(tales, records.STREAK)
    assert (streak.player, streak.value, streak.tale.game_id) == (1, 3, 6)
    assert streak.words(NAMES) == "Ann: 3 games won in a row"


def test_the_first_to_reach_a_record_keeps_it_until_beaten():
    # Bob counts 25 in games 1 and 2: the record stays with game 1; 30 in game 3 beats it.
    tales = [win(1, 1, 1), win(2, 1, 2)]
    assert standing(tales, records.HIGHEST).tale.game_id == 1
    later = told("three-thirteen", [[(1, "went_out", 0), (2, "cards", 30)]], (1, 2), game_id=3)
    later.date = date(2025, 1, 3)
    highest = standing([*tales, later], records.HIGHEST)
    assert (highest.player, highest.value, highest.tale.game_id) == (2, 30, 3)


def test_the_biggest_comeback_is_a_record_with_its_round():
    comeback = standing([told("three-thirteen", COMEBACK)], records.COMEBACK)
    assert (comeback.player, comeback.value, comeback.round) == (2, 30, 1)
    assert comeback.words(NAMES) == "Bob: won from 30 points behind"
    # To a shared first place (Bob and Cid both on 30): said so.
    tied = [*COMEBACK[:2], [(1, "cards", 20), (2, "went_out", 0), (3, "cards", 15)]]
    shared = standing([told("three-thirteen", tied)], records.COMEBACK)
    assert shared.words(NAMES) == "Bob: shared the win from 30 points behind"


def test_the_rating_of_a_first_game_is_openskills_plackett_luce_by_hand():
    ratings = rate([win(1, 1)])["three-thirteen"]
    # Both start at mu 25, sigma 25/3, with beta 25/6 and tau 25/300 (the model's defaults):
    # each variance first grows by tau^2, c = sqrt(2 variance + 2 beta^2), each wins with
    # probability 1/2, so the winner gains variance / c * (1 - 1/2) and the loser loses it.
    beta, tau = 25 / 6, 25 / 300
    variance = (25 / 3) ** 2 + tau**2
    c = math.sqrt(2 * variance + 2 * beta**2)
    step = variance / c * 0.5
    assert math.isclose(ratings[1][-1].mu, 25 + step, abs_tol=1e-9)
    assert math.isclose(ratings[2][-1].mu, 25 - step, abs_tol=1e-9)
    assert ratings[1][-1].shown > 0 > ratings[2][-1].shown


def test_a_tie_leaves_two_equal_players_equal_and_games_in_play_are_not_rated():
    ratings = rate([win(1, None), told("three-thirteen", COMEBACK, finished=False, game_id=2)])
    ann, bob = ratings["three-thirteen"][1], ratings["three-thirteen"][2]
    assert len(ann) == len(bob) == 1
    assert ann[-1].mu == bob[-1].mu
    assert 3 not in ratings["three-thirteen"]  # Cid played only the game in play


def test_games_of_seven_players_are_not_rated():
    seven = told("three-thirteen", [[(p, "cards", p) for p in range(1, 8)]], range(1, 8))
    assert rate([seven]) == {}


def test_gin_tells_its_best_hand_and_what_a_hand_gave_away():
    # Ann goes gin for 45 in hand 1; Bob undercuts Ann for 20 in hand 2.
    rounds = [
        [(1, "went_out", 45), (2, "cards", 0)],
        [(1, "went_out", 0), (2, "cards", 20)],
    ]
    tale = told("gin", rounds, (1, 2), finished=False, results=["gin", "undercut"])
    lines = texts(tale)
    assert lines["winner"] == ("Ann leads Gin Rummy by 25 points after hand 2.", 2)
    assert lines["best"] == ("Best hand: Ann's gin against Bob in hand 1: 45 points.", 1)
    assert lines["penalty"] == ("Biggest penalty: Bob gave Ann 45 points in hand 1 (gin).", 1)


def test_a_hand_melded_whole_after_another_went_out_is_a_best_hand_too():
    # Round 3 (5 cards): Ann goes out, Cid melds all five too; round 1: Bob goes out.
    rounds = [
        [(1, "cards", 10), (2, "went_out", 0), (3, "cards", 10)],
        [(1, "cards", 10), (2, "went_out", 0), (3, "cards", 10)],
        [(1, "went_out", 0), (2, "cards", 30), (3, "cards", 0)],
    ]
    lines = texts(told("three-thirteen", rounds))
    # Going out comes first among equal hands.
    assert (
        lines["best"][0] == "Best hand: Ann went out in round 3 with all 5 cards melded (5s wild)."
    )
    cid_only = [[hand for hand in hands if hand[0] != 1] for hands in rounds]
    lines = texts(told("three-thirteen", cid_only, players=(2, 3)))
    assert lines["best"][0] == (
        "Best hand: Cid counted nothing in round 3 with all 5 cards melded (5s wild)."
    )


def test_a_game_finished_before_any_round_sets_no_record_and_no_rating():
    empty = told("three-thirteen", [], (1, 2))
    assert records.records_set([empty]) == []
    assert rate([empty]) == {}


def test_a_penalty_is_told_by_what_counted_not_by_a_wild_card_in_a_meld():
    # Round 2 of Three Thirteen (4s wild): Ann melds 7C 8C with 4H standing in, KD counts 10.
    tale = told(
        "three-thirteen",
        [
            [(1, "went_out", 0), (2, "cards", 5), (3, "cards", 3)],
            [(1, "cards", 10, "4H 7C 8C KD"), (2, "went_out", 0), (3, "cards", 2)],
        ],
    )
    assert texts(tale)["penalty"] == (
        "Biggest penalty: Ann's 10 points in round 2: cards left unmelded.",
        2,
    )


def test_a_win_rate_rounds_a_half_up_as_people_do():
    from games.history.results import percent

    assert [percent(5, 8), percent(1, 8), percent(1, 3), percent(2, 3)] == [63, 13, 33, 67]
    assert percent(0, 0) == 0 and percent(4, 4) == 100


def test_the_year_names_every_game_played_most_where_several_share_it():
    from games import engine
    from games.history.year import YearInReview

    gin, three, rummy = (engine.KINDS[s] for s in ("gin", "three-thirteen", "rummy13"))
    review = YearInReview(2026, most_played=[(gin, 2), (three, 2), (rummy, 1)])
    assert review.top_played == ([gin, three], 2)
    assert YearInReview(2026, most_played=[(rummy, 3), (gin, 1)]).top_played == ([rummy], 3)
    assert YearInReview(2026).top_played == ([], 0)


def test_a_game_with_no_hand_played_adds_no_time_at_the_table():
    from datetime import timedelta

    from games.history.year import _ended

    tale = told("three-thirteen", [])  # started at 20:00, finished at 22:00, nothing played
    assert _ended(tale) == tale.started
    played = told("three-thirteen", COMEBACK)
    played.played_until = played.started + timedelta(minutes=50)
    assert _ended(played) == played.started + timedelta(minutes=50)  # before its finish
