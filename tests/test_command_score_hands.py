import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_command(lines: list[str]) -> list[dict]:
    completed = subprocess.run(
        [sys.executable, "manage.py", "score_hands"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    out = completed.stdout.splitlines()
    assert len(out) == len(lines), completed.stdout
    return [json.loads(line) for line in out]


GIN_KNOCK = {
    "game": "gin",
    "knocker": "5H 6H 7H JS JD JC 2C 3C 4C AS",
    "defender": "3H 4H 8H 9H KS QS KD 2D 9S 7C",
}

IN_ORDER = [
    json.dumps({"game": "three-thirteen", "round": 1, "hand": "5H 6H 7H"}),
    "this is not json",
    json.dumps({"game": "three-thirteen", "round": 2, "hand": "5H 6H 7H"}),
    "",
    json.dumps({"game": "three-thirteen", "round": 1, "hand": "QH KH AH"}),
]
RULES = [
    json.dumps(
        {
            "game": "three-thirteen",
            "round": 1,
            "hand": "QH KH AH",
            "rules": {"aces": "high_or_low"},
        }
    ),
    json.dumps(
        {
            "game": "three-thirteen",
            "round": 1,
            "hand": "JH QC 3D",
            "rules": {"faces": "rank", "all_wild_melds": False},
        }
    ),
]
RUMMY = [
    json.dumps(
        {
            "game": "rummy13",
            "role": "winner",
            "hand": "AH 2H 3H 4H 5S 6S 7S 8C 9C 10C JD QD KD",
        }
    ),
    json.dumps(
        {
            "game": "rummy13",
            "role": "winner",
            "hand": "AH 3H 5H 7H 9S JS KS 2C 4C 6C 8D 10D QD",
        }
    ),
    json.dumps(
        {
            "game": "rummy13",
            "winner_all_pure": True,
            "rules": {"max_count": 80},
            "hand": "AH 3H 5H 7H 9S JS KS 2C 4C 6C 8D 10D QD",
        }
    ),
    json.dumps({"game": "rummy13", "hand": "AH 2H", "rules": {"wild_rank": "Z"}}),
]
GIN = [
    json.dumps(GIN_KNOCK),
    json.dumps({**GIN_KNOCK, "rules": {"variant": "oklahoma"}, "upcard": "3S"}),
    json.dumps({"game": "gin", "knocker": "", "defender": ""}),
    json.dumps({**GIN_KNOCK, "knocker": "AS 2S 3S 5H 6H 7H 7D 8D KC QC"}),
]


# Every test's lines go to one run of the command (starting Django is most of its time); each
# test reads the answers to its own lines, which the command answers one for one, in order.
LINE_SETS = [IN_ORDER, RULES, RUMMY, GIN]


@pytest.fixture(scope="module")
def answered():
    answers = run_command([line for lines in LINE_SETS for line in lines])
    by_set, start = {}, 0
    for lines in LINE_SETS:
        by_set[id(lines)] = answers[start : start + len(lines)]
        start += len(lines)
    return lambda lines: by_set[id(lines)]


def test_answers_one_line_per_line_in_order_and_keeps_reading_after_a_bad_line(answered):
    answers = answered(IN_ORDER)
    assert answers[0] == {"ok": True, "points": 0, "melds": [["5H", "6H", "7H"]], "unmelded": []}
    assert answers[1]["ok"] is False and "JSON" in answers[1]["error"]
    assert answers[2] == {
        "ok": False,
        "error": "a hand in round 2 holds 4 cards; this one has 3",
    }
    assert answers[3]["ok"] is False
    assert answers[4]["points"] == 21
    assert sorted(answers[4]["unmelded"]) == ["AH", "KH", "QH"]


def test_rules_change_the_score(answered):
    answers = answered(RULES)
    assert answers[0]["points"] == 0
    assert answers[1]["points"] == 11 + 12 + 3


def test_rummy_winner_and_loser_fields(answered):
    answers = answered(RUMMY)
    assert answers[0]["valid"] is True and answers[0]["all_pure"] is True
    assert answers[0]["points"] == 0 and len(answers[0]["melds"]) == 4
    assert answers[1]["valid"] is False and answers[1]["reason"] == "no pure sequence"
    assert answers[1]["points"] == 94 and answers[1]["melds"] == []
    assert answers[2]["points"] == 80  # 94 doubled is 188, capped at 80
    assert answers[3]["ok"] is False and "wild_rank" in answers[3]["error"]


def test_gin_scores_both_hands_together_and_a_drawn_hand_scores_nothing(answered):
    answers = answered(GIN)
    assert answers[0]["ok"] and (answers[0]["result"], answers[0]["points"]) == ("knock", 47)
    assert answers[0]["defender"]["layoffs"] == [["4H", 1], ["3H", 1], ["8H", 1], ["9H", 1]]
    assert answers[1]["points"] == 94  # a spade upcard doubles
    assert answers[2] == {"ok": True, "result": "drawn", "scorer": None, "points": 0}
    assert answers[3]["ok"] is False and "not a legal knock: 35 deadwood" in answers[3]["error"]
