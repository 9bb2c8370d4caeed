"""Hostile and unusual photos: each is read or refused with a clear message, never a crash."""

import io
import struct
import zlib
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from games.vision import (
    MAX_BYTES,
    DamagedPhoto,
    NotAPhoto,
    PhotoTooLarge,
    TooManyPixels,
    read_cards,
)
from games.vision.photo import open_photo

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "vision"
HAND = Counter(["7H", "QS", "10D", "AC", "7H", "JK", "5S"])


def hand():
    return Image.open(FIXTURES / "hand.jpg").convert("RGB")


def encoded(image, kind="PNG", **options):
    buffer = io.BytesIO()
    image.save(buffer, kind, **options)
    return buffer.getvalue()


def png_declaring(width, height):
    """A PNG of a few hundred bytes whose header claims width x height pixels."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * 1000)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("data", [b"", b"hello, these are not the cards", b"\x89PNG\r\n\x1a\n"])
def test_what_is_not_an_image_is_refused_as_not_a_photo(data):
    with pytest.raises(NotAPhoto, match="not a photo the reader can open"):
        read_cards(data)


def test_a_pdf_or_svg_is_not_a_photo_either():
    with pytest.raises(NotAPhoto):
        read_cards(b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n")
    with pytest.raises(NotAPhoto):
        read_cards(b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')


def test_a_truncated_photo_is_refused_as_damaged():
    data = (FIXTURES / "hand.jpg").read_bytes()
    with pytest.raises(DamagedPhoto, match="damaged or incomplete"):
        read_cards(data[: len(data) // 2])


@pytest.mark.parametrize("size", [(100_000, 100_000), (9000, 9000)])
def test_a_decompression_bomb_is_refused_before_it_is_decoded(size):
    data = png_declaring(*size)
    assert len(data) < 1000
    with pytest.raises(TooManyPixels, match="too many pixels"):
        read_cards(data)


def test_an_upload_over_the_size_limit_is_refused_without_being_opened():
    with pytest.raises(PhotoTooLarge, match="too large"):
        read_cards(b"\xff\xd8" + b"\0" * MAX_BYTES)


def test_an_animation_is_read_from_its_first_frame_only():
    blank = Image.new("RGB", (960, 640), (40, 110, 60))
    data = encoded(blank, "GIF", save_all=True, append_images=[hand()], duration=100, loop=0)
    assert Image.open(io.BytesIO(data)).n_frames == 2
    assert read_cards(data) == []


def test_a_cmyk_jpeg_is_read_like_its_rgb_original():
    data = encoded(hand().convert("CMYK"), "JPEG", quality=92)
    assert Image.open(io.BytesIO(data)).mode == "CMYK"
    assert Counter(c.card for c in read_cards(data)) == HAND


def test_a_16_bit_png_is_scaled_down_to_8_bits():
    grey = Image.new("I;16", (40, 30), 0x8080)
    data = encoded(grey)
    assert Image.open(io.BytesIO(data)).mode.startswith("I;16")
    pixels, scale = open_photo(data)
    assert pixels.shape == (30, 40, 3) and scale == 1
    assert abs(int(pixels[0, 0, 0]) - 128) <= 1
    assert read_cards(data) == []


def test_a_transparent_png_is_read_on_white():
    image = hand().convert("RGBA")
    pixels, _ = open_photo(encoded(image))
    assert pixels.shape == (640, 960, 3)
    transparent = Image.new("RGBA", (50, 50), (0, 0, 0, 0))
    pixels, _ = open_photo(encoded(transparent.convert("P")))
    assert pixels.min() == 255


def test_an_exif_rotated_photo_is_read_upright_and_boxed_in_the_upright_frame():
    upright = read_cards(encoded(hand(), "JPEG", quality=95))
    stored = hand().rotate(90, expand=True)  # the sensor's frame: a quarter turn anticlockwise
    exif = Image.Exif()
    exif[0x0112] = 6  # shown after a quarter turn clockwise
    data = encoded(stored, "JPEG", quality=95, exif=exif.tobytes())
    assert Image.open(io.BytesIO(data)).size == (640, 960)
    turned = read_cards(data)
    assert Counter(c.card for c in turned) == Counter(c.card for c in upright) == HAND
    for card in turned:
        assert card.box[2] <= 960 and card.box[3] <= 640
        twin = min(
            (c for c in upright if c.card == card.card),
            key=lambda c: abs(c.box[0] - card.box[0]) + abs(c.box[1] - card.box[1]),
        )
        assert abs(twin.box[0] - card.box[0]) <= 8 and abs(twin.box[1] - card.box[1]) <= 8


def test_a_large_photo_is_shrunk_as_the_phone_would_and_boxed_in_its_own_pixels():
    big = Image.new("RGB", (3200, 2000), (40, 110, 60))
    big.paste(hand().resize((1920, 1280), Image.BICUBIC), (640, 360))
    data = encoded(big, "JPEG", quality=90)
    pixels, scale = open_photo(data)
    assert pixels.shape == (1000, 1600, 3) and scale == 2
    cards = read_cards(data)
    assert Counter(c.card for c in cards) == HAND
    # In the photo's own pixels, not the shrunk ones: on the hand (a box may run a few pixels
    # past the hand's edge where an index is cut by it, as the joker's is).
    margin = 24
    for card in cards:
        assert 640 - margin <= card.box[0] < card.box[2] <= 2560 + margin
        assert 360 - margin <= card.box[1] < card.box[3] <= 1640 + margin
