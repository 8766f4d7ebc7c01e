"""Is an encoded image complete and decodable? Checks that PIL's process-wide leniency cannot switch off.

PIL decodes a truncated or corrupt body without an error when
``ImageFile.LOAD_TRUNCATED_IMAGES`` is true, and lmms-eval sets it true for the
whole process at import: a cut-off image would reach the model half grey. Two
layers make the verdict independent of that flag:

* ``container_problem`` walks the file's own structure (PNG chunks with their
  CRCs up to IEND, JPEG segments and entropy-coded scans up to EOI, GIF blocks up
  to the trailer, the WebP RIFF length, the BMP file size) with no PIL involved;
* ``strict_load`` decodes every pixel with Pillow's own ``ImageFile.load`` run
  against a private copy of its module globals in which the flag is false. The
  process-wide flag is neither read nor written, so other threads (and
  lmms-eval's own decoding) keep whatever setting they chose.
"""

from __future__ import annotations

import types
import zlib
from collections.abc import Callable

from PIL import Image, ImageFile

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_PIL_LOAD = ImageFile.ImageFile.load
_STRICT_LOAD = types.FunctionType(
    _PIL_LOAD.__code__,
    {**vars(ImageFile), "LOAD_TRUNCATED_IMAGES": False},
    _PIL_LOAD.__name__,
    _PIL_LOAD.__defaults__,
    _PIL_LOAD.__closure__,
)


def strict_load(img: Image.Image) -> None:
    """Decode all pixels of an opened image, failing on truncation whatever LOAD_TRUNCATED_IMAGES says.

    Formats with a loader of their own (WebP, ...) decode through it; their
    completeness is covered by ``container_problem``.
    """
    if type(img).load is _PIL_LOAD:
        _STRICT_LOAD(img)
    else:
        img.load()


def _png(data: bytes) -> str | None:
    view, n, pos, has_pixels = memoryview(data), len(data), len(_PNG_MAGIC), False
    while True:
        if pos + 12 > n:
            return f"PNG ends inside a chunk header at byte {pos} of {n} (truncated)"
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8].decode("latin-1")
        end = pos + 12 + length
        if end > n:
            return f"PNG chunk {kind} at byte {pos} needs {length} bytes but the file ends at byte {n} (truncated)"
        if zlib.crc32(view[pos + 4 : end - 4]) != int.from_bytes(data[end - 4 : end], "big"):
            return f"PNG chunk {kind} at byte {pos} fails its CRC (corrupt)"
        has_pixels = has_pixels or kind == "IDAT"
        if kind == "IEND":
            return None if has_pixels else "PNG has no image data (no IDAT chunk)"
        pos = end


def _jpeg_scan_end(data: bytes, pos: int) -> int:
    """Index of the marker that ends the entropy-coded data starting at ``pos``, or -1 when the file ends first.

    Inside a scan, 0xFF is followed by 0x00 (byte stuffing) or a restart marker;
    any other byte after 0xFF starts the next marker.
    """
    n = len(data)
    while True:
        j = data.find(b"\xff", pos)
        if j < 0 or j + 1 >= n:
            return -1
        nxt = data[j + 1]
        if nxt == 0x00 or 0xD0 <= nxt <= 0xD7:
            pos = j + 2
        elif nxt == 0xFF:
            pos = j + 1
        else:
            return j


def _jpeg(data: bytes) -> str | None:
    n, pos, scans = len(data), 2, 0
    while True:
        if pos + 2 > n:
            return f"JPEG ends at byte {n} before its end-of-image marker (truncated)"
        if data[pos] != 0xFF:
            return f"JPEG has no marker at byte {pos} (corrupt)"
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0xD9:
            return None if scans else "JPEG ends before any image scan"
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a segment
            pos += 2
            continue
        if pos + 4 > n:
            return f"JPEG ends inside a segment header at byte {pos} (truncated)"
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        if length < 2:
            return f"JPEG segment at byte {pos} has an invalid length {length} (corrupt)"
        pos += 2 + length
        if pos > n:
            return f"JPEG segment 0x{marker:02X} needs {length} bytes but the file ends at byte {n} (truncated)"
        if marker == 0xDA:  # start of scan: entropy-coded data follows the header
            scans += 1
            pos = _jpeg_scan_end(data, pos)
            if pos < 0:
                return f"JPEG scan {scans} is cut off at byte {n} (truncated)"


def _gif_sub_blocks(data: bytes, pos: int) -> int:
    """Index just past a chain of GIF data sub-blocks, or -1 when the file ends inside it."""
    n = len(data)
    while pos < n:
        size = data[pos]
        pos += 1 + size
        if size == 0:
            return pos
    return -1


def _gif(data: bytes) -> str | None:
    n, images = len(data), 0
    if n < 13:
        return "GIF ends inside its screen descriptor (truncated)"
    pos = 13 + ((3 << ((data[10] & 7) + 1)) if data[10] & 0x80 else 0)
    while pos < n:
        block = data[pos]
        if block == 0x3B:
            return None if images else "GIF has no image"
        if block == 0x21:  # extension: label, then sub-blocks
            pos = _gif_sub_blocks(data, pos + 2)
        elif block == 0x2C:  # image descriptor (10 bytes), optional local colour table, LZW code size, sub-blocks
            if pos + 10 > n:
                break
            packed = data[pos + 9]
            images += 1
            table = (3 << ((packed & 7) + 1)) if packed & 0x80 else 0
            pos = _gif_sub_blocks(data, pos + 10 + table + 1)
        else:
            return f"GIF has an unknown block 0x{block:02X} at byte {pos} (corrupt)"
        if pos < 0:
            break
    return f"GIF ends at byte {n} before its trailer (truncated)"


def _webp(data: bytes) -> str | None:
    declared = int.from_bytes(data[4:8], "little") + 8
    if len(data) < declared:
        return f"WebP declares {declared} bytes but has {len(data)} (truncated)"
    return None


def _bmp(data: bytes) -> str | None:
    declared = int.from_bytes(data[2:6], "little")  # 0 is allowed: the strict decode then checks the pixel rows
    if len(data) < declared:
        return f"BMP declares {declared} bytes but has {len(data)} (truncated)"
    return None


_CHECKS: dict[str, Callable[[bytes], str | None]] = {
    "PNG": _png,
    "JPEG": _jpeg,
    "GIF": _gif,
    "WEBP": _webp,
    "BMP": _bmp,
}


def container_problem(data: bytes, fmt: str) -> str | None:
    """Why the file structure of an image is incomplete or corrupt; None when it is whole.

    Only PNG, JPEG, GIF, WebP and BMP are accepted: other formats (TIFF, ICO, ...)
    have loaders that honour the global flag where ``strict_load`` cannot reach,
    and the request path could not name their MIME type anyway.
    """
    check = _CHECKS.get(fmt)
    if check is None:
        return f"{fmt or 'unknown'} images are not accepted (only {', '.join(_CHECKS)})"
    return check(data)
