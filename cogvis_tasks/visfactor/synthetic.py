"""Synthetic rows in the released VisFactor schema, for offline runs and tests.

The released data cannot be downloaded on every machine. These rows follow its
structure exactly (subtest ids, rows per item, image counts, template tags,
answer formats, ``<ADDITIONAL_n>`` parts holding image tags, ``<IMAGE_10>`` and
beyond, numeric and non-numeric VZ3 ``additional``), with simple drawn images, so
loaders, prompts, scoring and harness runs can be exercised at full size. They are
not test items a model could solve meaningfully: use the generators for that.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from ..core.rng import rng_for
from .subtests import BY_ID, LIST, SUBTESTS

#: Items per subtest ``cogvis write-synthetic`` writes unless asked otherwise (40 items, 156 rows).
DEFAULT_ITEMS = 2
_BOOL_OUT = 'Output: Respond with {"answer": "T"} if it does, otherwise {"answer": "F"}.'
_WORDS = ("cat,kitten", "house, home", "apple", "bicycle,bike", "tree", "umbrella, parasol")


def image_bytes(rng: random.Random, size: int = 160, fmt: str = "JPEG") -> bytes:
    """A small drawing of random shapes, encoded like the released images."""
    img = Image.new("RGB", (size, size), "white")
    draw = ImageDraw.Draw(img)
    for _ in range(rng.randint(2, 5)):
        x0, y0 = rng.randrange(size - 20), rng.randrange(size - 20)
        x1, y1 = x0 + rng.randint(10, size - x0), y0 + rng.randint(10, size - y0)
        shape = rng.choice(("line", "rect", "ellipse"))
        if shape == "line":
            draw.line((x0, y0, x1, y1), fill="black", width=3)
        elif shape == "rect":
            draw.rectangle((x0, y0, x1, y1), outline="black", width=2)
        else:
            draw.ellipse((x0, y0, x1, y1), outline="black", width=2)
    buf = io.BytesIO()
    img.save(buf, format=fmt, quality=85) if fmt == "JPEG" else img.save(buf, format=fmt)
    return buf.getvalue()


def _row(
    cid: str, index: int, eval_index: int, images: list[bytes], question: str, answer: str, additional: str = ""
) -> dict[str, Any]:
    return {
        "index": index,
        "category_id": cid,
        "category_name": BY_ID[cid].name,
        "eval_index": eval_index,
        "image": images,
        "question": question,
        "answer": answer,
        "additional": additional,
    }


def _item_rows(
    cid: str, eval_index: int, rng: random.Random, n_rows: int
) -> Iterator[tuple[list[bytes], str, str, str]]:
    """(images, question, answer, additional) for each row of one item."""
    if BY_ID[cid].answer == LIST:
        yield (
            [image_bytes(rng)],
            'Task: Name the object in the picture.<IMAGE_0><br>Output: Respond with {"answer": "<word>"}.',
            rng.choice(_WORDS),
            "",
        )
        return
    if cid == "CF3":
        yield (
            [image_bytes(rng), image_bytes(rng)],
            "Task: Copy the figure <IMAGE_0> onto the grid <IMAGE_1>.<br>"
            'Output: Respond with {"answer": "(row, column)"} of the end point.',
            f"({rng.randint(1, 5)}, {rng.randint(1, 5)})",
            "",
        )
        return
    if cid == "MA1":
        yield (
            [image_bytes(rng)],
            'Task: Which number belonged to the picture <IMAGE_0>?<br>Output: Respond with {"answer": <number>}.',
            str(rng.randint(10, 99)),
            "",
        )
        return
    if cid == "SS3":
        for _ in range(n_rows):
            yield (
                [image_bytes(rng)],
                'Task: Which building does the shortest route pass?<IMAGE_0><br>Output: Respond with {"answer": <number>}.',
                str(rng.randint(1, 10)),
                "",
            )
        return
    if cid == "I3":
        # Group examples come through <ADDITIONAL_n> parts that hold image tags; the
        # last figure is <IMAGE_11>, so two-digit tags are always exercised.
        groups = ";".join(f"Group {g + 1}:<br>" + " ".join(f"<IMAGE_{g * 3 + j}>" for j in range(3)) for g in range(2))
        for r in range(n_rows):
            images = [image_bytes(rng, 96) for _ in range(6)] + [image_bytes(rng, 96) for _ in range(6)]
            question = (
                "Task: Each group shares a rule.<br><ADDITIONAL_0><br><ADDITIONAL_1><br>"
                f"Which group does the figure <IMAGE_{6 + r % 6}> belong to?"
                + "".join(f"<IMAGE_{6 + k}>" for k in range(6) if k != r % 6)
                + '<br>Output: Respond with {"answer": <group number>}.'
            )
            yield images, question, str(rng.randint(1, 2)), groups
        return
    if cid == "VZ3":
        yield (
            [image_bytes(rng), image_bytes(rng)],
            "Task: Fold the net <IMAGE_0> into the solid <IMAGE_1>. Which edge of the solid is edge <ADDITIONAL_0>?<br>"
            'Output: Respond with {"answer": "<letter>"}.',
            rng.choice("ABCDEFG"),
            str(rng.randint(1, 9)),
        )
        for _ in range(n_rows - 1):
            yield (
                [image_bytes(rng), image_bytes(rng)],
                "Task: In the net <IMAGE_0> and the solid <IMAGE_1>, do edges <ADDITIONAL_0> and <ADDITIONAL_1> meet?<br>"
                + _BOOL_OUT,
                rng.choice("TF"),
                f"{rng.randint(1, 9)};{rng.choice('ABCDEFG')}",
            )
        return
    for _ in range(n_rows):  # boolean subtests: one yes/no row per option or comparison
        yield (
            [image_bytes(rng), image_bytes(rng)],
            "Task: Does the figure <IMAGE_0> appear in the pattern <IMAGE_1>?<br>" + _BOOL_OUT,
            rng.choice("TF"),
            "",
        )


def synthetic_rows(
    items_per_subtest: int | None = None, seed: int = 0, subtests: tuple[str, ...] | None = None
) -> list[dict[str, Any]]:
    """Rows for every subtest; ``items_per_subtest=None`` gives the released sizes (808 items, 3,046 rows)."""
    rows = []
    index = 0
    for sub in SUBTESTS:
        if subtests is not None and sub.id not in subtests:
            continue
        n_items = sub.items if items_per_subtest is None else items_per_subtest
        rows_per_item = sub.rows // sub.items
        for e in range(n_items):
            rng = rng_for(seed, "visfactor-synthetic", sub.id, e)
            for images, question, answer, additional in _item_rows(sub.id, e, rng, rows_per_item):
                rows.append(_row(sub.id, index, e, images, question, answer, additional))
                index += 1
    return rows


def write_synthetic(
    out_dir: Path, items: int | None = None, seed: int = 0, fmt: str = "parquet", released_size: bool = False
) -> list[Path]:
    """``out_dir/visfactor/test.parquet`` (``fmt="tsv"``: ``VisFactor.tsv``); ``items`` per subtest, None or
    ``released_size``: the released sizes."""
    from .files import write_parquet, write_tsv

    if released_size:
        items = None

    if items is not None and items < 1:
        raise ValueError(f"items must be at least 1, got {items}")
    if fmt not in ("parquet", "tsv"):
        raise ValueError(f"format must be parquet or tsv, got {fmt!r}")
    rows = synthetic_rows(items_per_subtest=items, seed=seed)
    folder = Path(out_dir) / "visfactor"
    return [write_tsv(rows, folder / "VisFactor.tsv") if fmt == "tsv" else write_parquet(rows, folder / "test.parquet")]
