"""A hand read from a photo on a phone at the table (Chromium, 390x844, a network answering in
300 ms): a real photo of a hand fanned on a table set on the hand's photo control, every card of
it appears chosen, the count of cards found against those the hand holds is said, the unsure
ones are marked, one is corrected with the picker and the hand saved, scored as if tapped; a
second phone sees it live; a refused file leaves the panel as it was; offline, the control says
it needs the connection."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import photos
from games.engine.cards import parse_card
from games.models import Entry, Round
from tests.browser import (
    SETTLED,
    open_panel,
    panel_for,
    save_round,
    screenshot,
    signed_in_phone,
    slow_network,
)

pytestmark = pytest.mark.browser

# A real photograph of four queens fanned on a table, from the held-out part of the real set
# (tests/fixtures/vision/README.md): never trained or tuned on.
PHOTO = Path(__file__).resolve().parent / "fixtures" / "vision" / "real-fan.jpg"
FAN = ["QC", "QD", "QH", "QS"]


def least_sure(readings):
    """The reader's own doubt is its tests' business: here the least sure card is the one the
    page must mark, so the marking is always tried."""
    return sorted(readings, key=lambda reading: reading.confidence)[:1]


@pytest.mark.waits
def test_a_photo_fills_the_panel_to_check_correct_and_save(
    browser, live_server, member, make_game, monkeypatch, django_user_model
):
    from games.models import Membership

    monkeypatch.setattr(photos.vision, "unsure", least_sure)
    size = len(FAN)
    # A round whose hands hold as many cards as the photo shows (Three Thirteen, jokers in).
    game = make_game(member, names=("Ann", "Bob", "Cid"), jokers=2)
    number = size - 2
    for earlier in range(1, number):
        entries = {"Ann": Entry("went_out"), "Bob": Entry("points", "", 5)}
        save_round(game, earlier, entries | {"Cid": Entry("points", "", 7)})
    bob = django_user_model.objects.create_user(username="bob", password="x")
    Membership.objects.create(user=bob, group=game.group)
    context, page = signed_in_phone(browser, live_server, member)
    bob_context, bob_page = signed_in_phone(browser, live_server, bob)
    try:
        url = f"/games/{game.pk}/rounds/{number}/"
        bob_page.goto(url)
        page.goto(url)
        slow_network(page)
        panel = open_panel(page, "Ann")
        # A refused file first: the panel keeps what it held.
        panel.locator('button.pick[value="2H"]').click()
        panel.locator("[data-photo-input]").set_input_files(
            files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"7H 8H 9H"}]
        )
        expect(panel.locator(".photo-reading .field-error")).to_contain_text(
            "not a photo", timeout=SETTLED
        )
        expect(panel.locator(".chosen-card")).to_have_count(1)
        # The real photo.
        panel.locator("[data-photo-input]").set_input_files(str(PHOTO))
        expect(panel.locator(".photo-note")).to_contain_text(
            f"Found {size} of the {size} cards this hand holds.", timeout=SETTLED
        )
        expect(panel.locator(".chosen-card")).to_have_count(size)
        shown = [card.get_attribute("value") for card in panel.locator(".chosen-card").all()]
        assert sorted(shown) == FAN
        marked = panel.locator(".chosen-card.unsure")
        expect(marked).to_have_count(1)
        # The card the reading doubts (of the photo as the phone shrank and sent it) is the one
        # marked, with what to check in its name.
        check = panel.locator(".photo-reading li[data-card]")
        expect(check).to_have_count(1)
        doubt, words = check.get_attribute("data-card"), check.get_attribute("data-words")
        assert words.startswith("check: ")
        expect(marked).to_have_attribute("value", doubt)
        expect(marked).to_have_accessible_name(f"Remove {parse_card(doubt).name} {words}")
        expect(marked.locator(".check-mark")).to_be_visible()
        screenshot(page, "photo-reading-light")
        page.emulate_media(color_scheme="dark")
        screenshot(page, "photo-reading-dark", audit=False)
        page.emulate_media(color_scheme="light")
        # Corrected with the picker: the unsure card out, another in.
        marked.click()
        expect(panel.locator(".chosen-card")).to_have_count(size - 1)
        expect(panel.locator(".chosen-card.unsure")).to_have_count(0)
        spare = "KC"  # not in the photo's hand
        panel.locator(f'button.pick[value="{spare}"]').click()
        expect(panel.locator(".count")).to_have_text(f"{size} of {size} cards")
        chosen = [card.get_attribute("value") for card in panel.locator(".chosen-card").all()]
        panel.get_by_role("button", name="Save Ann's hand").click()
        expect(panel_for(page, "Ann").locator(".hand-line .saved")).to_be_visible(timeout=SETTLED)
        round_ = Round.objects.get(game=game, number=number)
        hand = round_.hands.get(seat__player__name="Ann")
        assert spare in chosen and sorted(hand.cards.split()) == sorted(chosen)
        assert hand.points == round_.score(Entry("cards", " ".join(chosen))).points
        # The other phone sees it, live.
        expect(panel_for(bob_page, "Ann").locator(".hand-line")).to_contain_text(
            f"· {hand.points}", timeout=SETTLED
        )
        # Offline, the control says it needs the connection; the picker still works.
        page.context.set_offline(True)
        bob_panel = open_panel(page, "Bob")
        expect(bob_panel.locator("[data-photo-button]")).to_be_disabled()
        expect(bob_panel.locator("[data-photo-button]")).to_contain_text("needs the connection")
        bob_panel.locator('button.pick[value="5H"]').click()
        expect(bob_panel.locator(".chosen-card")).to_have_count(1)
    finally:
        context.close()
        bob_context.close()
