"""The app's pages, a room each: accounts (signing up), games (home, a new game, its score
table, finishing), rounds (a round, a hand's entry, undo), history (game nights, players,
export and import), groups (the group page, members, invitations, players), guests (guest
links), live (the polls of live pages), pwa (the installable app) and errors (when something
outside a view fails). Each view parses, asks the models or the engine, and renders."""

from . import accounts, errors, games, groups, guests, history, live, pwa, rounds

__all__ = ["accounts", "errors", "games", "groups", "guests", "history", "live", "pwa", "rounds"]
