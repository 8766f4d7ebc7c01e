"""MA1 Picture-Number: recall the two-digit number paired with a picture.

The study image tiles N distinct labelled pictures on a near-square grid
(ceil(sqrt(N)) columns, row-major), each with a distinct two-digit number printed
under it; the query image shows one of the pictures again and the answer is its
number (answer space N). The built-in set has 87 drawings, so the hard preset's
50 pairs never repeat a picture; a user folder (``pictures_dir``) must hold at
least N pictures. Beyond the official table (pairs 21 / 21 / 50) the easy preset
draws the pictures in colour and normal/hard in greyscale, so colour is no extra
memory cue there.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from . import base, objects

PROMPT = (
    "Task: The image <IMAGE_0> shows {n} pictures, each paired with the two-digit number printed under it. "
    "Memorise the pairs. Which number is paired with this picture? <IMAGE_1><br>"
    'Output: Respond with {{"answer": <number>}}.'
)
CELL_LINE = (200, 200, 200)


def grid_shape(n: int) -> tuple[int, int]:
    """(rows, cols) of the near-square grid for n pairs."""
    cols = math.ceil(math.sqrt(n))
    return math.ceil(n / cols), cols


@functools.lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _cells(n: int, size: int) -> list[dict]:
    """Cell geometry: grid position, picture box and number anchor, row-major."""
    rows, cols = grid_shape(n)
    cw, ch = size // cols, size // rows
    label = max(12, round(ch * 0.2))
    pad = max(2, round(min(cw, ch) * 0.05))
    pic = min(cw, ch - label) - 2 * pad
    cells = []
    for k in range(n):
        r, c = divmod(k, cols)
        x0 = c * cw + (cw - pic) // 2
        y0 = r * ch + pad
        cells.append(
            {
                "row": r,
                "col": c,
                "box": [x0, y0, x0 + pic, y0 + pic],
                "label_xy": [c * cw + cw // 2, y0 + pic + label // 2 + pad // 2],
                "label_size": round(label * 0.8),
            }
        )
    return cells


@dataclass(frozen=True)
class Config:
    pairs: int = 21
    study_size: int = 1024  # square study image side in pixels
    query_size: int = 256  # square query image side
    colour: bool = True
    pictures_dir: str | None = None

    def __post_init__(self) -> None:
        base.check_range("pairs", self.pairs, 2, 90)  # 90 two-digit numbers
        base.check_range("study_size", self.study_size, 256, 4096)
        base.check_range("query_size", self.query_size, 64, 1024)
        available = len(objects.library(self.pictures_dir))  # raises ValueError naming pictures_dir
        if self.pairs > available:
            raise ValueError(f"pairs must be at most the {available} available pictures, got {self.pairs}")
        rows, cols = grid_shape(self.pairs)
        if min(self.study_size // cols, self.study_size // rows) < 48:
            raise ValueError(f"study_size {self.study_size} is too small for {self.pairs} pairs (cells under 48 px)")


PRESETS: dict[str, Config] = {
    "easy": Config(pairs=21, colour=True),
    "normal": Config(pairs=21, colour=False),
    "hard": Config(pairs=50, colour=False),
}
ID = "MA1"
DEFAULT_ITEMS = base.released_items(ID)


def generate(seed: int, index: int, config: Config) -> base.GeneratedItem:
    rng = base.item_rng(seed, ID, index, config)
    pictures = objects.library(config.pictures_dir)
    chosen = rng.sample(range(len(pictures)), config.pairs)
    numbers = rng.sample(range(10, 100), config.pairs)
    query = rng.randrange(config.pairs)
    cells = _cells(config.pairs, config.study_size)
    for cell, pic_index, number in zip(cells, chosen, numbers, strict=True):
        picture = pictures[pic_index]
        cell.update(
            picture=picture.name, style=objects.random_style(rng, picture, jitter=False).as_dict(), number=number
        )

    study = Image.new("RGB", (config.study_size, config.study_size), "white")
    draw = ImageDraw.Draw(study)
    rows, cols = grid_shape(config.pairs)
    for k in range(1, cols):
        x = k * (config.study_size // cols)
        draw.line([(x, 0), (x, rows * (config.study_size // rows) - 1)], fill=CELL_LINE, width=1)
    for k in range(1, rows):
        y = k * (config.study_size // rows)
        draw.line([(0, y), (config.study_size - 1, y)], fill=CELL_LINE, width=1)
    by_name = {p.name: p for p in pictures}
    for cell in cells:
        x0, y0, x1, _ = cell["box"]
        art = by_name[cell["picture"]].render(x1 - x0, objects.Style.from_dict(cell["style"]), grey=not config.colour)
        study.paste(art, (x0, y0))
        draw.text(
            tuple(cell["label_xy"]), str(cell["number"]), fill="black", font=_font(cell["label_size"]), anchor="mm"
        )
    target = cells[query]
    probe = by_name[target["picture"]].render(
        config.query_size, objects.Style.from_dict(target["style"]), grey=not config.colour
    )

    scene = {
        "grid": [rows, cols],
        "cells": cells,
        "query": target["picture"],
        "source": "builtin" if config.pictures_dir is None else "folder",
        "grey": not config.colour,
    }
    if not config.colour:  # greyscale pictures: single-channel PNGs (the readers convert to RGB)
        study, probe = study.convert("L"), probe.convert("L")
    row = base.Row(PROMPT.format(n=config.pairs), (base.png(study), base.png(probe)), str(target["number"]))
    return base.make_item(ID, index, (row,), config, PRESETS, scene, answer_space=config.pairs)
