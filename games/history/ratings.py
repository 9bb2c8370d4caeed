"""A skill rating per player and game kind from finishing places, with OpenSkill's
Plackett-Luce model (made for ranked games of several players, ties included). Only finished
games of 2 to 6 players count; a player's rating is shown as its ordinal (mu - 3 sigma): it
starts at 0 and rises as they finish ahead of players rated higher."""

from dataclasses import dataclass
from datetime import date

from openskill.models import PlackettLuce

from .tales import Tale

FEWEST, MOST = 2, 6


@dataclass(frozen=True)
class Rated:
    """A player's rating after one game."""

    game_id: int
    date: date
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The rating as pages show it: the ordinal, mu - 3 sigma."""
        return round(self.mu - 3 * self.sigma, 1)


def counts(tale: Tale) -> bool:
    """A game the rating counts: finished after at least one round, of 2 to 6 players."""
    return bool(tale.finished and tale.rounds) and FEWEST <= len(tale.places) <= MOST


def rate(tales: list[Tale]) -> dict[str, dict[int, list[Rated]]]:
    """kind -> player -> their rating after each game they played, in the order played."""
    model = PlackettLuce()
    current: dict[tuple[str, int], object] = {}
    history: dict[str, dict[int, list[Rated]]] = {}
    for tale in sorted(filter(counts, tales), key=lambda t: t.order):
        players = [player for _, player, _ in tale.places]
        teams = [[current.get((tale.kind, p)) or model.rating()] for p in players]
        ranks = [place for place, _, _ in tale.places]
        for player, (rating,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
            current[(tale.kind, player)] = rating
            line = history.setdefault(tale.kind, {}).setdefault(player, [])
            line.append(Rated(tale.game_id, tale.date, rating.mu, rating.sigma))
    return history


def table(history: dict[int, list[Rated]]) -> list[tuple[int, Rated, int]]:
    """(player, their latest rating, games rated) of one kind, highest first."""
    rows = [(player, line[-1], len(line)) for player, line in history.items()]
    return sorted(rows, key=lambda row: (-row[1].shown, row[0]))
