"""What issue 44 found beside where a tap's answer lands: a notice that looked like an error, a
number entered as points not doubled with the count it belongs to, a chart running on past the
rounds played, and the smaller things (the Players page's way on, the Changes list's cards, the
join link on the score table)."""

import colorsys
import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "app.css"


def theme_colours() -> dict[str, dict[str, str]]:
    """The custom properties of the light theme (:root) and the dark one (its media query)."""
    text = CSS.read_text()
    dark_at = text.index("@media (prefers-color-scheme: dark)")
    found = {}
    for theme, part in (("light", text[:dark_at]), ("dark", text[dark_at:])):
        block = part[part.index(":root") :]
        block = block[: block.index("}")]
        found[theme] = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))
    return found


def luminance(colour: str) -> float:
    def channel(c):
        c = int(c, 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(colour[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hue(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_notice_has_a_colour_of_its_own_not_the_errors(theme):
    colours = theme_colours()[theme]
    notice, error = colours["notice-bg"], colours["error-bg"]
    apart = abs(hue(notice) - hue(error)) % 360
    assert min(apart, 360 - apart) > 90, (notice, error)
    assert abs(hue(notice) - hue(colours["warn-bg"])) > 60  # nor a warning's
    assert contrast(colours["ink"], notice) >= 7  # the notice's words
    assert contrast(colours["felt"], notice) >= 4.5  # a link in it ("Reopen it")
    assert contrast(colours["notice-edge"], notice) >= 3  # its edge, seen apart from it


@pytest.mark.django_db
def test_a_finished_games_live_round_leads_not_to_its_dropped_round(signed_in, member, make_game):
    from games.engine import POINTS, WENT_OUT
    from games.models import Entry

    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = game.seats.all()
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H"), member)
    first.save_hand(bob, Entry(POINTS, "", 9), member)
    assert game.rounds.filter(number=2).exists()
    assert "Next ›" in signed_in.get(f"/games/{game.pk}/rounds/1/live/").content.decode()
    game.finish()
    for url in (f"/games/{game.pk}/rounds/1/", f"/games/{game.pk}/rounds/1/live/"):
        assert "Next ›" not in signed_in.get(url).content.decode(), url
    dropped = signed_in.get(f"/games/{game.pk}/rounds/2/").content.decode()
    assert "it is left out of the game" in dropped and "Still to enter" not in dropped
