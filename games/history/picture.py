"""A night's result as a picture to share (PNG, drawn with Pillow): the standings of each game,
the winner, two or three lines of the story, in the app's colours, light or dark. It holds only
what it is given: first names, points, the story's words; never a link."""

import io
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

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
    number: str = ""  # what tells it from a game of the same kind that night: ", game 2"


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


def _wrapped(draw, text: str, width: int, face, most: int) -> list[str] | None:
    """The text in at most `most` lines of `width` pixels, broken between words; None if it
    takes more."""
    lines: list[str] = []
    for word in text.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(joined, font=face) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
            if len(lines) > most:
                return None
    return lines


STORY_ROW = 34  # px a row of the story's lines takes (26 px text)


def _story(draw, lines, x, y, width, foot, rows_a_line, ink) -> None:
    """The story's lines from (x, y), each on up to `rows_a_line` rows of `width` pixels, as
    many as fit above `foot`; a line cut short (longer than its rows, or than the room left)
    ends with an ellipsis."""
    face = font(26)
    for line in lines:
        rows = _wrapped(draw, line, width, face, 99) or [line]
        shown = []
        for part in rows[:rows_a_line]:
            if y + STORY_ROW - 4 > foot:
                break
            shown.append((y, part))
            y += STORY_ROW
        for row, (at, part) in enumerate(shown):
            cut = row == len(shown) - 1 and len(rows) > len(shown)
            draw.text(
                (x, at), _fit(draw, part + (" …" if cut else ""), width, face), font=face, fill=ink
            )
        y += 10


