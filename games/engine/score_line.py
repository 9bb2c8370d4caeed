"""One line of the `score_hands` command: a JSON request in, a JSON-ready answer out."""

from .cards import CardError
from .kinds import kind_of


def score_request(request) -> dict:
    """Score one request as RULES.md's last section defines; input errors become messages."""
    try:
        if not isinstance(request, dict):
            raise CardError("each line must be a JSON object")
        kind = kind_of(request.get("game"))
        return {"ok": True, **kind.command(request, kind.rules_from(request.get("rules")))}
    except CardError as error:
        return {"ok": False, "error": str(error)}
