"""What a player's page adds from the kept tales, per game kind: their rating over time, their
win rate over time, their best and worst hands."""

from dataclasses import dataclass

from django.urls import reverse

from ..charts import line_chart
from .kept import Kept
from .results import percent
from .story import best_hand, biggest_penalty, feat_words, penalty_words


@dataclass
class PlayerKind:
    rating: float | None = None
    rated: int = 0
    rating_chart: dict | None = None
    win_chart: dict | None = None
    best: tuple[str, str] | None = None  # (words, the round's address)
    worst: tuple[str, str] | None = None


def _label(day) -> str:
    return f"{day.day} {day:%b %y}"


def player_kinds(found: Kept, player, names: dict) -> dict[str, PlayerKind]:
    kinds: dict[str, PlayerKind] = {}
    best_of: dict[str, tuple] = {}
    worst_of: dict[str, tuple] = {}
    wins: dict[str, list] = {}
    for tale in found.in_order:
        if player.pk not in tale.players or not tale.finished or not tale.rounds:
            continue
        slug = tale.kind
        kinds.setdefault(slug, PlayerKind())
        line = wins.setdefault(slug, [])
        # A shared first place counts as a win here, as on the leaderboard.
        alone = player.pk in tale.winners
        won = sum(1 for _, _, w in line if w) + alone
        line.append((percent(won, len(line) + 1), tale.date, alone))
        feat = best_hand(tale, player.pk)
        if feat is not None and (slug not in best_of or feat.key > best_of[slug][0].key):
            best_of[slug] = (feat, tale)
        penalty = biggest_penalty(tale, player.pk)
        if penalty is not None:
            cost = _cost(tale, *penalty)
            if slug not in worst_of or cost > worst_of[slug][0]:
                worst_of[slug] = (cost, tale, penalty)
    for slug, kind_line in wins.items():
        kinds[slug].win_chart = line_chart(
            [("Win rate (%)", player.colour, [rate for rate, _, _ in kind_line])],
            [_label(day) for _, day, _ in kind_line],
            f"{player.name}'s win rate, game after game (per cent of games won so far)",
        )
    for slug, history in found.ratings.items():
        rated = history.get(player.pk)
        if not rated:
            continue
        kind = kinds.setdefault(slug, PlayerKind())
        kind.rating, kind.rated = rated[-1].shown, len(rated)
        kind.rating_chart = line_chart(
            [("Rating", player.colour, [point.shown for point in rated])],
            [_label(point.date) for point in rated],
            f"{player.name}'s rating, game after game",
        )
    for slug, (feat, tale) in best_of.items():
        url = reverse("round", args=[tale.game_id, feat.round])
        kinds[slug].best = (feat_words(tale, feat, names), url)
    for slug, (_, tale, (facts, hand)) in worst_of.items():
        url = reverse("round", args=[tale.game_id, facts.number])
        kinds[slug].worst = (penalty_words(tale, facts, hand, names), url)
    return kinds


def _cost(tale, facts, hand) -> int:
    if tale.kind_def.settle_round is not None:
        return max((h.points for h in facts.hands if h.player != hand.player), default=0)
    return hand.points