def draw_night(
    title: str,
    headline: str,
    games: list[GameShown],
    lines: list[str],
    theme: str = "light",
    description: str = "",
) -> bytes:
    """The picture as PNG bytes; the file also carries `title` and what it shows in words
    (`description`: the page's alternative text), as the PNG's Title and Description."""
    page, surface, ink, muted, felt, on_felt, leader_bg, gold = THEMES[theme]
    image = Image.new("RGB", (WIDTH, HEIGHT), page)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 124), fill=felt)
    draw.text((48, 20), "♠♥ " + _fit(draw, title, 1060, font(30)), font=font(30), fill=on_felt)
    # The headline as large as fits on one line, down to 32 px; longer (a night of several
    # games), on two lines, as large as they fit (26 px down to 20); only then cut.
    one_line = next(
        (n for n in (44, 38, 32) if draw.textlength(headline, font=font(n, True)) <= WIDTH - 96),
        None,
    )
    if one_line is not None:
        draw.text((48, 60), headline, font=font(one_line, True), fill=on_felt)
    else:
        for size in (26, 22, 20):
            small = font(size, True)
            rows = _wrapped(draw, headline, WIDTH - 96, small, 2)
            if rows is not None:
                break
        if rows is None:  # longer still (a night of many games): two lines, the second cut
            rows = _wrapped(draw, headline, WIDTH - 96, small, 99) or [headline]
            rows = rows[:1] + [" ".join(rows[1:])] if len(rows) > 1 else rows
        for row, part in enumerate(rows):
            text = _fit(draw, part, WIDTH - 96, small)
            draw.text((48, 58 + (size + 6) * row), text, font=small, fill=on_felt)
    shown = games[:3]
    columns = max(1, len(shown))
    most = max((len(g.standings) for g in shown), default=0)  # every player, up to eight
    # One game with its story: the standings on the left, the story's lines beside them.
    beside = columns == 1 and bool(lines)
    gap = 24
    panes = 2 if beside else columns
    box_w = (WIDTH - 96 - gap * (panes - 1)) // panes
    top, foot = 148, HEIGHT - 16
    # One game of a few players fills its half: larger rows read better in a chat.
    scale = 1.0 if columns > 1 else 1.5 if most <= 4 else 1.2
    row_h, head_h = round(44 * scale), round(56 * scale)
    # Room kept under the standings for three rows of the story, where it goes under them.
    story_room = STORY_ROW * 3 + 42 if lines and not beside else 0
    room = foot - story_room - top - head_h
    if most and row_h * most > room:
        row_h = room // most
    size = min(round(26 * scale), row_h - 10)
    face, bold = font(size), font(size, True)
    for index, game in enumerate(shown):
        left = 48 + index * (box_w + gap)
        bottom = top + head_h + row_h * len(game.standings)
        draw.rounded_rectangle((left, top, left + box_w, bottom), 14, fill=surface)
        state = "" if game.finished else " · in play"
        # As large as fits, down to 20 px; then the kind's name is cut, never its number or
        # its state.
        kept = game.number + state
        heading = next(
            (
                font(n, True)
                for n in range(size, 19, -2)
                if draw.textlength(game.kind + kept, font=font(n, True)) <= box_w - 40
            ),
            font(min(size, 20), True),
        )
        room = box_w - 40 - draw.textlength(kept, font=heading)
        kind = _fit(draw, game.kind, room, heading) + kept
        draw.text((left + 20, top + round(14 * scale)), kind, font=heading, fill=ink)
        for row, standing in enumerate(game.standings):
            y = top + head_h + row_h * row
            if standing.place == 1:
                draw.rectangle((left + 8, y - 4, left + box_w - 8, y + row_h - 8), fill=leader_bg)
            place_colour = gold if standing.place == 1 else muted
            draw.text((left + 20, y), str(standing.place), font=bold, fill=place_colour)
            dot = min(round(22 * scale), size)
            dot_x, dot_y = left + 20 + round(36 * scale), y + (size - dot) // 2 + 4
            draw.ellipse((dot_x, dot_y, dot_x + dot, dot_y + dot), fill=standing.colour)
            points = str(standing.points)
            points_w = draw.textlength(points, font=bold)
            name_x = dot_x + dot + 14
            name = _fit(draw, standing.name, left + box_w - 40 - points_w - name_x, face)
            draw.text((name_x, y), name, font=face, fill=ink)
            draw.text((left + box_w - 20 - points_w, y), points, font=bold, fill=ink)
    lines = lines[:3]
    if len(games) > len(shown):  # said, not dropped without a word
        # Said first: the story's last lines are the ones the room may not hold.
        more = len(games) - len(shown)
        lines = [f"{more} more game{'s' if more > 1 else ''} on the night's page.", *lines[:2]]
    if beside:
        _story(draw, lines, 48 + box_w + gap, top + 8, box_w, foot, 4, muted)
    else:
        _story(draw, lines, 48, top + head_h + row_h * most + 32, WIDTH - 96, foot, 2, muted)
    out = io.BytesIO()
    words = PngImagePlugin.PngInfo()
    words.add_itxt("Title", title)
    words.add_itxt("Description", description or headline)
    image.save(out, format="PNG", optimize=False, compress_level=3, pnginfo=words)
    return out.getvalue()


def first_name(name: str) -> str:
    """The first word of the name the group knows."""
    words = name.split()
    return words[0] if words else name


def short_names(names: dict) -> dict:
    """What the picture and the night's headline call each player (`names`: key -> the name
    the group knows): the first name; where two players share it, with their last name's
    initial ("Maya R.", "Maya S."); where that is shared too, numbered ("Maya R. (1)")."""
    names = {key: unicodedata.normalize("NFC", name) for key, name in names.items()}
    firsts = {key: first_name(name) for key, name in names.items()}
    taken = Counter(firsts.values())
    short = {}
    for key, name in names.items():
        words = name.split()
        if taken[firsts[key]] == 1 or len(words) < 2:
            short[key] = firsts[key]
        else:
            short[key] = f"{words[0]} {words[-1][0]}."
    # Still alike ("Maya Rose", "Maya Ross"; two Anns): numbered, never the whole name.
    again = Counter(short.values())
    seen: Counter = Counter()
    for key in sorted(short):
        if again[short[key]] > 1:
            seen[short[key]] += 1
            short[key] = f"{short[key]} ({seen[short[key]]})"
    return short
