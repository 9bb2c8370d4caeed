"""A photo of a hand, sent for its panel: the cards the reader finds come back to be checked
and corrected before saving; a file that is no photo, a damaged or huge one, a decompression
bomb, an animated, CMYK or 16-bit image each get a clear message (never a 500), the photo is
never written anywhere, and only a phone that may save the hand may send its photo."""

import io
import re
import struct
import zlib
from datetime import date

import pytest
from django.core.files import uploadedfile
from django.test import Client
from PIL import Image

from games import vision
from games.models import Game, GameNight, GuestPass, Hand
from tests.helpers import seats, status_of

pytestmark = pytest.mark.django_db

FIXTURES = "tests/fixtures/vision"
HTMX = {"HTTP_HX_REQUEST": "true"}


def photo_url(game, seat, number=1):
    return f"/games/{game.pk}/rounds/{number}/seats/{seat.pk}/photo/"


def send(client, game, seat, data: bytes, name="hand.jpg", htmx=True):
    upload = io.BytesIO(data)
    upload.name = name
    return client.post(photo_url(game, seat), {"photo": upload}, **(HTMX if htmx else {}))


def image_bytes(mode="RGB", size=(64, 48), format="PNG", **options) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, 128 if mode != "RGB" else (30, 110, 60)).save(out, format, **options)
    return out.getvalue()


def fixture(name: str) -> bytes:
    with open(f"{FIXTURES}/{name}", "rb") as photo:
        return photo.read()


@pytest.fixture
def rummy(member, make_game):
    return make_game(member, kind="rummy13", names=("Ann", "Bob"))


@pytest.mark.parametrize(
    ("kind", "decks", "jokers"), [("gin", 1, None), ("rummy13", 2, 2), ("three-thirteen", 2, None)]
)
def test_a_photo_is_read_within_the_games_decks(
    signed_in, member, make_game, monkeypatch, kind, decks, jokers
):
    """The reader is told how many copies of each card the game's decks hold: a one-deck game's
    photo never reads a card twice. Jokers are limited only where the game plays with them (a
    printed joker in a game without is read, then left out and counted in the note)."""
    game = make_game(member, kind=kind, names=("Ann", "Bob"))
    told = []
    real = vision.read_cards

    def read_cards(data, supply=None):
        told.append(supply)
        return real(data, supply)

    monkeypatch.setattr(vision, "read_cards", read_cards)
    response = send(signed_in, game, seats(game)[0], fixture("hand.jpg"))
    assert status_of(response) == 200
    expected = dict.fromkeys(vision.LABELS[:-1], decks)
    assert told == [expected | ({"JK": jokers} if jokers is not None else {})]


def test_the_cards_of_a_photo_come_back_for_the_panel_unsaved(signed_in, rummy):
    seat = seats(rummy)[0]
    photo = fixture("hand.jpg")
    expected = vision.read_cards(photo)
    response = send(signed_in, rummy, seat, photo)
    assert status_of(response) == 200
    text = response.content.decode()
    shown = re.search(r'data-cards="([^"]*)"', text).group(1).split()
    assert sorted(shown) == sorted(reading.card for reading in expected)
    for reading in vision.unsure(expected):
        assert f'data-card="{reading.card}"' in text
    assert "Nothing is saved until you tap Save" in text
    assert not Hand.objects.exists()


def readings(*cards):
    return [vision.CardReading(card, 0.99, (0, 0, 10, 20), "2C", 0.0) for card in cards]


