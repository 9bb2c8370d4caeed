"""What issue 37 found out of place: the history's game nights say who won as the home page
does, a player with one game has one line for it, a chart's only point is off its axis, the
pool limit shows only for pool play."""

import itertools

import pytest

from games.charts import LEFT, WIDTH, line_chart
from games.engine import POINTS, WENT_OUT
from games.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(member, make_game):
    game = make_game(member, names=("Ann", "Bob"))
    ann, bob = game.seats.order_by("position")
    first = game.rounds.get()
    first.save_hand(ann, Entry(WENT_OUT, "5H 6H 7H"), member)
    first.save_hand(bob, Entry(POINTS, "", 9), member)
    game.finish()
    return game


def test_both_pages_of_game_nights_say_who_won_each_game(signed_in, finished):
    for url in ("/", "/nights/"):
        page = signed_in.get(url).content.decode()
        assert "Won by" in page and "<strong>Ann</strong>" in page, url


def test_a_player_with_one_game_has_one_line_for_it(signed_in, finished):
    ann = finished.seats.get(position=0).player
    page = signed_in.get(f"/players/{ann.pk}/").content.decode()
    assert "Only game so far" in page
    assert "Best game" not in page and "Worst game" not in page


def test_a_charts_only_point_sits_in_the_middle_not_on_the_axis():
    chart = line_chart([("Ann", "#000", [0])], ["20 Nov"], "Ann's totals")
    x, _ = chart["lines"][0].last
    assert x > LEFT + 20 and x == pytest.approx((LEFT + WIDTH - 10) / 2, abs=1)
    two = line_chart([("Ann", "#000", [0, 5])], ["1", "2"], "Ann's totals")
    assert float(two["lines"][0].points.split()[0].split(",")[0]) > LEFT


def test_the_pool_limit_shows_only_with_pool_play(signed_in):
    page = signed_in.get("/games/new/").content.decode()
    limit = page.split('id="id_r_pool_limit')[0].rsplit('<div class="field', 1)[1]
    assert 'data-shown-if="r_format" data-shown-value="pool"' in limit


def test_the_score_table_names_a_wild_rank_by_round_only_where_it_changes(
    signed_in, member, make_game, finished
):
    rummy = make_game(member, kind="rummy13", names=("Ann", "Bob"), wild_rank="7")
    ann, bob = rummy.seats.order_by("position")
    rummy.rounds.get().save_hand(ann, Entry(POINTS, "", 0), member)
    rummy.rounds.get().save_hand(bob, Entry(POINTS, "", 30), member)
    table = signed_in.get(f"/games/{rummy.pk}/").content.decode().split('class="scores"')[1]
    assert "jokers too" not in table.split("</table>")[0]  # said once, in the options
    three_thirteen = signed_in.get(f"/games/{finished.pk}/").content.decode()
    assert "<small>3s wild</small>" in three_thirteen


def test_a_charts_date_labels_never_touch_and_stay_within_the_chart():
    from games.charts import CHAR_WIDTH, LABEL_GAP

    for count in (2, 3, 9, 10, 17, 30, 61):
        labels = [f"{1 + i % 28} Nov 26" for i in range(count)]
        chart = line_chart([("Ann", "#000", list(range(count)))], labels, "Ann's rating")
        spans = []
        for tick in chart["ticks"]:
            width = len(tick["label"]) * CHAR_WIDTH
            left = {"middle": tick["x"] - width / 2, "end": tick["x"] - width}.get(
                tick["anchor"], tick["x"]
            )
            spans.append((left, left + width))
        assert spans and spans[0][0] >= 0 and spans[-1][1] <= WIDTH, (count, spans)
        for (_, right), (left, _) in itertools.pairwise(spans):
            assert left >= right + LABEL_GAP, (count, spans)
    rounds = line_chart([("Ann", "#000", list(range(11)))], [str(n) for n in range(1, 12)], "")
    assert [tick["label"] for tick in rounds["ticks"]] == [str(n) for n in range(1, 12)]
