"""One line of the `score_hands` command: a JSON request in, a JSON-ready answer out."""

from .cards import CardError, parse_hand
from .five_crowns import FiveCrownsRules
from .five_crowns import arrange as arrange_five_crowns
from .games import FIVE_CROWNS, RUMMY13, THREE_THIRTEEN, kind_of
from .rummy13 import declaration, final_count, loser_arrangement
from .three_thirteen import arrange, check_round_number

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


def _round(request, kind) -> int:
    if "round" not in request:
        raise CardError(f'"round" is missing: {kind.name} needs the round, 1 to {kind.rounds}')
    return check_round_number(request["round"])


def _score(request) -> dict:
    if not isinstance(request, dict):
        raise CardError("each line must be a JSON object")
    kind = kind_of(request.get("game"))
    if "hand" not in request:
        raise CardError('"hand" is missing: write the cards, like "7H 8H 9H"')
    cards = parse_hand(request["hand"])
    rules = kind.rules_from(request.get("rules"))
    if kind is THREE_THIRTEEN:
        return _arrangement_fields(arrange(cards, _round(request, kind), rules))
    if kind is FIVE_CROWNS:
        assert isinstance(rules, FiveCrownsRules)
        return _arrangement_fields(arrange_five_crowns(cards, _round(request, kind), rules))
    assert kind is RUMMY13
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
