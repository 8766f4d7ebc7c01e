"""Image bytes that stay encoded until a back end needs pixels.

Benchmarks hold thousands of images; keeping them decoded would make memory
grow with the dataset. Loaders keep the encoded bytes and ``verify`` each one at
load, before any request is sent: the header first (format and size, so a
decompression bomb is refused before any pixel is decoded), then the file's
structure and a full decode whose pixels are dropped at once, so a damaged image
fails with its file, row and field instead of reaching the model half decoded.
"""

from __future__ import annotations

import base64
import binascii
import io
import struct
import warnings

from PIL import Image

from .errors import DataError
from .image_integrity import container_problem, strict_load

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


_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # start-of-frame markers carry the size


def _fast_header(data: bytes) -> tuple[str, int, int] | None:
    """Format and size of a PNG or JPEG from its header bytes, without PIL.

    Opening thousands of images with PIL only to read their size costs most of
    a load; PNG keeps the size at a fixed offset and JPEG in its first
    start-of-frame segment. Anything else (or anything odd) returns None and
    goes through PIL.
    """
    if data[:8] == _PNG_MAGIC and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return "PNG", width, height
    if data[:2] != b"\xff\xd8":
        return None
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:
            i += 2
            continue
        if marker in _JPEG_SOF:
            if i + 9 > n:
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return "JPEG", width, height
        i += 2 + struct.unpack(">H", data[i + 2 : i + 4])[0]
    return None


def check_header(data: bytes, file: str, row: object, field: str) -> str:
    """Read only the image header; return the format or raise a located DataError.

    Refuses images whose declared size exceeds MAX_PIXELS (decompression bombs)
    without decoding their pixels.
    """
    fast = _fast_header(data)
    if fast is not None:
        fmt, width, height = fast
    else:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                with Image.open(io.BytesIO(data)) as img:
                    width, height = img.size
                    fmt = img.format or ""
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise DataError(file, row, field, f"image refused as a decompression bomb ({exc})") from None
        except Exception as exc:  # PIL raises many types for bad data
            raise DataError(file, row, field, f"image cannot be decoded ({type(exc).__name__}: {exc})") from None
    if width * height > MAX_PIXELS:
        raise DataError(
            file, row, field, f"image refused as a decompression bomb ({width}x{height} > {MAX_PIXELS} pixels)"
        )
    if width == 0 or height == 0:
        raise DataError(file, row, field, f"image has no pixels ({width}x{height})")
    return fmt


def verify(data: bytes, file: str, row: object, field: str) -> str:
    """Check an image completely (header, structure, every pixel) and return its format; nothing decoded is kept.

    Independent of ``ImageFile.LOAD_TRUNCATED_IMAGES`` (see image_integrity), so
    a truncated or corrupt body is a located DataError even inside lmms-eval.
    """
    with _open_verified(data, file, row, field) as img:
        return img.format or ""


def decode(data: bytes, file: str = "<memory>", row: object = "?", field: str = "image") -> Image.Image:
    """Decode image bytes to an RGB PIL image, with the same checks as ``verify``."""
    img = _open_verified(data, file, row, field)
    return img if img.mode == "RGB" else img.convert("RGB")


def _open_verified(data: bytes, file: str, row: object, field: str) -> Image.Image:
    """The image with every pixel decoded, after the header and structure checks; truncation is always an error."""
    fmt = check_header(data, file, row, field)
    problem = container_problem(data, fmt)
    if problem is not None:
        raise DataError(file, row, field, f"image refused: {problem}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data), formats=[fmt] if fmt else None)
            strict_load(img)
            return img
    except Exception as exc:  # PIL raises many types for bad data
        raise DataError(file, row, field, f"image cannot be decoded ({type(exc).__name__}: {exc})") from None


def data_url(data: bytes) -> str:
    """A ``data:`` URL for encoded image bytes, without re-encoding them."""
    fast = _fast_header(data)
    if fast is not None:
        return f"data:{_MIME[fast[0]]};base64," + base64.b64encode(data).decode("ascii")
    with Image.open(io.BytesIO(data)) as img:
        mime = _MIME.get(img.format or "", "image/png")
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")
