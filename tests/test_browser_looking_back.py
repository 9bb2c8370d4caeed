"""A finished night on a phone: its story, the picture to share it through the phone's share
sheet, and the night's link for the chat (shared or copied)."""

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from games.models import Entry
from tests.browser import screenshot, signed_in_phone

pytestmark = pytest.mark.browser

# The phone's share sheet and clipboard, as a phone that has them offers them (headless Chromium
# has neither): what the page hands them is recorded.
SHARE_SHEET = """
window.__shared = [];
navigator.canShare = (data) => Boolean(data && (data.files || data.url));
navigator.share = async (data) => {
  const files = await Promise.all((data.files || []).map(async (file) => ({
    name: file.name, type: file.type, size: file.size,
    png: new Uint8Array(await file.slice(0, 8).arrayBuffer()).join(","),
  })));
  window.__shared.push({ files, url: data.url || null, title: data.title });
};
Object.defineProperty(navigator, "clipboard", {
  value: { writeText: async (text) => { window.__shared.push({ copied: text }); } },
});
"""
PNG_SIGNATURE = "137,80,78,71,13,10,26,10"


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
    context.add_init_script(SHARE_SHEET)
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
        # The file says what it shows, the winner first (its Description, as the alt text).
        assert image.text["Description"].startswith("Ann won Three Thirteen by 35.")

    # The share sheet gets the picture itself, a PNG named for the night.
    page.get_by_role("button", name="Share the picture").click()
    page.wait_for_function("() => window.__shared.length === 1")
    ((shared,),) = [entry["files"] for entry in page.evaluate("window.__shared")]
    name = f"game-night-{game.night.date.isoformat()}.png"
    assert (shared["name"], shared["type"], shared["png"]) == (name, "image/png", PNG_SIGNATURE)
    assert shared["size"] > 10_000

    # The night's link for the chat: made with one tap, then shared or copied as it is shown.
    page.get_by_role("button", name="Make a link to share").click()
    link = page.get_by_label("The night's link")
    expect(link).to_have_value(re.compile(rf"^{re.escape(live_server.url)}/shared/[\w-]+/$"))
    page.get_by_role("button", name="Share the link").click()
    page.get_by_role("button", name="Copy the link").click()
    expect(page.get_by_text("The link is copied.")).to_be_visible()
    said = page.evaluate("window.__shared")  # (recorded since the page came back with the link)
    assert said == [
        {
            "files": [],
            "url": link.input_value(),
            "title": f"Game night {game.night.date:%-d %B %Y}",
        },
        {"copied": link.input_value()},
    ]
    page.goto(link.input_value())
    expect(page.get_by_role("listitem")).to_have_text(["Ann won Three Thirteen by 35."])
    shown = page.get_by_role("img", name="Ann won Three Thirteen")
    expect(shown).to_have_js_property("naturalWidth", 1200)
    context.close()
