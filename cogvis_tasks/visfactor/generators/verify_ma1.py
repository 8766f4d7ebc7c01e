"""Independent MA1 check: find the query picture in the study image, read the number printed under it.

The query image is shrunk to each cell's picture box and compared with the study
image's pixels there; the closest cell (by a clear margin) is the one shown. Its
number is then read off the pixels by matching the label area against every
two-digit number drawn with the label font. The read number must equal the
scene's pairing of that cell, which must equal the generator's answer. Layout
rules (near-square grid, distinct two-digit numbers, boxes inside the image and
apart) are re-checked. A broken rule raises ``ValueError``.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import base


def _grey(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as img:
        return img.convert("L")


def _check_layout(scene: dict, params: dict) -> None:
    n, size = params["pairs"], params["study_size"]
    cells = scene["cells"]
    rows, cols = scene["grid"]
    if len(cells) != n or cols != math.ceil(math.sqrt(n)) or not (rows - 1) * cols < n <= rows * cols:
        raise ValueError(f"{len(cells)} cells on a {rows} x {cols} grid is not the near-square grid of {n} pairs")
    numbers = [c["number"] for c in cells]
    if len(set(numbers)) != n or not all(10 <= x <= 99 for x in numbers):
        raise ValueError("numbers must be distinct two-digit numbers")
    if len({c["picture"] for c in cells}) != n:
        raise ValueError("a picture appears twice")
    for a in cells:
        x0, y0, x1, y1 = a["box"]
        if not (0 <= x0 < x1 <= size and 0 <= y0 < y1 <= size):
            raise ValueError(f"cell box {a['box']} leaves the study image")
        for b in cells:
            bx0, by0, bx1, by1 = b["box"]
            if a is not b and x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
                raise ValueError("two cell boxes overlap")


def _read_number(study: Image.Image, cell: dict) -> int:
    """The two-digit number printed under a cell, by template matching on the pixels."""
    cx, cy = cell["label_xy"]
    font = ImageFont.load_default(size=cell["label_size"])
    half_w, half_h = round(cell["label_size"] * 1.3), round(cell["label_size"] * 0.6)
    box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    patch = np.asarray(study.crop(box)).astype(np.int16)
    best, scores = None, []
    for n in range(10, 100):
        tpl = Image.new("L", (2 * half_w, 2 * half_h), 255)
        ImageDraw.Draw(tpl).text((half_w, half_h), str(n), fill=0, font=font, anchor="mm")
        score = float(np.abs(np.asarray(tpl).astype(np.int16) - patch).mean())
        scores.append(score)
        if best is None or score < best[0]:
            best = (score, n)
    ordered = sorted(scores)
    if not ordered[0] < 0.5 * ordered[1]:
        raise ValueError(f"the number under cell {cell['row']},{cell['col']} is not legible")
    return best[1]


def solve(item: base.GeneratedItem) -> list[str]:
    scene, params = item.metadata["scene"], item.metadata["params"]
    _check_layout(scene, params)
    (row,) = item.rows
    if len(row.images) != 2:
        raise ValueError("an MA1 row shows the study image and the query picture")
    study, query = _grey(row.images[0]), _grey(row.images[1])
    if study.size != (params["study_size"],) * 2 or query.size != (params["query_size"],) * 2:
        raise ValueError("image sizes differ from the configuration")
    scores, probes = [], {}
    grid = np.asarray(study).astype(np.int16)
    for cell in scene["cells"]:
        x0, y0, x1, y1 = cell["box"]
        if (x1 - x0, y1 - y0) not in probes:
            shrunk = query.resize((x1 - x0, y1 - y0), Image.Resampling.LANCZOS)
            probes[(x1 - x0, y1 - y0)] = np.asarray(shrunk).astype(np.int16)
        scores.append(float(np.abs(grid[y0:y1, x0:x1] - probes[(x1 - x0, y1 - y0)]).mean()))
    order = sorted(range(len(scores)), key=scores.__getitem__)
    if not scores[order[0]] < 0.6 * scores[order[1]]:
        raise ValueError("the query picture matches no single cell clearly")
    found = scene["cells"][order[0]]
    number = _read_number(study, found)
    if number != found["number"]:
        raise ValueError(f"the cell shows {number}, the scene pairs it with {found['number']}")
    return [str(number)]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
