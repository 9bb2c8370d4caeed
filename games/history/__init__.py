"""Looking back: results and leaderboards (`results`), each game's tale of rounds (`tales`),
a night's story (`story`), the group's records (`records`), skill ratings (`ratings`), the
year in review (`year`) and the picture to share (`picture`), all worked out from what the
engine says and kept in one place (`kept`), made stale there when a round is corrected."""

from .results import (
    GameResult,
    LeaderboardRow,
    Record,
    finished_games,
    game_results,
    leaderboard,
    player_record,
)

__all__ = [
    "GameResult",
    "LeaderboardRow",
    "Record",
    "finished_games",
    "game_results",
    "leaderboard",
    "player_record",
]
