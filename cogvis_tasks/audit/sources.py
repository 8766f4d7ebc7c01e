"""Building blocks of item sets as :class:`AuditItem` streams, for the benchmarks' own audit modules.

A benchmark that can be audited names its module in ``Info.audit_module`` (Mind's Eye: options cut from one
image at known boxes; VisFactor: items of yes/no rows); that module turns its generated or released items into
audit items with the helpers here:

- :func:`choice_item`: one image, the options and stimulus panels at given boxes (decoded at half size when large:
  the crops are ``CROP`` px anyway).
- :func:`rows_set`: items that are groups of yes/no rows. A row's option is the image that differs between the
  item's rows (rows that all show the same images and ask about "piece k": image k); images shared by every row
  are the stimulus. When every item has exactly one "yes" row, the item is a choice among its rows; otherwise
  each row's label is predicted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from PIL import Image

from ..core.errors import DataError
from .items import BINARY, CHOICE, AuditItem, Box, crops, decode, square_crop

HALF = 2  # large images (1024 px and more) are reduced by this factor before cropping
_PIECE = re.compile(r"Is piece (\d+)\b")
YES, NO = "T", "F"


def _scaled(boxes: Sequence[Box], factor: float) -> list[Box]:
    return [tuple(v / factor for v in b) for b in boxes]


def choice_item(
    group: str,
    preset: str,
    key: str,
    image: bytes | Image.Image,
    answer: int,
    options: Sequence[Box],
    stimulus: Sequence[Box],
) -> AuditItem:
    """An item whose options and stimulus panels sit at ``options`` / ``stimulus`` boxes of one image."""
    img = decode(image)
    factor = 1
    if min(img.size) >= 512:
        img = img.reduce(HALF)
        factor = HALF
    labels = tuple(int(i == answer) for i in range(len(options)))
    option_crops, stimulus_crops = crops(img, _scaled(options, factor)), crops(img, _scaled(stimulus, factor))
    return AuditItem(group, preset, key, CHOICE, labels, option_crops, stimulus_crops)


def _row_options(key: str, rows: Sequence[tuple[tuple[bytes, ...], str]]) -> tuple[list[int | None], list[int]]:
    """Per row the option image index (None: the varying images together) and the shared (stimulus) positions."""
    width = min(len(images) for images, _ in rows)
    shared = [j for j in range(width) if all(images[j] == rows[0][0][j] for images, _ in rows)]
    varying = [j for j in range(width) if j not in shared]
    if len(varying) == 1:
        return [varying[0]] * len(rows), shared
    if not varying:
        picks = []
        for images, question in rows:
            match = _PIECE.search(question)
            if match is None or not 0 <= int(match.group(1)) < len(images):
                raise DataError(
                    key, "rows", "image", "the rows show the same images and name no piece: no option to audit"
                )
            picks.append(int(match.group(1)))
        return picks, [j for j in shared if j not in picks]
    return [None] * len(rows), shared


def rows_item(
    group: str, preset: str, key: str, rows: Sequence[tuple[tuple[bytes, ...], str, str]], kind: str
) -> AuditItem:
    """An item of yes/no rows: (images, question, answer) per row."""
    picks, shared = _row_options(key, [(images, question) for images, question, _ in rows])
    options = []
    for (images, _, _), pick in zip(rows, picks, strict=True):
        if pick is not None:
            options.append(square_crop(decode(images[pick])))
        else:  # several images differ between rows: the row's varying images side by side
            parts = [decode(images[j]) for j in range(len(images)) if j not in shared]
            strip = Image.new("RGB", (sum(p.width for p in parts), max(p.height for p in parts)), "white")
            x = 0
            for p in parts:
                strip.paste(p, (x, 0))
                x += p.width
            options.append(square_crop(strip))
    stimulus = tuple(square_crop(decode(rows[0][0][j])) for j in shared)
    labels = tuple(int(answer == YES) for _, _, answer in rows)
    return AuditItem(group, preset, key, kind, labels, tuple(options), stimulus)


def _kind(answers: Sequence[Sequence[str]]) -> str:
    return CHOICE if all(list(a).count(YES) == 1 for a in answers) else BINARY


def boolean(answers: Iterable[str]) -> bool:
    return all(a in (YES, NO) for a in answers)


def rows_set(
    group: str, preset: str, items: Sequence[tuple[str, Sequence[tuple[tuple[bytes, ...], str, str]]]]
) -> list[AuditItem]:
    """A subtest's items of yes/no rows; a choice set when every item has exactly one "yes"."""
    kind = _kind([[a for _, _, a in rows] for _, rows in items])
    return [rows_item(group, preset, key, rows, kind) for key, rows in items]