@pytest.mark.parametrize(
    "cards, said",
    [
        ("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "Found 13 of the 13 cards this hand holds."),
        (
            "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S",
            "Found 11 of the 13 cards this hand holds: 2 cards missing. Add what is missing",
        ),
        (
            "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AH",
            "Found 14 cards, but this hand holds 13: take out any that is not in it.",
        ),
    ],
    ids=["all", "two-missing", "one-too-many"],
)
def test_a_reading_says_how_many_cards_it_found_of_those_the_hand_holds(
    signed_in, rummy, monkeypatch, cards, said
):
    monkeypatch.setattr(vision, "read_cards", lambda data, supply: readings(*cards.split()))
    response = send(signed_in, rummy, seats(rummy)[0], fixture("hand.jpg"))
    assert status_of(response) == 200
    assert said in response.content.decode()


def test_the_count_follows_the_round_and_the_game(signed_in, member, make_game, monkeypatch):
    monkeypatch.setattr(vision, "read_cards", lambda data, supply: readings("7H", "8H", "9H"))
    thirteen = make_game(member, names=("Ann", "Bob"))  # Three Thirteen: 3 cards in round 1
    text = send(signed_in, thirteen, seats(thirteen)[0], b"photo").content.decode()
    assert "Found 3 of the 3 cards this hand holds." in text
    gin = make_game(member, kind="gin", names=("Ann", "Bob"))  # 10, or 11 for Big Gin
    text = send(signed_in, gin, seats(gin)[0], b"photo").content.decode()
    assert "Found 3 of the 10 or 11 cards this hand holds: 7 cards missing." in text


def test_the_photo_control_says_how_to_take_a_photo_that_reads(signed_in, rummy):
    page = signed_in.get(f"/games/{rummy.pk}/rounds/1/").content.decode()
    seat = seats(rummy)[0]
    help_id = f"photo-help-{seat.pk}"
    assert f'id="{help_id}">Fan or spread the cards so each corner shows.</p>' in page
    assert page.count(f'aria-describedby="{help_id}"') == 2  # the button and the file input


def test_without_javascript_the_round_page_shows_the_panel_holding_the_photos_cards(
    signed_in, rummy
):
    seat = seats(rummy)[0]
    photo = fixture("hand.jpg")
    response = send(signed_in, rummy, seat, photo, htmx=False)
    assert status_of(response) == 200
    text = response.content.decode()
    cards = " ".join(reading.card for reading in vision.read_cards(photo))
    assert f'name="cards" value="{cards}"' in text
    assert not Hand.objects.exists()


def noise_jpeg() -> bytes:
    out = io.BytesIO()
    Image.effect_noise((400, 300), 60).convert("RGB").save(out, "JPEG")
    return out.getvalue()


def bomb() -> bytes:
    """A few hundred bytes of PNG that declare 40,000 x 40,000 pixels."""
    header = struct.pack(">IIBBBBB", 40_000, 40_000, 8, 0, 0, 0, 0)

    def chunk(kind, data):
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = zlib.compress(b"\x00" * 1000)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def animated_gif() -> bytes:
    frames = [Image.new("P", (40, 30), colour) for colour in (1, 2, 3)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


@pytest.mark.parametrize(
    "data, said",
    [
        (b"7H 8H 9H, not a photo", "not a photo"),
        (noise_jpeg()[:6000], "damaged"),
        (bomb(), "too many pixels"),
        (b"", "not a photo"),
    ],
    ids=["text", "truncated", "decompression-bomb", "empty"],
)
def test_a_file_the_reader_cannot_open_is_refused_by_name(signed_in, rummy, data, said):
    seat = seats(rummy)[0]
    response = send(signed_in, rummy, seat, data)
    assert status_of(response) == 422
    # To the page's script: 200, the refusal's status in X-Refused (no console error).
    assert response.status_code == 200 and response["X-Refused"] == "422"
    text = response.content.decode()
    assert said in text.lower() and "data-cards" not in text
    assert send(signed_in, rummy, seat, data, htmx=False).status_code == 422


@pytest.mark.parametrize(
    "data",
    [
        animated_gif(),
        image_bytes("CMYK", format="JPEG"),
        image_bytes("I;16", format="PNG"),
        fixture("backs.jpg"),
    ],
    ids=["animated", "cmyk", "16-bit", "card-backs"],
)
def test_odd_images_are_read_and_a_photo_without_cards_finds_none(signed_in, rummy, data):
    seat = seats(rummy)[0]
    response = send(signed_in, rummy, seat, data)
    assert status_of(response) == 200
    assert "No cards were found in this photo" in response.content.decode()


def test_a_huge_upload_is_refused_by_its_size_and_never_written(
    signed_in, rummy, settings, tmp_path, monkeypatch
):
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    written = []
    original = uploadedfile.TemporaryUploadedFile.__init__
    monkeypatch.setattr(
        uploadedfile.TemporaryUploadedFile,
        "__init__",
        lambda self, *args, **kwargs: written.append(args) or original(self, *args, **kwargs),
    )
    seat = seats(rummy)[0]
    huge = send(signed_in, rummy, seat, b"\xff" * (30 * 2**20))
    assert status_of(huge) == 422
    assert "too large" in huge.content.decode()
    # An upload under the limit but over Django's in-memory threshold stays in memory too.
    big = b"\x89PNG\r\n\x1a\n" + bytes(3 * 2**20)
    response = send(signed_in, rummy, seat, big)
    assert status_of(response) == 422
    assert list(tmp_path.iterdir()) == [] and written == []
    # The same upload elsewhere in Django would have gone to a temporary file.
    uploadedfile.TemporaryUploadedFile("photo.jpg", "image/jpeg", 3 * 2**20, None).close()
    assert len(written) == 1


def test_a_photo_is_read_only_for_who_may_save_the_hand(rummy, member, make_member, make_game):
    seat = seats(rummy)[0]
    photo = fixture("hand.jpg")
    stranger = Client()
    stranger.force_login(make_member("zed"))
    assert status_of(send(stranger, rummy, seat, photo)) == 404
    assert status_of(send(Client(), rummy, seat, photo)) == 302
    guest = Client()
    guest.post(GuestPass.objects.create(game=rummy).get_absolute_url(), {"device": "Bob's"})
    assert status_of(send(guest, rummy, seat, photo)) == 200
    other = make_game(member, names=("Dee", "Eve"))
    # Another night's game (a guest's link lets it into the evening's later games only).
    night = GameNight.objects.create(group=other.group, date=date(2026, 1, 2))
    Game.objects.filter(pk=other.pk).update(night=night)
    assert status_of(send(guest, other, seats(other)[0], photo)) in (302, 404)


def test_five_crowns_panels_have_no_photo_control(signed_in, member, make_game):
    crowns = make_game(member, kind="five-crowns")
    page = signed_in.get(f"/games/{crowns.pk}/rounds/1/").content.decode()
    assert "Read cards from a photo" not in page
    assert status_of(send(signed_in, crowns, seats(crowns)[0], fixture("hand.jpg"))) == 422
    rummy = make_game(member, kind="rummy13", names=("Ann", "Bob"))
    page = signed_in.get(f"/games/{rummy.pk}/rounds/1/").content.decode()
    assert 'capture="environment"' in page and "Read cards from a photo" in page
