"""A finished night on a phone: its story, and the picture to share it."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from games.models import Entry
from tests.browser import screenshot, signed_in_phone

pytestmark = pytest.mark.browser


def test_a_finished_night_tells_its_story_and_shares_its_picture(
    browser, live_server, member, make_game
):
    game = make_game(member, names=("Ann", "Bob", "Cid"))
    seats = {seat.player.name: seat for seat in game.seats.select_related("player")}
    rounds = [
        {"Ann": "5H 6H 7H", "Bob": "KS QD 2C", "Cid": "KC QH AD"},
        {"Ann": "5H 6H 7H 8H", "Bob": "AS 2D 5C 5D", "Cid": "9S 9D 2C 2D"},
    ]
    for number, cards in enumerate(rounds, start=1):
        round_ = game.rounds.get(number=number)
        for name, held in cards.items():
            round_.save_hand(seats[name], Entry("went_out" if name == "Ann" else "cards", held))
    game.refresh_from_db()
    game.finish()
    context, page = signed_in_phone(browser, live_server, member)
    page.goto(f"/nights/{game.night_id}/")
    story = page.get_by_role("region", name="The night's story")
    expect(story.get_by_role("link", name="Ann won Three Thirteen with 0 points")).to_be_visible()
    expect(story.get_by_role("link", name="Best hand: Ann went out in round 2")).to_be_visible()
    screenshot(page, "looking-back-night")

    story.get_by_role("link", name="Share the picture").click()
    picture = page.get_by_role("img", name="Ann won Three Thirteen")
    expect(picture).to_be_visible()
    expect(picture).to_have_js_property("naturalWidth", 1200)  # loaded, and of its size
    screenshot(page, "looking-back-share")
    for theme in ("light", "dark"):
        answer = page.request.get(f"/nights/{game.night_id}/picture.png?theme={theme}")
        assert answer.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(answer.body()))
        assert (image.format, image.size) == ("PNG", (1200, 630))
    context.close()
