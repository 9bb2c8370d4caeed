"""The share picture's story lines: a line that does not fit whole is never cut without a mark."""

from PIL import ImageDraw

from games.history import picture

# A night of one game of four players: its rows leave room for a line and a half of story.
FOUR = picture.GameShown(
    "13-card Rummy",
    tuple(picture.Standing(n, name, 10 * n, "#0072b2") for n, name in enumerate("ABCD", 1)),
    True,
)
SHORT = "Dev led from deal 1 to the end."
LONG = (
    "Best hand: Asha declared in deal 3: four pure sequences: the others count double "
    "(536 points counted)."
)


def drawn_texts(monkeypatch, lines) -> list[str]:
    texts = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        texts.append(words)
        return real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    picture.draw_night("Game night", "Dev won 13-card Rummy by 108", [FOUR], lines)
    return texts


def test_a_story_line_whose_second_row_does_not_fit_ends_with_an_ellipsis(monkeypatch):
    texts = drawn_texts(monkeypatch, [SHORT, LONG])
    assert SHORT in texts
    (shown,) = [t for t in texts if t.startswith("Best hand:")]
    assert shown != LONG and shown.endswith("…"), shown


def test_a_story_line_that_fits_is_drawn_whole(monkeypatch):
    texts = drawn_texts(monkeypatch, [SHORT, "Comeback: Ben was 16 points behind and won."])
    assert "Comeback: Ben was 16 points behind and won." in texts
    assert not any(t.endswith("…") for t in texts)
