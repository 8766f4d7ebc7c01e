"""Image bytes that stay encoded until a back end needs pixels.

Benchmarks hold thousands of images; decoding them all at load time would make
memory grow with the dataset. Loaders keep the encoded bytes, check only the
header (format and size, so a decompression bomb is refused before any pixel is
decoded), and decode on demand.
"""

from __future__ import annotations

import base64
import binascii
import io
import warnings

from PIL import Image

from .errors import DataError

#: Largest image we decode, in pixels. Benchmark images are at most a few
#: megapixels; anything far larger is a corrupt or hostile file.
MAX_PIXELS = 40_000_000

_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp", "BMP": "image/bmp"}


def b64_to_bytes(text: str, file: str, row: object, field: str) -> bytes:
    """Decode a base64 image cell, naming the cell on failure."""
    try:
        return base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise DataError(file, row, field, f"image is not valid base64 ({exc})") from None


def check_header(data: bytes, file: str, row: object, field: str) -> str:
    """Read only the image header; return the format or raise a located DataError.

    Refuses images whose declared size exceeds MAX_PIXELS (decompression bombs)
    without decoding their pixels.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
                fmt = img.format or ""
    except Image.DecompressionBombError as exc:
        raise DataError(file, row, field, f"image refused as a decompression bomb ({exc})") from None
    except Image.DecompressionBombWarning as exc:
        raise DataError(file, row, field, f"image refused as a decompression bomb ({exc})") from None
    except Exception as exc:  # PIL raises many types for bad data
        raise DataError(file, row, field, f"image cannot be decoded ({type(exc).__name__}: {exc})") from None
    if width * height > MAX_PIXELS:
        raise DataError(
            file, row, field, f"image refused as a decompression bomb ({width}x{height} > {MAX_PIXELS} pixels)"
        )
    return fmt


def decode(data: bytes, file: str = "<memory>", row: object = "?", field: str = "image") -> Image.Image:
    """Decode image bytes to an RGB PIL image (after the header checks)."""
    check_header(data, file, row, field)
    try:
        with Image.open(io.BytesIO(data)) as img:
            img.load()
            return img.convert("RGB")
    except Exception as exc:
        raise DataError(file, row, field, f"image cannot be decoded ({type(exc).__name__}: {exc})") from None


def data_url(data: bytes) -> str:
    """A ``data:`` URL for encoded image bytes, without re-encoding them."""
    with Image.open(io.BytesIO(data)) as img:
        mime = _MIME.get(img.format or "", "image/png")
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
