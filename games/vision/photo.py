"""Opening a photo safely, in memory only: size limits, one frame, EXIF turned, RGB out."""

import io
import os

import numpy as np
from PIL import Image, ImageOps

LONGEST_SIDE = 1600  # what the phone sends: the reader shrinks anything larger to this
MAX_BYTES = int(os.environ.get("SCOREKEEPER_PHOTO_MAX_BYTES", 15 * 1024 * 1024))
MAX_PIXELS = int(os.environ.get("SCOREKEEPER_PHOTO_MAX_PIXELS", 50_000_000))
FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "MPO")
FORMAT_WORDS = "a JPEG, PNG, WebP or GIF photo"


class PhotoError(ValueError):
    """A photo the reader refuses; its message is meant for the person who sent it."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class NotAPhoto(PhotoError):
    def __init__(self):
        super().__init__(f"This file is not a photo the reader can open: send {FORMAT_WORDS}.")


class DamagedPhoto(PhotoError):
    def __init__(self):
        super().__init__("This photo is damaged or incomplete: take it again.")


class PhotoTooLarge(PhotoError):
    def __init__(self, size_bytes):
        super().__init__(
            f"This photo is too large ({size_bytes / 1024 / 1024:.0f} MB): "
            f"send one under {MAX_BYTES // 1024 // 1024} MB."
        )


class TooManyPixels(PhotoError):
    def __init__(self, width=None, height=None):
        size = f" ({width} x {height})" if width else ""
        super().__init__(
            f"This photo has too many pixels{size}: "
            f"send one under {MAX_PIXELS // 1_000_000} megapixels."
        )


def open_photo(data: bytes, longest_side: int = LONGEST_SIDE):
    """The photo as an RGB uint8 array no longer than `longest_side`, and the factor from its
    pixels to those of the photo as given (after its EXIF rotation)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise NotAPhoto()
    if len(data) > MAX_BYTES:
        raise PhotoTooLarge(len(data))
    if len(data) == 0:
        raise NotAPhoto()
    try:
        image = Image.open(io.BytesIO(data), formats=FORMATS)
    except Image.DecompressionBombError as error:
        raise TooManyPixels() from error
    except Exception as error:  # Pillow answers a stranger's bytes with many kinds of error
        raise NotAPhoto() from error
    with image:
        width, height = image.size
        if width * height > MAX_PIXELS or width <= 0 or height <= 0:
            raise TooManyPixels(width, height)
        try:
            return _decode(image, longest_side)
        except PhotoError:
            raise
        except Image.DecompressionBombError as error:
            raise TooManyPixels(width, height) from error
        except (OSError, SyntaxError, EOFError) as error:
            raise DamagedPhoto() from error
        except Exception as error:
            raise NotAPhoto() from error


def _decode(image, longest_side):
    image.seek(0)  # an animation's first frame
    orientation = image.getexif().get(0x0112, 1)
    width, height = image.size
    if orientation in (5, 6, 7, 8):
        width, height = height, width
    scale = min(1.0, longest_side / max(width, height))
    if image.format in ("JPEG", "MPO") and scale < 1:
        # Decode at a fraction of the size straight from the JPEG: faster and less memory.
        w, h = image.size
        image.draft("RGB", (max(1, int(w * scale) + 1), max(1, int(h * scale) + 1)))
    image.load()
    image = ImageOps.exif_transpose(image)
    image = _to_rgb(image)
    if max(image.size) > longest_side:
        shrink = longest_side / max(image.size)
        size = (max(1, round(image.width * shrink)), max(1, round(image.height * shrink)))
        image = image.resize(size, Image.BILINEAR, reducing_gap=2.0)
    return np.asarray(image, dtype=np.uint8), width / image.width


def _to_rgb(image):
    """Any mode to 8-bit RGB: 16-bit grey scaled down, CMYK converted, transparency on white."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        values = np.asarray(image, dtype=np.float64)
        top = 65535.0 if image.mode.startswith("I;16") or values.max() > 255 else 255.0
        grey = np.clip(values / top * 255.0, 0, 255).astype(np.uint8)
        return Image.fromarray(grey).convert("RGB")
    if image.mode == "F":
        return Image.fromarray(np.clip(np.asarray(image), 0, 255).astype(np.uint8)).convert("RGB")
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    return image.convert("RGB")
