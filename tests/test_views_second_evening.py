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


@pytest.mark.django_db
def test_a_count_entered_as_points_is_doubled_too_and_the_banner_says_whose(
    signed_in, member, make_game
):
    from html import unescape

    from games.models import Hand
    from tests.helpers import save

    game = make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam", "Theo"), format="pool")
    maya, priya, sam, theo = game.seats.order_by("position")
    save(signed_in, game, 1, priya, outcome="points", points=23)
    save(signed_in, game, 1, sam, "7C 7H 7S KC KD KS 2H 5D 9S 10C JD 4S 6H")  # 97: no pure sequence
    save(signed_in, game, 1, theo, outcome="drop")
    save(signed_in, game, 1, maya, "AS 2S 3S 4S 5D 6D 7D 8C 9C 10C JH QH KH", outcome="went_out")
    points = dict(Hand.objects.values_list("seat__player__name", "points"))
    assert points == {"Maya": 0, "Priya": 46, "Sam": 194, "Theo": 20}
    page = unescape(signed_in.get(f"/games/{game.pk}/rounds/1/").content.decode())
    assert (
        "Maya declared four pure sequences: every other count is doubled (Priya's and Sam's "
        "counts); Theo's fixed penalty is not."
    ) in page
    priya_panel = page.split(f'id="hand-{priya.pk}"')[1].split("</section>")[0]
    assert "Doubled: Maya's melds are all pure" in priya_panel


@pytest.mark.django_db
def test_the_nights_chart_of_a_game_in_play_stops_at_the_rounds_played_and_shows_every_line(
    signed_in, member, make_game
):
    from games.engine import POINTS, WENT_OUT
    from games.models import Entry

    game = make_game(member, names=("Ann", "Bob", "Cid", "Dee"))
    ann, bob, cid, dee = game.seats.order_by("position")
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H"), member)
    for seat in (bob, cid, dee):  # three equal totals
        first.save_hand(seat, Entry(POINTS, "", 12), member)
    second = game.rounds.get(number=2)
    second.save_hand(bob, Entry(POINTS, "", 5), member)  # round 2 begun: only Bob's hand
    assert game.rounds.filter(number=3).exists() is False
    page = signed_in.get(game.night.get_absolute_url()).content.decode()
    lines = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(lines) == 4
    points = [line.split() for line in lines]
    assert [len(p) for p in points] == [1, 2, 1, 1]  # Bob's line alone reaches round 2
    ticks = re.findall(r'class="x-label"[^>]*>([^<]+)<', page)
    assert ticks == ["1", "2"]
    # Bob, Cid and Dee stand at 12 after round 1: three lines apart, not one over the others.
    after_first = {p[0] for p in points[1:]}
    assert len(after_first) == 3, after_first


@pytest.mark.django_db
def test_the_players_page_keeps_the_name_field_for_the_next_and_leads_on_to_a_game(signed_in):
    added = signed_in.post("/players/", {"name": "Zed"})
    assert added.status_code == 302 and added.url == "/players/?added=1"
    page = signed_in.get(added.url).content.decode()
    field = re.search(r'<input[^>]*name="name"[^>]*>', page).group(0)
    assert "autofocus" in field
    assert re.search(r'<a class="button primary wide" href="/games/new/">Start a game', page)
    # Opened afresh, the page does not take the keyboard.
    assert "autofocus" not in signed_in.get("/players/").content.decode()


@pytest.mark.django_db
def test_the_changes_show_cards_as_faces_and_join_comes_before_the_options(
    signed_in, member, make_game
):
    from tests.helpers import save

    game = make_game(member)
    ann = game.seats.get(position=0)
    save(signed_in, game, 1, ann, "2C QD KS")
    for headers in ({}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "round-changes-list"}):
        page = signed_in.get(f"/games/{game.pk}/rounds/1/", **headers).content.decode()
        changes = page[page.index('id="round-changes-list"') :].split("</ul>")[0]
        assert "2C QD KS" not in changes
        assert 'aria-label="Queen of diamonds"' in changes
    table = signed_in.get(f"/games/{game.pk}/").content.decode()
    assert table.index("Join this game") < table.index("Options of this game")


@pytest.mark.django_db
def test_a_finished_rounds_page_points_on_to_the_nights_next_game_live(
    signed_in, member, make_game
):
    from games.models import Game

    game = make_game(member, names=("Ann", "Bob"))
    game.finish()
    live = f"/games/{game.pk}/rounds/1/live/"
    before = signed_in.get(live)
    assert "has started" not in before.content.decode()
    rematch = Game.objects.start(
        group=game.group, kind=game.kind, players=["Bob", "Ann"], rules=game.rules, user=member
    )
    # The finished game's version moved: the phones on its pages are told, and swap the part in.
    after = signed_in.get(live, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    part = after.content.decode().split('id="round-next-game"')[1].split("</div>")[0]
    assert f'href="/games/{rematch.pk}/"' in part and "has started" in part
    assert "data-live-reload" not in part
    # Said to a screen reader, and pinned under the top bar (static/css/app.css) however far
    # down the finished round is being read.
    assert 'class="pinned-notice" role="status"' in part
