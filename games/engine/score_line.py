"""One line of the `score_hands` command: a JSON request in, a JSON-ready answer out."""

from .cards import CardError, parse_hand
from .rummy13 import RummyRules, declaration, final_count, loser_arrangement
from .three_thirteen import ThreeThirteenRules, arrange, check_round_number

GAMES = ("three-thirteen", "rummy13")
ROLES = ("loser", "winner")


def _cards(cards) -> list[str]:
    return [str(card) for card in cards]


def _arrangement_fields(arrangement) -> dict:
    return {
        "points": arrangement.points,
        "melds": [_cards(meld) for meld in arrangement.melds],
        "unmelded": _cards(arrangement.unmelded),
    }


def score_request(request) -> dict:
    """Score one request as RULES.md's last section defines; input errors become messages."""
    try:
        return {"ok": True, **_score(request)}
    except CardError as error:
        return {"ok": False, "error": str(error)}


def _score(request) -> dict:
    if not isinstance(request, dict):
        raise CardError("each line must be a JSON object")
    game = request.get("game")
    if game not in GAMES:
        raise CardError('"game" must be "three-thirteen" or "rummy13"')
    if "hand" not in request:
        raise CardError('"hand" is missing: write the cards, like "7H 8H 9H"')
    cards = parse_hand(request["hand"])
    if game == "three-thirteen":
        if "round" not in request:
            raise CardError('"round" is missing: Three Thirteen needs the round, 1 to 11')
        round_number = check_round_number(request["round"])
        rules = ThreeThirteenRules.from_dict(request.get("rules"))
        return _arrangement_fields(arrange(cards, round_number, rules))
    rules = RummyRules.from_dict(request.get("rules"))
    role = request.get("role", "loser")
    if role not in ROLES:
        raise CardError('"role" must be "loser" or "winner"')
    if role == "winner":
        judged = declaration(cards, rules)
        answer = _arrangement_fields(judged.arrangement)
        answer["points"] = final_count(judged.arrangement.points, False, rules)
        answer["valid"] = judged.valid
        answer["all_pure"] = judged.all_pure
        if not judged.valid:
            answer["reason"] = judged.reason
        return answer
    doubled = request.get("winner_all_pure", False)
    if not isinstance(doubled, bool):
        raise CardError('"winner_all_pure" must be true or false')
    arrangement = loser_arrangement(cards, rules)
    answer = _arrangement_fields(arrangement)
    answer["points"] = final_count(arrangement.points, doubled, rules)
    return answer
