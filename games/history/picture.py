"""A night's result as a picture to share (PNG, drawn with Pillow): the standings of each game,
the winner, two or three lines of the story, in the app's colours, light or dark. It holds only
what it is given: first names, points, the story's words; never a link."""

import io
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630  # the size link previews show (Open Graph)
FONTS = "/usr/share/fonts/truetype/dejavu/"
# page, surface, ink, muted, felt (the top band), on felt, leader's band, gold: app.css's
THEMES = {
    "light": ["#f6f7f6", "#fff", "#1b1b1b", "#5c6166", "#0f5132", "#fff", "#fff3c4", "#a26a00"],
    "dark": ["#101412", "#1b211e", "#e4e8e6", "#a3aca8", "#17603f", "#fff", "#3f3510", "#f3be55"],
}


@dataclass(frozen=True)
class Standing:
    place: int
    name: str  # a first name
    points: int
    colour: str  # the player's colour


@dataclass(frozen=True)
class GameShown:
    kind: str  # the game's name
    standings: tuple[Standing, ...]
    finished: bool


@cache
def font(size: int, bold: bool = False):
    """DejaVu, as the system has it (fonts-dejavu-core); Pillow's own font where it is not."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(FONTS + name, size)
    except OSError:
        return ImageFont.load_default(size)


def _fit(draw, text: str, width: int, face) -> str:
    """The text cut with an ellipsis to fit `width` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def draw_night(
    title: str, headline: str, games: list[GameShown], lines: list[str], theme: str = "light"
) -> bytes:
    """The picture as PNG bytes."""
    page, surface, ink, muted, felt, on_felt, leader_bg, gold = THEMES[theme]
    image = Image.new("RGB", (WIDTH, HEIGHT), page)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 112), fill=felt)
    draw.text((48, 22), "♠♥ " + _fit(draw, title, 1000, font(30)), font=font(30), fill=on_felt)
    draw.text(
        (48, 60), _fit(draw, headline, 1100, font(36, True)), font=font(36, True), fill=on_felt
    )
    shown = games[:3]
    columns = max(1, len(shown))
    gap = 24
    box_w = (WIDTH - 96 - gap * (columns - 1)) // columns
    top = 136
    rows_room = 6
    for index, game in enumerate(shown):
        left = 48 + index * (box_w + gap)
        bottom = top + 56 + 44 * min(len(game.standings), rows_room)
        draw.rounded_rectangle((left, top, left + box_w, bottom), 14, fill=surface)
        state = "" if game.finished else " · in play"
        draw.text(
            (left + 20, top + 14),
            _fit(draw, game.kind + state, box_w - 40, font(26, True)),
            font=font(26, True),
            fill=ink,
        )
        for row, standing in enumerate(game.standings[:rows_room]):
            y = top + 56 + 44 * row
            if standing.place == 1:
                draw.rectangle((left + 8, y - 4, left + box_w - 8, y + 36), fill=leader_bg)
            draw.text(
                (left + 20, y),
                str(standing.place),
                font=font(26, True),
                fill=gold if standing.place == 1 else muted,
            )
            draw.ellipse((left + 56, y + 6, left + 78, y + 28), fill=standing.colour)
            points = str(standing.points)
            points_w = draw.textlength(points, font=font(26, True))
            name_w = box_w - 130 - points_w
            draw.text(
                (left + 92, y), _fit(draw, standing.name, name_w, font(26)), font=font(26), fill=ink
            )
            draw.text((left + box_w - 20 - points_w, y), points, font=font(26, True), fill=ink)
    story_top = max(
        top + 56 + 44 * min(max((len(g.standings) for g in shown), default=0), rows_room) + 36, 300
    )
    for row, line in enumerate(lines[:3]):
        y = story_top + 44 * row
        if y > HEIGHT - 40:
            break
        draw.text((48, y), _fit(draw, line, WIDTH - 96, font(24)), font=font(24), fill=muted)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


def first_name(name: str) -> str:
    """What the picture calls a player: the first word of the name the group knows."""
    words = name.split()
    return words[0] if words else name
