"""The share picture: every player of every game shown, and two or three lines of the story
beside or under the standings; a line that does not fit whole is never cut without a mark."""

from PIL import ImageDraw

from games.history import picture

NAMES = ["Asha", "Ben", "Chiara", "Dev", "Elif", "Farah", "Gus", "Ravi"]
SHORT = "Dev led from deal 1 to the end."
LONG = (
    "Best hand: Asha declared in deal 3: four pure sequences: the others count double "
    "(536 points counted)."
)
COMEBACK = "Comeback: Ben was 16 points behind after deal 2 and won."


def game(players: int, kind="13-card Rummy", number="", finished=True) -> picture.GameShown:
    standings = tuple(
        picture.Standing(n, name, 10 * n, "#0072b2") for n, name in enumerate(NAMES[:players], 1)
    )
    return picture.GameShown(kind, standings, finished, number)


def drawn_texts(monkeypatch, games, lines) -> list[str]:
    texts = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        assert xy[1] + 26 <= picture.HEIGHT, f"{words!r} drawn below the picture's foot"
        texts.append(words)
        return real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    picture.draw_night("Game night", "Dev won 13-card Rummy by 108", games, lines)
    return texts


def test_a_game_of_eight_shows_all_eight_and_three_story_lines_beside_them(monkeypatch):
    texts = drawn_texts(monkeypatch, [game(8)], [SHORT, LONG, COMEBACK])
    assert set(NAMES) <= set(texts)
    story = " ".join(t for t in texts if t not in NAMES)
    for line in (SHORT, LONG, COMEBACK):
        assert line in story
    assert not any(t.endswith("…") for t in texts)


def test_three_games_of_eight_show_every_player_and_at_least_two_lines(monkeypatch):
    games = [game(8), game(8, "Gin Rummy"), game(7, "Five Crowns")]
    texts = drawn_texts(monkeypatch, games, [SHORT, LONG, COMEBACK])
    assert [t for t in texts if t in NAMES].count("Ravi") == 2
    assert [t for t in texts if t in NAMES].count("Gus") == 3
    assert SHORT in texts
    assert any(t.startswith("Best hand:") for t in texts)


def test_a_story_line_longer_than_its_room_ends_with_an_ellipsis(monkeypatch):
    endless = "Best hand: " + " ".join(["four pure sequences"] * 40) + "."
    texts = drawn_texts(monkeypatch, [game(4)], [SHORT, endless])
    assert SHORT in texts
    rows = [t for t in texts if "pure sequences" in t]
    assert rows[-1].endswith("…") and rows[0].startswith("Best hand:")


def test_games_beyond_the_three_shown_are_said(monkeypatch):
    for players in (4, 6, 8):  # the more players, the less room for the story under them
        texts = drawn_texts(monkeypatch, [game(players)] * 5, [SHORT, LONG, COMEBACK])
        assert "2 more games on the night's page." in texts, players
        assert [t for t in texts if t in NAMES].count("Asha") == 3
        monkeypatch.undo()


def test_a_games_number_and_state_are_never_cut_from_its_heading(monkeypatch):
    games = [
        game(4, "Three Thirteen", ", game 1"),
        game(4, "Three Thirteen", ", game 2", finished=False),
        game(4, "Gin Rummy"),
    ]
    texts = drawn_texts(monkeypatch, games, [SHORT])
    headings = [t for t in texts if ", game" in t or t.startswith("Gin")]
    assert len(headings) == 3 and all(heading.startswith(("Thr", "Gin")) for heading in headings)
    assert headings[0].endswith(", game 1")
    assert headings[1].endswith(", game 2 · in play")
    assert headings[2] == "Gin Rummy"


def test_players_sharing_a_first_name_are_told_apart():
    names = {1: "Maya Rao", 2: "Maya Singh", 3: "Ben Ito", 4: "Ann Lee", 5: "Ann Lin", 6: "Ann"}
    # Never a whole name (the picture goes to a chat): numbered where the initial is shared.
    assert picture.short_names(names) == {
        1: "Maya R.",
        2: "Maya S.",
        3: "Ben",
        4: "Ann L. (1)",
        5: "Ann L. (2)",
        6: "Ann",
    }
    assert picture.short_names({1: "Eve", 2: "Eve"}) == {1: "Eve (1)", 2: "Eve (2)"}
