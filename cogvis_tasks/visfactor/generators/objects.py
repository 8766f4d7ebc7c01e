"""Labelled pictures of everyday objects for CS1, CS3 and MA1, plus the ink helpers they share.

The default source is drawn here with PIL primitives (no image files, so it works
offline and is ours to redistribute): 87 objects, each with the answers accepted
for it (``("bicycle", "bike", "cycle")``), no label shared by two objects. Drawing
is deterministic; a :class:`Style` (colour choice, scale, offset, drawn from the
item RNG) varies the look. Users may instead point ``pictures_dir`` at a folder of
their own labelled images (see :func:`load_folder`).

A picture's ``name`` (its first label for the built-in set, the file name for a
folder) is the stable id that scenes store.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

SUPERSAMPLE = 2  # drawn at 2x and averaged down (2x2 box filter)
INK_THRESHOLD = 250  # a pixel is "ink" when its grey value is below this
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")

INK = "#000000"
WHITE = "#ffffff"
RED, ORANGE, YELLOW, GREEN, DKGREEN = "#d93a2b", "#f08c1a", "#f5d130", "#4caf50", "#2e7d32"
BLUE, LTBLUE, PURPLE, PINK, BROWN = "#3b7dd8", "#a9d6f5", "#8e5cc2", "#f29bb8", "#8b5a2b"
TAN, GREY, DKGREY, LTGREY, CREAM = "#e0b878", "#9e9e9e", "#555555", "#d6d6d6", "#fff3d6"
JITTER_SCALE = (0.78, 0.92)  # drawing size as a share of the canvas
JITTER_SHIFT = 0.03  # largest offset as a share of the canvas
OUT = 1.6  # outline width in picture units (the picture box is 100 x 100 units)


@dataclass(frozen=True)
class Style:
    """How one drawing of a picture looks: colour option, size and offset (fractions of the canvas)."""

    colour: int = 0
    scale: float = 0.9
    dx: float = 0.0
    dy: float = 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {"colour": self.colour, "scale": self.scale, "dx": self.dx, "dy": self.dy}

    @classmethod
    def from_dict(cls, d: dict) -> Style:
        return cls(int(d["colour"]), float(d["scale"]), float(d["dx"]), float(d["dy"]))


@dataclass(frozen=True)
class Picture:
    name: str
    labels: tuple[str, ...]
    colours: tuple[str, ...] = (GREY,)
    draw: Callable[[Pen, str], None] | None = field(default=None, compare=False, repr=False)
    path: str | None = None  # folder pictures: the image file

    @property
    def answer(self) -> str:
        """The accepted labels as the gold cell of a CS row ("bicycle,bike,cycle")."""
        return ",".join(self.labels)

    def render(self, size: int, style: Style = Style(), grey: bool = False) -> Image.Image:
        """The picture on a white ``size`` x ``size`` RGB canvas (a fresh image each call)."""
        return _render_cached(self, size, style, grey).copy()


def random_style(rng: random.Random, picture: Picture, jitter: bool = True) -> Style:
    """A colour option and, with ``jitter``, a size in [0.78, 0.92] and an offset of up to 3% (never clipped)."""
    colour = rng.randrange(len(picture.colours))
    if not jitter:
        return Style(colour=colour)
    return Style(
        colour=colour,
        scale=round(rng.uniform(*JITTER_SCALE), 3),
        dx=round(rng.uniform(-JITTER_SHIFT, JITTER_SHIFT), 3),
        dy=round(rng.uniform(-JITTER_SHIFT, JITTER_SHIFT), 3),
    )


# --------------------------------------------------------------------------- drawing


class Pen:
    """Draws in a 100 x 100 unit box mapped onto a square canvas (scaled and shifted by a Style)."""

    def __init__(self, draw: ImageDraw.ImageDraw, px: int, style: Style) -> None:
        self.d = draw
        self.k = px * style.scale / 100.0
        self.ox = px * (0.5 + style.dx) - 50 * self.k
        self.oy = px * (0.5 + style.dy) - 50 * self.k

    def xy(self, u: float, v: float) -> tuple[float, float]:
        return (self.ox + u * self.k, self.oy + v * self.k)

    def width(self, units: float) -> int:
        return max(1, round(units * self.k))

    def _box(self, cx: float, cy: float, rx: float, ry: float) -> list[float]:
        x0, y0 = self.xy(cx - rx, cy - ry)
        x1, y1 = self.xy(cx + rx, cy + ry)
        return [x0, y0, x1, y1]

    def poly(self, pts: Sequence[tuple[float, float]], fill: str | None = None, w: float = OUT) -> None:
        xy = [self.xy(*p) for p in pts]
        if fill is not None:
            self.d.polygon(xy, fill=fill)
        if w:
            self.d.line(xy + [xy[0], xy[1]], fill=INK, width=self.width(w), joint="curve")

    def line(self, pts: Sequence[tuple[float, float]], w: float = OUT, fill: str = INK) -> None:
        self.d.line([self.xy(*p) for p in pts], fill=fill, width=self.width(w), joint="curve")

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str | None = None, w: float = OUT) -> None:
        self.d.ellipse(
            self._box(cx, cy, rx, ry), fill=fill, outline=INK if w else None, width=self.width(w) if w else 0
        )

    def circle(self, cx: float, cy: float, r: float, fill: str | None = None, w: float = OUT) -> None:
        self.ellipse(cx, cy, r, r, fill, w)

    def rect(
        self, x0: float, y0: float, x1: float, y1: float, fill: str | None = None, w: float = OUT, r: float = 0
    ) -> None:
        a, b = self.xy(x0, y0)
        c, d = self.xy(x1, y1)
        outline, width = (INK, self.width(w)) if w else (None, 0)
        if r:
            self.d.rounded_rectangle([a, b, c, d], radius=r * self.k, fill=fill, outline=outline, width=width)
        else:
            self.d.rectangle([a, b, c, d], fill=fill, outline=outline, width=width)

    def arc(self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, w: float = OUT) -> None:
        self.d.arc(self._box(cx, cy, rx, ry), start, end, fill=INK, width=self.width(w))

    def pie(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, fill: str, w: float = OUT
    ) -> None:
        self.d.pieslice(
            self._box(cx, cy, rx, ry),
            start,
            end,
            fill=fill,
            outline=INK if w else None,
            width=self.width(w) if w else 0,
        )

    def chord(
        self, cx: float, cy: float, rx: float, ry: float, start: float, end: float, fill: str, w: float = OUT
    ) -> None:
        self.d.chord(
            self._box(cx, cy, rx, ry),
            start,
            end,
            fill=fill,
            outline=INK if w else None,
            width=self.width(w) if w else 0,
        )

    def blob(self, ellipses: Sequence[tuple[float, float, float, float]], fill: str, w: float = OUT) -> None:
        """The union of ellipses (cx, cy, rx, ry) with one outer outline (inner outlines painted over)."""
        for e in ellipses:
            self.ellipse(*e, fill=fill, w=w)
        inset = w * 1.05
        for cx, cy, rx, ry in ellipses:
            self.ellipse(cx, cy, rx - inset, ry - inset, fill=fill, w=0)


def rotate(
    pts: Sequence[tuple[float, float]], degrees: float, cx: float = 50, cy: float = 50
) -> list[tuple[float, float]]:
    a = math.radians(degrees)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca) for x, y in pts]


def circle_pts(cx: float, cy: float, r: float, n: int = 120) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)]


def crescent(
    outer: tuple[float, float, float], inner: tuple[float, float, float], n: int = 180
) -> list[tuple[float, float]]:
    """The outline of circle ``outer`` minus circle ``inner`` (each (cx, cy, r)); they must overlap partly."""

    def run(pts: list[tuple[float, float]], keep: list[bool]) -> list[tuple[float, float]]:
        start = next(i for i in range(len(pts)) if keep[i] and not keep[i - 1])
        out, i = [], start
        while keep[i % len(pts)] and len(out) < len(pts):
            out.append(pts[i % len(pts)])
            i += 1
        return out

    (ax, ay, ar), (bx, by, br) = outer, inner
    po, pi = circle_pts(ax, ay, ar, n), circle_pts(bx, by, br, n)
    arc_out = run(po, [math.hypot(x - bx, y - by) > br for x, y in po])
    arc_in = run(pi, [math.hypot(x - ax, y - ay) < ar for x, y in pi])
    end = arc_out[-1]
    if math.dist(end, arc_in[0]) > math.dist(end, arc_in[-1]):
        arc_in.reverse()
    return arc_out + arc_in


def star_pts(cx: float, cy: float, r_out: float, r_in: float, points: int = 5) -> list[tuple[float, float]]:
    return [
        (
            cx + (r_out if i % 2 == 0 else r_in) * math.cos(-math.pi / 2 + math.pi * i / points),
            cy + (r_out if i % 2 == 0 else r_in) * math.sin(-math.pi / 2 + math.pi * i / points),
        )
        for i in range(2 * points)
    ]


_BUILTIN: list[Picture] = []


def _obj(
    *labels: str, colours: Sequence[str] = (GREY,)
) -> Callable[[Callable[[Pen, str], None]], Callable[[Pen, str], None]]:
    def register(fn: Callable[[Pen, str], None]) -> Callable[[Pen, str], None]:
        _BUILTIN.append(Picture(labels[0], tuple(labels), tuple(colours), fn))
        return fn

    return register


# Each drawing below works in the 100 x 100 unit box, y pointing down; ``c`` is the chosen main colour.


@_obj("house", "home", "cottage", colours=(YELLOW, LTBLUE, PINK, TAN))
def _house(p: Pen, c: str) -> None:
    p.rect(64, 20, 73, 44, fill=BROWN)
    p.rect(22, 48, 78, 88, fill=c)
    p.poly([(12, 50), (50, 16), (88, 50)], fill=RED)
    p.rect(44, 64, 57, 88, fill=BROWN)
    p.rect(27, 56, 39, 68, fill=LTBLUE)
    p.line([(33, 56), (33, 68)], w=1)
    p.line([(27, 62), (39, 62)], w=1)
    p.rect(63, 56, 73, 66, fill=LTBLUE)


@_obj("tree", colours=(GREEN, DKGREEN))
def _tree(p: Pen, c: str) -> None:
    p.poly([(44, 92), (45, 56), (55, 56), (56, 92)], fill=BROWN)
    p.blob([(50, 30, 20, 18), (34, 46, 17, 15), (66, 46, 17, 15), (50, 52, 18, 13)], fill=c)


@_obj("sun", colours=(YELLOW, ORANGE))
def _sun(p: Pen, c: str) -> None:
    for i in range(12):
        a = 2 * math.pi * i / 12
        p.line([(50 + 29 * math.cos(a), 50 + 29 * math.sin(a)), (50 + 44 * math.cos(a), 50 + 44 * math.sin(a))], w=3)
    p.circle(50, 50, 23, fill=c, w=2)


@_obj("car", "automobile", colours=(RED, BLUE, GREEN, YELLOW))
def _car(p: Pen, c: str) -> None:
    p.poly([(27, 52), (35, 32), (66, 32), (77, 52)], fill=c)
    p.poly([(37, 50), (41, 36), (50, 36), (50, 50)], fill=LTBLUE, w=1)
    p.poly([(54, 50), (54, 36), (63, 36), (70, 50)], fill=LTBLUE, w=1)
    p.rect(8, 50, 92, 70, fill=c, r=5)
    for x in (28, 72):
        p.circle(x, 70, 11, fill=DKGREY)
        p.circle(x, 70, 4.5, fill=LTGREY)
    p.rect(86, 55, 92, 60, fill=YELLOW, w=1)


@_obj("fish", colours=(ORANGE, BLUE, YELLOW, PURPLE))
def _fish(p: Pen, c: str) -> None:
    p.poly([(70, 50), (92, 32), (88, 50), (92, 68)], fill=c)
    p.poly([(40, 36), (52, 20), (60, 36)], fill=c)
    p.ellipse(44, 50, 32, 19, fill=c)
    p.circle(26, 46, 3.5, fill=INK, w=0)
    p.arc(34, 50, 10, 14, -60, 60, w=1.2)
    p.arc(13, 53, 4, 3, 0, 120, w=1.2)


@_obj("cup", "mug", "teacup", "coffee cup", colours=(BLUE, RED, GREEN, CREAM))
def _cup(p: Pen, c: str) -> None:
    p.ellipse(48, 86, 34, 6, fill=LTGREY)
    p.ellipse(70, 58, 14, 15, fill=None, w=4)
    p.poly([(26, 36), (70, 36), (65, 84), (31, 84)], fill=c)
    p.ellipse(48, 36, 22, 5, fill=BROWN)
    for x in (40, 52):
        p.line([(x, 28), (x - 4, 20), (x + 2, 12), (x - 2, 6)], w=1.3)


@_obj("key", colours=(YELLOW, GREY, TAN))
def _key(p: Pen, c: str) -> None:
    p.rect(40, 45, 90, 55, fill=c)
    p.rect(70, 54, 77, 66, fill=c)
    p.rect(81, 54, 88, 62, fill=c)
    p.circle(26, 50, 17, fill=c)
    p.circle(22, 50, 6, fill=WHITE)


@_obj("umbrella", colours=(RED, BLUE, PURPLE, GREEN))
def _umbrella(p: Pen, c: str) -> None:
    p.line([(50, 48), (50, 84)], w=2.4)
    p.arc(43, 84, 7, 7, 0, 180, w=2.4)
    p.pie(50, 52, 42, 38, 180, 360, fill=c)
    for x in (22, 50, 78):
        p.line([(50, 14), (x, 52)], w=1)
    p.line([(50, 14), (50, 8)], w=2)


@_obj("bicycle", "bike", "cycle", colours=(RED, BLUE, GREEN, ORANGE))
def _bicycle(p: Pen, c: str) -> None:
    for x in (24, 76):
        p.circle(x, 64, 18, fill=None, w=3)
        p.circle(x, 64, 2, fill=INK, w=0)
    p.line([(24, 64), (46, 64), (38, 38), (24, 64)], w=2.6, fill=c)
    p.line([(38, 38), (68, 38), (46, 64)], w=2.6, fill=c)
    p.line([(68, 38), (76, 64)], w=2.6, fill=c)
    p.line([(66, 30), (68, 38)], w=2.2)
    p.line([(60, 29), (72, 29)], w=2.6)
    p.line([(31, 33), (43, 33)], w=3.2)
    p.line([(37, 33), (38, 38)], w=2)
    p.circle(46, 64, 4, fill=DKGREY, w=1)


@_obj("apple", colours=(RED, GREEN, YELLOW))
def _apple(p: Pen, c: str) -> None:
    p.line([(50, 34), (52, 24), (56, 16)], w=2.4, fill=BROWN)
    p.blob([(38, 58, 22, 26), (62, 58, 22, 26)], fill=c)
    p.poly([(54, 24), (64, 14), (78, 14), (68, 24)], fill=GREEN, w=1.2)


@_obj("star", colours=(YELLOW, ORANGE, BLUE))
def _star(p: Pen, c: str) -> None:
    p.poly(star_pts(50, 54, 44, 18), fill=c, w=2)


@_obj("heart", colours=(RED, PINK, PURPLE))
def _heart(p: Pen, c: str) -> None:
    pts = []
    for i in range(120):
        t = 2 * math.pi * i / 120
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((50 + 2.5 * x, 46 - 2.5 * y))
    p.poly(pts, fill=c, w=2)


@_obj("clock", "wall clock", colours=(WHITE, CREAM, LTBLUE))
def _clock(p: Pen, c: str) -> None:
    p.circle(50, 50, 40, fill=RED, w=2)
    p.circle(50, 50, 33, fill=c, w=1.2)
    for i in range(12):
        a = 2 * math.pi * i / 12
        r0 = 25 if i % 3 == 0 else 28
        p.line([(50 + r0 * math.cos(a), 50 + r0 * math.sin(a)), (50 + 31 * math.cos(a), 50 + 31 * math.sin(a))], w=1.6)
    p.line([(50, 50), (50, 26)], w=2)
    p.line([(50, 50), (66, 56)], w=2.6)
    p.circle(50, 50, 3, fill=INK, w=0)


@_obj("boat", "sailboat", "sailing boat", "ship", "yacht", colours=(BROWN, RED, BLUE))
def _boat(p: Pen, c: str) -> None:
    p.line([(50, 10), (50, 68)], w=2.2)
    p.poly([(53, 12), (53, 64), (84, 64)], fill=WHITE)
    p.poly([(47, 20), (47, 64), (22, 64)], fill=CREAM)
    p.poly([(10, 68), (90, 68), (78, 84), (22, 84)], fill=c)
    p.line(
        [(6, 90), (16, 87), (26, 90), (36, 87), (46, 90), (56, 87), (66, 90), (76, 87), (86, 90), (94, 88)],
        w=1.4,
        fill=BLUE,
    )


@_obj("bell", colours=(YELLOW, ORANGE, GREY))
def _bell(p: Pen, c: str) -> None:
    p.circle(50, 80, 7, fill=DKGREY)
    p.circle(50, 15, 5, fill=c)
    p.poly([(40, 20), (60, 20), (67, 30), (68, 56), (84, 74), (16, 74), (32, 56), (33, 30)], fill=c, w=2)
    p.line([(24, 68), (76, 68)], w=1.2)


@_obj("moon", "crescent", "crescent moon", colours=(YELLOW, CREAM))
def _moon(p: Pen, c: str) -> None:
    p.poly(crescent((46, 52, 38), (64, 40, 32)), fill=c, w=2)


@_obj("cloud", colours=(LTBLUE, WHITE, LTGREY))
def _cloud(p: Pen, c: str) -> None:
    p.blob([(30, 60, 18, 15), (48, 46, 20, 19), (68, 52, 18, 17), (50, 64, 26, 12), (80, 62, 12, 10)], fill=c, w=2)


@_obj("flower", "daisy", colours=(PINK, WHITE, PURPLE, RED))
def _flower(p: Pen, c: str) -> None:
    p.line([(50, 50), (50, 94)], w=2.6, fill=DKGREEN)
    p.poly([(50, 80), (62, 66), (74, 66), (64, 78)], fill=GREEN, w=1.2)
    p.poly([(50, 86), (38, 74), (26, 74), (36, 86)], fill=GREEN, w=1.2)
    for i in range(7):
        a = 2 * math.pi * i / 7
        p.circle(50 + 15 * math.cos(a), 34 + 15 * math.sin(a), 10, fill=c, w=1.4)
    p.circle(50, 34, 9, fill=YELLOW, w=1.4)


@_obj("leaf", colours=(GREEN, DKGREEN, ORANGE))
def _leaf(p: Pen, c: str) -> None:
    pts = [(50 + 30 * math.sin(math.pi * t / 40), 10 + 2 * t) for t in range(0, 41)]
    pts += [(50 - 30 * math.sin(math.pi * t / 40), 10 + 2 * t) for t in range(40, -1, -1)]
    pts = rotate(pts, 35)
    p.poly(pts, fill=c, w=2)
    mid = rotate([(50, 12), (50, 96)], 35)
    p.line(mid, w=1.6)
    for t in (30, 45, 60, 75):
        for s in (-1, 1):
            p.line(rotate([(50, t), (50 + s * 16, t - 10)], 35), w=1)


@_obj("mushroom", "toadstool", colours=(RED, BROWN, ORANGE))
def _mushroom(p: Pen, c: str) -> None:
    p.rect(38, 48, 62, 88, fill=CREAM, r=6)
    p.chord(50, 52, 42, 38, 180, 360, fill=c, w=2)
    for x, y, r in ((34, 36, 5), (52, 26, 6), (68, 40, 5), (48, 44, 3.5)):
        p.circle(x, y, r, fill=WHITE, w=1)


@_obj("cat", "kitten", colours=(ORANGE, GREY, TAN))
def _cat(p: Pen, c: str) -> None:
    p.poly([(24, 46), (26, 14), (46, 30)], fill=c)
    p.poly([(76, 46), (74, 14), (54, 30)], fill=c)
    p.ellipse(50, 56, 32, 28, fill=c, w=2)
    for x in (38, 62):
        p.ellipse(x, 50, 5, 7, fill=GREEN, w=1.2)
        p.ellipse(x, 50, 1.6, 5, fill=INK, w=0)
    p.poly([(46, 62), (54, 62), (50, 67)], fill=PINK, w=1)
    p.line([(50, 67), (50, 71), (45, 74)], w=1.2)
    p.line([(50, 71), (55, 74)], w=1.2)
    for dy in (-3, 2):
        p.line([(40, 66), (12, 64 + dy * 2)], w=0.9)
        p.line([(60, 66), (88, 64 + dy * 2)], w=0.9)


@_obj("envelope", "letter", "mail", colours=(WHITE, CREAM, LTBLUE))
def _envelope(p: Pen, c: str) -> None:
    p.rect(12, 26, 88, 78, fill=c, w=2)
    p.line([(12, 78), (42, 52)], w=1.4)
    p.line([(88, 78), (58, 52)], w=1.4)
    p.poly([(12, 26), (50, 58), (88, 26)], fill=c, w=1.8)
    p.rect(72, 32, 82, 42, fill=RED, w=1)


@_obj("book", "open book", colours=(WHITE, CREAM))
def _book(p: Pen, c: str) -> None:
    p.poly([(8, 32), (50, 38), (92, 32), (92, 80), (50, 86), (8, 80)], fill=BLUE, w=2)
    p.poly([(12, 26), (50, 34), (50, 80), (12, 74)], fill=c)
    p.poly([(88, 26), (50, 34), (50, 80), (88, 74)], fill=c)
    for k in range(5):
        y = 40 + 7 * k
        p.line([(18, y - 4), (44, y + 1)], w=0.9)
        p.line([(56, y + 1), (82, y - 4)], w=0.9)


@_obj("pencil", colours=(YELLOW, RED, BLUE, GREEN))
def _pencil(p: Pen, c: str) -> None:
    body = [(16, 42), (70, 42), (70, 58), (16, 58)]
    p.poly(rotate(body, -30), fill=c)
    p.poly(rotate([(70, 42), (90, 50), (70, 58)], -30), fill=TAN)
    p.poly(rotate([(84, 47.6), (90, 50), (84, 52.4)], -30), fill=INK, w=0.8)
    p.poly(rotate([(6, 42), (16, 42), (16, 58), (6, 58)], -30), fill=PINK)
    p.poly(rotate([(14, 42), (20, 42), (20, 58), (14, 58)], -30), fill=GREY)
    p.line(rotate([(20, 50), (70, 50)], -30), w=0.8)


@_obj("scissors", colours=(RED, BLUE, ORANGE, GREEN))
def _scissors(p: Pen, c: str) -> None:
    p.poly([(48, 52), (90, 14), (54, 48)], fill=LTGREY, w=1.6)
    p.poly([(52, 48), (92, 30), (48, 56)], fill=LTGREY, w=1.6)
    p.line([(50, 52), (32, 64)], w=4.5, fill=c)
    p.line([(50, 52), (42, 74)], w=4.5, fill=c)
    p.ellipse(24, 70, 11, 9, fill=None, w=4)
    p.ellipse(40, 84, 9, 11, fill=None, w=4)
    p.circle(50, 52, 2.5, fill=INK, w=0)


@_obj("glasses", "eyeglasses", "spectacles", colours=(LTBLUE, WHITE, LTGREY))
def _glasses(p: Pen, c: str) -> None:
    p.line([(16, 46), (6, 38)], w=2.4)
    p.line([(84, 46), (94, 38)], w=2.4)
    p.circle(30, 52, 16, fill=c, w=3)
    p.circle(70, 52, 16, fill=c, w=3)
    p.arc(50, 52, 6, 6, 200, 340, w=2.6)


@_obj("light bulb", "lightbulb", "bulb", "lamp", colours=(YELLOW, CREAM, WHITE))
def _bulb(p: Pen, c: str) -> None:
    p.rect(39, 66, 61, 84, fill=GREY)
    for y in (71, 76):
        p.line([(39, y), (61, y)], w=1)
    p.poly([(45, 84), (55, 84), (52, 90), (48, 90)], fill=DKGREY, w=1.2)
    p.blob([(50, 38, 26, 26), (50, 56, 12, 12)], fill=c, w=2)
    p.line([(44, 64), (44, 46), (47, 40), (50, 46), (53, 40), (56, 46), (56, 64)], w=1)


@_obj("candle", colours=(RED, WHITE, BLUE, PURPLE))
def _candle(p: Pen, c: str) -> None:
    p.rect(38, 40, 62, 90, fill=c, w=2)
    p.line([(50, 40), (50, 32)], w=1.6)
    p.poly([(50, 8), (56, 20), (56, 27), (50, 33), (44, 27), (44, 20)], fill=ORANGE, w=1.4)
    p.poly([(50, 18), (52, 24), (50, 29), (48, 24)], fill=YELLOW, w=0)
    p.line([(44, 40), (44, 50)], w=1)


@_obj("hammer", colours=(GREY, DKGREY))
def _hammer(p: Pen, c: str) -> None:
    p.rect(45, 30, 56, 92, fill=BROWN, r=3)
    p.poly([(20, 16), (66, 16), (84, 10), (80, 24), (66, 32), (20, 32)], fill=c, w=2)
    p.rect(16, 18, 22, 30, fill=c, w=1.4)


@_obj("ladder", colours=(BROWN, ORANGE, GREY))
def _ladder(p: Pen, c: str) -> None:
    for y in range(18, 90, 12):
        p.rect(30, y, 70, y + 4, fill=c, w=1.2)
    p.rect(24, 6, 32, 94, fill=c, w=1.6)
    p.rect(68, 6, 76, 94, fill=c, w=1.6)


@_obj("door", colours=(BROWN, RED, BLUE, GREEN))
def _door(p: Pen, c: str) -> None:
    p.rect(26, 6, 74, 94, fill=LTGREY, w=2)
    p.rect(30, 10, 70, 94, fill=c, w=1.6)
    p.rect(36, 16, 64, 46, fill=None, w=1.2)
    p.rect(36, 54, 64, 86, fill=None, w=1.2)
    p.circle(64, 52, 3.2, fill=YELLOW, w=1)


@_obj("chair", colours=(BROWN, RED, BLUE))
def _chair(p: Pen, c: str) -> None:
    p.rect(60, 8, 70, 92, fill=c, w=1.6)
    p.rect(24, 58, 33, 92, fill=c, w=1.6)
    p.rect(20, 50, 72, 59, fill=c, w=1.8)
    p.rect(33, 72, 60, 77, fill=c, w=1.2)


@_obj("table", "desk", colours=(BROWN, TAN))
def _table(p: Pen, c: str) -> None:
    p.rect(14, 44, 22, 88, fill=c, w=1.6)
    p.rect(78, 44, 86, 88, fill=c, w=1.6)
    p.rect(26, 44, 32, 78, fill=c, w=1.2)
    p.rect(68, 44, 74, 78, fill=c, w=1.2)
    p.poly([(6, 44), (94, 44), (86, 34), (14, 34)], fill=c, w=1.8)
    p.rect(6, 44, 94, 50, fill=c, w=1.6)


@_obj("television", "tv", "television set", colours=(DKGREY, BROWN, GREY))
def _tv(p: Pen, c: str) -> None:
    p.line([(50, 24), (34, 6)], w=1.6)
    p.line([(50, 24), (66, 6)], w=1.6)
    p.rect(36, 74, 42, 86, fill=c, w=1.2)
    p.rect(58, 74, 64, 86, fill=c, w=1.2)
    p.rect(10, 24, 90, 76, fill=c, w=2, r=6)
    p.rect(16, 30, 72, 70, fill=LTBLUE, w=1.4, r=4)
    p.circle(81, 38, 3.5, fill=LTGREY, w=1)
    p.circle(81, 50, 3.5, fill=LTGREY, w=1)


@_obj("guitar", colours=(BROWN, ORANGE, RED))
def _guitar(p: Pen, c: str) -> None:
    p.rect(46, 8, 54, 50, fill=BROWN, w=1.4)
    p.rect(43, 2, 57, 12, fill=DKGREY, w=1.2, r=2)
    p.blob([(50, 48, 15, 14), (50, 72, 21, 19)], fill=c, w=2)
    p.circle(50, 58, 6, fill=INK, w=0)
    p.rect(42, 78, 58, 81, fill=INK, w=0)
    for x in (48, 50, 52):
        p.line([(x, 10), (x, 80)], w=0.5, fill=LTGREY)


@_obj("drum", colours=(RED, BLUE, WHITE))
def _drum(p: Pen, c: str) -> None:
    p.rect(16, 40, 84, 76, fill=c, w=0)
    p.line([(16, 40), (16, 76)], w=2)
    p.line([(84, 40), (84, 76)], w=2)
    p.arc(50, 76, 34, 10, 0, 180, w=2)
    p.line([(16, 76), (20, 40), (30, 82), (40, 42), (50, 86), (60, 42), (70, 82), (80, 40), (84, 76)], w=1.2)
    p.ellipse(50, 40, 34, 10, fill=CREAM, w=2)
    p.line([(34, 34), (14, 8)], w=2.2)
    p.line([(62, 34), (86, 10)], w=2.2)
    p.circle(14, 8, 3, fill=CREAM, w=1)
    p.circle(86, 10, 3, fill=CREAM, w=1)


@_obj("balloon", colours=(RED, BLUE, YELLOW, GREEN, PURPLE))
def _balloon(p: Pen, c: str) -> None:
    p.line([(50, 70), (46, 78), (54, 86), (48, 96)], w=1.2)
    p.poly([(46, 71), (54, 71), (50, 64)], fill=c, w=1.2)
    p.ellipse(50, 38, 24, 29, fill=c, w=2)
    p.arc(50, 38, 17, 22, 200, 240, w=2)


@_obj("kite", colours=(RED, YELLOW, BLUE, GREEN))
def _kite(p: Pen, c: str) -> None:
    p.line([(50, 70), (46, 78), (56, 84), (48, 90), (54, 96)], w=1.2)
    for x, y in ((47, 78), (54, 88)):
        p.poly([(x - 4, y - 3), (x + 4, y + 3), (x + 4, y - 3), (x - 4, y + 3)], fill=c, w=1)
    p.poly([(50, 6), (74, 32), (50, 70), (26, 32)], fill=c, w=2)
    p.line([(50, 6), (50, 70)], w=1.2)
    p.line([(26, 32), (74, 32)], w=1.2)


@_obj("anchor", colours=(GREY, DKGREY, BLUE))
def _anchor(p: Pen, c: str) -> None:
    p.circle(50, 14, 7, fill=None, w=3)
    p.rect(46, 21, 54, 82, fill=c, w=1.4)
    p.rect(32, 28, 68, 35, fill=c, w=1.4)
    p.arc(50, 56, 32, 30, 20, 160, w=5)
    p.poly([(14, 64), (26, 58), (18, 52)], fill=c, w=1.4)
    p.poly([(86, 64), (74, 58), (82, 52)], fill=c, w=1.4)


@_obj("arrow", colours=(RED, BLUE, GREEN, BROWN))
def _arrow(p: Pen, c: str) -> None:
    p.line(rotate([(14, 50), (74, 50)], -25), w=3)
    p.poly(rotate([(70, 38), (94, 50), (70, 62)], -25), fill=c, w=1.6)
    for dx in (0, 8):
        p.poly(
            rotate([(8 + dx, 38), (16 + dx, 38), (22 + dx, 50), (16 + dx, 62), (8 + dx, 62), (14 + dx, 50)], -25),
            fill=c,
            w=1.2,
        )


@_obj("rocket", "spaceship", colours=(WHITE, LTGREY, RED))
def _rocket(p: Pen, c: str) -> None:
    p.poly([(44, 80), (56, 80), (54, 92), (50, 98), (46, 92)], fill=ORANGE, w=1.2)
    p.poly([(38, 56), (24, 80), (38, 74)], fill=RED)
    p.poly([(62, 56), (76, 80), (62, 74)], fill=RED)
    p.poly([(50, 4), (62, 22), (62, 80), (38, 80), (38, 22)], fill=c, w=2)
    p.circle(50, 38, 7, fill=LTBLUE, w=1.6)
    p.line([(38, 22), (62, 22)], w=1.2)


@_obj("airplane", "plane", "aeroplane", "aircraft", "jet", colours=(WHITE, LTGREY, LTBLUE))
def _airplane(p: Pen, c: str) -> None:
    p.poly([(50, 38), (94, 58), (94, 64), (50, 56), (6, 64), (6, 58)], fill=c)
    p.poly([(50, 80), (68, 90), (68, 94), (50, 90), (32, 94), (32, 90)], fill=c)
    p.ellipse(50, 52, 7, 44, fill=c, w=2)
    p.ellipse(50, 20, 3.5, 5, fill=LTBLUE, w=1)
    for x in (28, 72):
        p.rect(x - 3, 58, x + 3, 68, fill=GREY, w=1)


@_obj("truck", "lorry", colours=(RED, BLUE, ORANGE, GREEN))
def _truck(p: Pen, c: str) -> None:
    p.rect(6, 24, 62, 70, fill=c, w=2)
    p.poly([(62, 38), (82, 38), (94, 54), (94, 70), (62, 70)], fill=c, w=2)
    p.poly([(67, 42), (80, 42), (88, 54), (67, 54)], fill=LTBLUE, w=1.2)
    for x in (20, 44, 78):
        p.circle(x, 72, 9, fill=DKGREY)
        p.circle(x, 72, 3.5, fill=LTGREY, w=1)


@_obj("snowman", colours=(WHITE, LTBLUE))
def _snowman(p: Pen, c: str) -> None:
    p.line([(36, 48), (16, 38)], w=1.6, fill=BROWN)
    p.line([(64, 48), (84, 38)], w=1.6, fill=BROWN)
    p.circle(50, 76, 19, fill=c, w=2)
    p.circle(50, 48, 14, fill=c, w=2)
    p.circle(50, 24, 11, fill=c, w=2)
    p.rect(38, 12, 62, 15, fill=INK, w=0)
    p.rect(42, 0, 58, 13, fill=INK, w=0)
    for x in (46, 54):
        p.circle(x, 22, 1.6, fill=INK, w=0)
    p.poly([(50, 25), (62, 28), (50, 29)], fill=ORANGE, w=0.8)
    for y in (44, 52, 70):
        p.circle(50, y, 1.8, fill=INK, w=0)


@_obj("ice cream", "ice cream cone", "cone", colours=(PINK, CREAM, BROWN, GREEN))
def _icecream(p: Pen, c: str) -> None:
    p.poly([(32, 46), (68, 46), (50, 94)], fill=TAN, w=2)
    for k in range(4):
        p.line([(36 + 8 * k, 46), (48 + 4 * k - 12, 70 + 6 * k)], w=0.8)
        p.line([(64 - 8 * k, 46), (52 - 4 * k + 12, 70 + 6 * k)], w=0.8)
    p.blob([(50, 36, 20, 17), (36, 46, 8, 6), (50, 48, 9, 6), (64, 46, 8, 6)], fill=c, w=2)
    p.circle(52, 16, 5, fill=RED, w=1.2)


@_obj("lollipop", "candy", "sweet", colours=(PINK, RED, PURPLE, ORANGE))
def _lollipop(p: Pen, c: str) -> None:
    p.rect(48, 56, 53, 96, fill=WHITE, w=1.2)
    p.circle(50, 34, 25, fill=c, w=2)
    spiral = [(50 + (t / 40) * 21 * math.cos(t / 4), 34 + (t / 40) * 21 * math.sin(t / 4)) for t in range(0, 41)]
    p.line(spiral, w=1.6, fill=WHITE)


@_obj("cherry", "cherries", colours=(RED, DKGREY))
def _cherry(p: Pen, c: str) -> None:
    p.line([(32, 64), (40, 40), (56, 18)], w=1.8, fill=DKGREEN)
    p.line([(66, 68), (62, 40), (56, 18)], w=1.8, fill=DKGREEN)
    p.poly([(56, 18), (70, 10), (82, 14), (68, 22)], fill=GREEN, w=1.2)
    p.circle(32, 72, 14, fill=c, w=2)
    p.circle(66, 76, 14, fill=c, w=2)
    p.circle(28, 68, 3, fill=WHITE, w=0)
    p.circle(62, 72, 3, fill=WHITE, w=0)


@_obj("pear", colours=(GREEN, YELLOW, TAN))
def _pear(p: Pen, c: str) -> None:
    p.line([(50, 28), (54, 12)], w=2.4, fill=BROWN)
    p.blob([(50, 40, 13, 15), (50, 66, 24, 24)], fill=c, w=2)


@_obj("banana", colours=(YELLOW,))
def _banana(p: Pen, c: str) -> None:
    pts = rotate(crescent((50, 30, 42), (50, 16, 44)), -15)
    p.poly(pts, fill=c, w=2)
    tip = rotate([(8, 30), (12, 26)], -15)
    p.line(tip, w=3, fill=BROWN)


@_obj("carrot", colours=(ORANGE,))
def _carrot(p: Pen, c: str) -> None:
    for dx in (-10, 0, 10):
        p.poly([(50, 30), (50 + dx - 5, 6), (50 + dx + 5, 8)], fill=GREEN, w=1.2)
    p.poly([(34, 30), (66, 30), (52, 94), (48, 94)], fill=c, w=2)
    for y in (44, 58, 72):
        p.line([(38 + (y - 30) / 5, y), (46, y + 2)], w=1)
        p.line([(62 - (y - 30) / 5, y + 6), (55, y + 8)], w=1)


@_obj("bottle", colours=(GREEN, BLUE, BROWN))
def _bottle(p: Pen, c: str) -> None:
    p.poly([(44, 8), (56, 8), (56, 28), (66, 40), (66, 92), (34, 92), (34, 40), (44, 28)], fill=c, w=2)
    p.rect(42, 4, 58, 10, fill=RED, w=1.2)
    p.rect(34, 54, 66, 76, fill=CREAM, w=1.2)


@_obj("wine glass", "glass", "goblet", colours=(LTBLUE, RED, WHITE))
def _wineglass(p: Pen, c: str) -> None:
    p.ellipse(50, 90, 20, 4, fill=WHITE, w=1.6)
    p.line([(50, 56), (50, 88)], w=2.2)
    p.chord(50, 24, 22, 32, 0, 180, fill=WHITE, w=2)
    p.chord(50, 24, 19, 29, 20, 160, fill=c, w=0)
    p.line([(28, 24), (28, 12)], w=2)
    p.line([(72, 24), (72, 12)], w=2)


@_obj("fork", colours=(GREY, LTGREY))
def _fork(p: Pen, c: str) -> None:
    p.poly(
        [
            (36, 8),
            (40, 8),
            (40, 34),
            (44, 34),
            (44, 8),
            (48, 8),
            (48, 34),
            (52, 34),
            (52, 8),
            (56, 8),
            (56, 34),
            (60, 34),
            (60, 8),
            (64, 8),
            (64, 38),
            (55, 48),
            (55, 92),
            (45, 92),
            (45, 48),
            (36, 38),
        ],
        fill=c,
        w=1.6,
    )


@_obj("spoon", colours=(GREY, LTGREY))
def _spoon(p: Pen, c: str) -> None:
    p.rect(46, 40, 54, 94, fill=c, w=1.6, r=4)
    p.ellipse(50, 24, 14, 20, fill=c, w=2)
    p.ellipse(46, 20, 4, 8, fill=WHITE, w=0)


@_obj("knife", colours=(GREY, LTGREY))
def _knife(p: Pen, c: str) -> None:
    p.rect(44, 60, 56, 96, fill=BROWN, w=1.6, r=4)
    for y in (70, 84):
        p.circle(50, y, 1.6, fill=LTGREY, w=0.6)
    p.poly([(44, 60), (44, 14), (52, 4), (57, 10), (56, 60)], fill=c, w=1.8)


@_obj("teapot", "kettle", colours=(WHITE, BLUE, RED, GREEN))
def _teapot(p: Pen, c: str) -> None:
    p.arc(78, 58, 12, 14, -90, 90, w=4)
    p.poly([(28, 66), (8, 38), (14, 36), (30, 50)], fill=c, w=1.8)
    p.ellipse(48, 62, 30, 24, fill=c, w=2)
    p.chord(48, 40, 16, 8, 180, 360, fill=c, w=1.6)
    p.circle(48, 30, 4, fill=c, w=1.4)
    p.ellipse(48, 86, 18, 3, fill=LTGREY, w=1.2)


@_obj("shirt", "t-shirt", "tshirt", colours=(BLUE, RED, GREEN, YELLOW))
def _shirt(p: Pen, c: str) -> None:
    p.poly(
        [
            (36, 14),
            (42, 14),
            (50, 22),
            (58, 14),
            (64, 14),
            (90, 30),
            (80, 46),
            (70, 40),
            (70, 90),
            (30, 90),
            (30, 40),
            (20, 46),
            (10, 30),
        ],
        fill=c,
        w=2,
    )
    p.arc(50, 14, 8, 8, 0, 180, w=1.4)


@_obj("hat", "top hat", colours=(DKGREY, BROWN, BLUE))
def _hat(p: Pen, c: str) -> None:
    p.ellipse(50, 72, 40, 9, fill=c, w=2)
    p.rect(30, 16, 70, 70, fill=c, w=2)
    p.ellipse(50, 16, 20, 5, fill=c, w=2)
    p.rect(30, 56, 70, 66, fill=RED, w=1.6)


@_obj("sock", colours=(RED, BLUE, GREEN, PURPLE))
def _sock(p: Pen, c: str) -> None:
    p.poly([(34, 8), (62, 8), (62, 58), (80, 70), (84, 82), (74, 92), (58, 90), (34, 68)], fill=c, w=2)
    p.rect(34, 8, 62, 18, fill=WHITE, w=1.6)
    for y in (30, 42):
        p.line([(34, y), (62, y)], w=1)


@_obj("crown", colours=(YELLOW, ORANGE))
def _crown(p: Pen, c: str) -> None:
    p.poly([(14, 76), (10, 28), (30, 50), (50, 20), (70, 50), (90, 28), (86, 76)], fill=c, w=2)
    p.rect(14, 72, 86, 84, fill=c, w=2)
    for x, col in ((30, RED), (50, BLUE), (70, GREEN)):
        p.circle(x, 78, 3.5, fill=col, w=1)
    for x, y in ((10, 28), (50, 20), (90, 28)):
        p.circle(x, y, 4, fill=c, w=1.4)


@_obj("flag", colours=(RED, BLUE, GREEN, YELLOW))
def _flag(p: Pen, c: str) -> None:
    p.rect(16, 8, 22, 94, fill=BROWN, w=1.4)
    p.circle(19, 7, 4, fill=YELLOW, w=1.2)
    top = [(22 + 6 * k, 14 + 4 * math.sin(k / 1.6)) for k in range(0, 12)]
    bottom = [(x, y + 34) for x, y in reversed(top)]
    p.poly(top + bottom, fill=c, w=2)


@_obj("tent", colours=(ORANGE, GREEN, BLUE, RED))
def _tent(p: Pen, c: str) -> None:
    p.poly([(8, 80), (50, 16), (92, 80)], fill=c, w=2)
    p.poly([(38, 80), (50, 46), (62, 80)], fill=DKGREY, w=1.6)
    p.line([(50, 16), (50, 8)], w=1.6)
    p.line([(4, 84), (96, 84)], w=1.6)


@_obj("mountain", "mountains", colours=(GREY, BROWN, PURPLE))
def _mountain(p: Pen, c: str) -> None:
    p.poly([(40, 84), (70, 36), (96, 84)], fill=c, w=2)
    p.poly([(4, 84), (36, 16), (68, 84)], fill=c, w=2)
    p.poly([(36, 16), (46, 37), (40, 33), (34, 38), (28, 33)], fill=WHITE, w=1.4)
    p.poly([(70, 36), (77, 47), (72, 45), (66, 47), (64, 46)], fill=WHITE, w=1.2)


@_obj("traffic light", "traffic lights", "stoplight", "traffic signal", colours=(DKGREY, GREY))
def _traffic(p: Pen, c: str) -> None:
    p.rect(46, 80, 54, 98, fill=GREY, w=1.4)
    p.rect(34, 4, 66, 82, fill=c, w=2, r=5)
    for y, col in ((20, RED), (43, YELLOW), (66, GREEN)):
        p.circle(50, y, 9, fill=col, w=1.4)


@_obj("butterfly", colours=(ORANGE, BLUE, PURPLE, YELLOW))
def _butterfly(p: Pen, c: str) -> None:
    for s in (-1, 1):
        p.ellipse(50 + s * 22, 34, 20, 18, fill=c, w=2)
        p.ellipse(50 + s * 18, 66, 14, 16, fill=c, w=2)
        p.circle(50 + s * 24, 32, 6, fill=WHITE, w=1)
        p.line([(50, 22), (50 + s * 14, 6)], w=1.2)
        p.circle(50 + s * 14, 6, 2, fill=INK, w=0)
    p.ellipse(50, 50, 4.5, 28, fill=DKGREY, w=1.4)


@_obj("snail", colours=(TAN, ORANGE, PINK))
def _snail(p: Pen, c: str) -> None:
    p.poly([(6, 82), (10, 70), (24, 66), (28, 52), (34, 52), (34, 70), (92, 74), (94, 82)], fill=CREAM, w=1.8)
    p.line([(28, 54), (20, 36)], w=1.2)
    p.line([(33, 54), (36, 36)], w=1.2)
    p.circle(20, 36, 2.4, fill=INK, w=0)
    p.circle(36, 36, 2.4, fill=INK, w=0)
    p.circle(62, 52, 25, fill=c, w=2)
    spiral = [
        (62 + (1 - t / 60) * 20 * math.cos(t / 6), 52 + (1 - t / 60) * 20 * math.sin(t / 6)) for t in range(0, 55)
    ]
    p.line(spiral, w=1.6)


@_obj("padlock", "lock", colours=(YELLOW, GREY, RED))
def _padlock(p: Pen, c: str) -> None:
    p.arc(50, 38, 20, 24, 180, 360, w=6)
    p.line([(30, 38), (30, 48)], w=6)
    p.line([(70, 38), (70, 48)], w=6)
    p.rect(22, 46, 78, 92, fill=c, w=2, r=5)
    p.circle(50, 64, 6, fill=INK, w=0)
    p.poly([(47, 66), (53, 66), (55, 80), (45, 80)], fill=INK, w=0)


@_obj("magnifying glass", "magnifier", "loupe", colours=(LTBLUE, WHITE))
def _magnifier(p: Pen, c: str) -> None:
    p.line([(58, 58), (88, 88)], w=8)
    p.line([(60, 60), (86, 86)], w=4.5, fill=BROWN)
    p.circle(40, 40, 26, fill=c, w=4.5)
    p.arc(40, 40, 18, 18, 200, 250, w=2)


@_obj("bucket", "pail", colours=(BLUE, RED, GREY, YELLOW))
def _bucket(p: Pen, c: str) -> None:
    p.arc(50, 36, 30, 28, 180, 360, w=2.2)
    p.poly([(18, 36), (82, 36), (74, 90), (26, 90)], fill=c, w=2)
    p.ellipse(50, 36, 32, 7, fill=DKGREY, w=2)


@_obj("trophy", colours=(YELLOW, GREY, ORANGE))
def _trophy(p: Pen, c: str) -> None:
    p.arc(24, 30, 12, 14, 90, 270, w=3)
    p.arc(76, 30, 12, 14, -90, 90, w=3)
    p.chord(50, 18, 28, 42, 0, 180, fill=c, w=2)
    p.rect(22, 14, 78, 20, fill=c, w=2)
    p.rect(45, 59, 55, 76, fill=c, w=1.6)
    p.rect(32, 76, 68, 90, fill=BROWN, w=2)
    p.poly(star_pts(50, 36, 8, 3.5), fill=WHITE, w=1)


@_obj("diamond", "gem", "jewel", colours=(LTBLUE, PINK, WHITE))
def _diamond(p: Pen, c: str) -> None:
    p.poly([(28, 20), (72, 20), (92, 40), (50, 90), (8, 40)], fill=c, w=2)
    p.line([(8, 40), (92, 40)], w=1.4)
    p.line([(28, 20), (38, 40), (50, 20), (62, 40), (72, 20)], w=1.2)
    p.line([(38, 40), (50, 90), (62, 40)], w=1.2)


@_obj("eye", colours=(BLUE, GREEN, BROWN))
def _eye(p: Pen, c: str) -> None:
    top = [(6 + 88 * t / 40, 50 - 28 * math.sin(math.pi * t / 40)) for t in range(41)]
    bottom = [(6 + 88 * t / 40, 50 + 24 * math.sin(math.pi * t / 40)) for t in range(40, -1, -1)]
    p.poly(top + bottom, fill=WHITE, w=2)
    p.circle(50, 50, 19, fill=c, w=1.6)
    p.circle(50, 50, 8, fill=INK, w=0)
    p.circle(44, 44, 3.5, fill=WHITE, w=0)
    for x in (20, 35, 50, 65, 80):
        y = 50 - 28 * math.sin(math.pi * (x - 6) / 88)
        p.line([(x, y), (x + (x - 50) / 6, y - 9)], w=1.2)


@_obj("pizza", "pizza slice", colours=(YELLOW, ORANGE))
def _pizza(p: Pen, c: str) -> None:
    p.poly([(12, 20), (88, 20), (50, 92)], fill=c, w=2)
    p.rect(10, 12, 90, 22, fill=TAN, w=2, r=4)
    for x, y in ((34, 34), (60, 36), (48, 56), (52, 76)):
        p.circle(x, y, 6, fill=RED, w=1)


@_obj("battery", colours=(ORANGE, GREEN, BLUE))
def _battery(p: Pen, c: str) -> None:
    p.rect(43, 6, 57, 16, fill=GREY, w=1.6)
    p.rect(30, 14, 70, 92, fill=DKGREY, w=2, r=4)
    p.rect(30, 14, 70, 44, fill=c, w=2, r=4)
    p.line([(44, 30), (56, 30)], w=2.4, fill=WHITE)
    p.line([(50, 24), (50, 36)], w=2.4, fill=WHITE)
    p.line([(44, 72), (56, 72)], w=2.4, fill=WHITE)


@_obj("bone", colours=(CREAM, WHITE))
def _bone(p: Pen, c: str) -> None:
    pts = rotate([(24, 44), (76, 44), (76, 56), (24, 56)], -30)
    ends = [rotate([(x, y)], -30)[0] for x, y in ((20, 41), (20, 59), (80, 41), (80, 59))]
    p.blob([(x, y, 11, 11) for x, y in ends], fill=c, w=2)
    p.poly(pts, fill=c, w=0)
    p.line([pts[0], pts[1]], w=2)
    p.line([pts[2], pts[3]], w=2)


@_obj("sword", colours=(LTGREY, GREY))
def _sword(p: Pen, c: str) -> None:
    blade = [(46, 66), (46, 14), (50, 4), (54, 14), (54, 66)]
    p.poly(rotate(blade, 30), fill=c, w=1.8)
    p.line(rotate([(50, 12), (50, 64)], 30), w=0.8)
    p.poly(rotate([(32, 66), (68, 66), (68, 72), (32, 72)], 30), fill=YELLOW, w=1.6)
    p.poly(rotate([(46, 72), (54, 72), (54, 90), (46, 90)], 30), fill=BROWN, w=1.6)
    cx, cy = rotate([(50, 93)], 30)[0]
    p.circle(cx, cy, 4, fill=YELLOW, w=1.4)


@_obj("cactus", colours=(GREEN, DKGREEN))
def _cactus(p: Pen, c: str) -> None:
    p.poly([(30, 78), (70, 78), (64, 96), (36, 96)], fill=ORANGE, w=1.8)
    p.rect(16, 30, 28, 58, fill=c, w=1.8, r=6)
    p.rect(16, 48, 44, 58, fill=c, w=1.8, r=4)
    p.rect(72, 20, 84, 50, fill=c, w=1.8, r=6)
    p.rect(56, 40, 84, 50, fill=c, w=1.8, r=4)
    p.rect(40, 8, 60, 78, fill=c, w=2, r=10)
    for y in (22, 38, 54):
        p.line([(46, y), (46, y + 6)], w=0.8)
        p.line([(54, y + 6), (54, y + 12)], w=0.8)


@_obj("camera", colours=(DKGREY, GREY, RED))
def _camera(p: Pen, c: str) -> None:
    p.rect(34, 20, 56, 32, fill=c, w=1.6, r=2)
    p.rect(8, 28, 92, 82, fill=c, w=2, r=6)
    p.circle(50, 55, 20, fill=LTGREY, w=2)
    p.circle(50, 55, 12, fill=INK, w=1)
    p.circle(46, 51, 3, fill=WHITE, w=0)
    p.rect(74, 34, 86, 42, fill=YELLOW, w=1.2)


@_obj("castle", colours=(GREY, LTGREY, TAN))
def _castle(p: Pen, c: str) -> None:
    for x0, x1, top in ((8, 30, 22), (70, 92, 22), (30, 70, 40)):
        p.rect(x0, top, x1, 90, fill=c, w=2)
        n = 3 if x1 - x0 < 30 else 4
        step = (x1 - x0) / (2 * n - 1)
        for k in range(n):
            p.rect(x0 + 2 * k * step, top - 8, x0 + (2 * k + 1) * step, top, fill=c, w=1.6)
    p.chord(50, 72, 10, 12, 180, 360, fill=BROWN, w=1.6)
    p.rect(40, 72, 60, 90, fill=BROWN, w=1.6)
    p.rect(16, 40, 22, 50, fill=INK, w=0)
    p.rect(78, 40, 84, 50, fill=INK, w=0)


@_obj("hourglass", "sand timer", "egg timer", colours=(TAN, YELLOW))
def _hourglass(p: Pen, c: str) -> None:
    p.poly([(28, 14), (72, 14), (54, 50), (72, 86), (28, 86), (46, 50)], fill=WHITE, w=2)
    p.poly([(38, 30), (62, 30), (52, 48), (48, 48)], fill=c, w=0)
    p.poly([(50, 66), (66, 84), (34, 84)], fill=c, w=0)
    p.line([(50, 50), (50, 82)], w=0.8)
    p.rect(20, 6, 80, 14, fill=BROWN, w=1.8)
    p.rect(20, 86, 80, 94, fill=BROWN, w=1.8)


@_obj("music note", "musical note", "note", colours=(INK, BLUE, PURPLE))
def _note(p: Pen, c: str) -> None:
    head = rotate([(28 + 14 * math.cos(t / 10), 76 + 9 * math.sin(t / 10)) for t in range(63)], -20, 28, 76)
    p.poly(head, fill=c, w=1.4)
    p.line([(41, 72), (41, 12)], w=3)
    p.poly([(41, 12), (58, 24), (70, 44), (62, 40), (56, 32), (41, 28)], fill=c, w=1.4)


@_obj("pumpkin", colours=(ORANGE,))
def _pumpkin(p: Pen, c: str) -> None:
    p.rect(46, 14, 54, 30, fill=DKGREEN, w=1.6, r=2)
    p.ellipse(28, 58, 20, 30, fill=c, w=2)
    p.ellipse(72, 58, 20, 30, fill=c, w=2)
    p.ellipse(50, 58, 20, 32, fill=c, w=2)
    p.line([(54, 20), (64, 14), (70, 18)], w=1.4, fill=DKGREEN)


@_obj("strawberry", colours=(RED,))
def _strawberry(p: Pen, c: str) -> None:
    pts = []
    for i in range(100):
        t = 2 * math.pi * i / 100
        r = 34 * (1 - 0.35 * math.sin(t))
        pts.append((50 + r * math.cos(t), 42 - r * math.sin(t) * (0.6 if math.sin(t) > 0 else 1.0)))
    p.poly(pts, fill=c, w=2)
    for x, y in ((36, 42), (50, 38), (64, 42), (42, 56), (58, 56), (50, 70), (30, 50), (70, 50)):
        p.ellipse(x, y, 1.5, 2.4, fill=YELLOW, w=0)
    p.poly(
        [(30, 26), (40, 22), (44, 12), (50, 22), (56, 12), (60, 22), (70, 26), (58, 32), (50, 30), (42, 32)],
        fill=GREEN,
        w=1.4,
    )


@_obj("grapes", "grape", colours=(PURPLE, GREEN))
def _grapes(p: Pen, c: str) -> None:
    p.line([(50, 22), (54, 8)], w=2.4, fill=BROWN)
    p.poly([(54, 14), (70, 6), (84, 12), (68, 20)], fill=GREEN, w=1.2)
    for row, n in enumerate((4, 3, 3, 2, 1)):
        for k in range(n):
            x = 50 + (k - (n - 1) / 2) * 15
            p.circle(x, 30 + row * 13, 8.5, fill=c, w=1.6)


@_obj("spider", colours=(INK, DKGREY, BROWN))
def _spider(p: Pen, c: str) -> None:
    p.line([(50, 4), (50, 36)], w=1)
    for s in (-1, 1):
        for dy, ex, ey in ((-10, 30, -22), (-3, 40, -6), (4, 40, 14), (10, 30, 32)):
            p.line([(50, 54 + dy), (50 + s * ex * 0.6, 54 + dy + ey * 0.3 - 8), (50 + s * ex, 54 + ey)], w=2)
    p.ellipse(50, 60, 14, 16, fill=c, w=1.4)
    p.circle(50, 42, 8, fill=c, w=1.4)
    for x in (47, 53):
        p.circle(x, 41, 1.8, fill=WHITE, w=0)


@_obj("watering can", colours=(GREEN, BLUE, RED))
def _watering(p: Pen, c: str) -> None:
    p.arc(46, 40, 20, 16, 180, 360, w=3)
    p.poly([(64, 50), (88, 24), (92, 28), (70, 62)], fill=c, w=1.8)
    p.poly([(84, 18), (96, 30), (92, 32), (82, 22)], fill=c, w=1.6)
    p.rect(24, 40, 68, 86, fill=c, w=2, r=3)
    p.line([(24, 50), (68, 50)], w=1.2)


@_obj("lamp post", "street lamp", "streetlight", "street light", colours=(DKGREY, GREEN))
def _lamppost(p: Pen, c: str) -> None:
    p.rect(46, 30, 54, 90, fill=c, w=1.6)
    p.rect(36, 88, 64, 96, fill=c, w=1.6)
    p.poly([(40, 30), (60, 30), (66, 12), (34, 12)], fill=YELLOW, w=1.8)
    p.poly([(32, 12), (68, 12), (50, 2)], fill=c, w=1.6)


BUILTIN: tuple[Picture, ...] = tuple(sorted(_BUILTIN, key=lambda pic: pic.name))
BUILTIN_BY_NAME: dict[str, Picture] = {pic.name: pic for pic in BUILTIN}


# --------------------------------------------------------------------------- rendering


@functools.lru_cache(maxsize=1024)
def _render_cached(picture: Picture, size: int, style: Style, grey: bool) -> Image.Image:
    if picture.path is not None:
        img = _render_file(picture.path, size, style)
    else:
        big = size * SUPERSAMPLE
        img = Image.new("RGB", (big, big), WHITE)
        if picture.draw is None:
            raise ValueError(f"picture {picture.name!r} has neither a drawing nor a file")
        colour = picture.colours[style.colour % len(picture.colours)]
        picture.draw(Pen(ImageDraw.Draw(img), big, style), colour)
        img = img.reduce(SUPERSAMPLE)  # box-filter 2x2 average: the antialiasing step
    if grey:
        img = img.convert("L").convert("RGB")
    return img


def _render_file(path: str, size: int, style: Style) -> Image.Image:
    with Image.open(path) as src:
        src.load()
        rgba = src.convert("RGBA")
    flat = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    flat.alpha_composite(rgba)
    pic = flat.convert("RGB")
    box = max(1, round(size * style.scale))
    ratio = box / max(pic.size)
    w, h = max(1, round(pic.width * ratio)), max(1, round(pic.height * ratio))
    pic = pic.resize((w, h), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (size, size), WHITE)
    x = round((size - w) / 2 + style.dx * size)
    y = round((size - h) / 2 + style.dy * size)
    canvas.paste(pic, (x, y))
    return canvas


def ink_mask(img: Image.Image) -> np.ndarray:
    """Boolean mask of the non-white ("ink") pixels of an image."""
    return np.asarray(img.convert("L")) < INK_THRESHOLD


# --------------------------------------------------------------------------- sources


def _clean_label(label: object, where: str) -> str:
    if not isinstance(label, str):
        raise ValueError(f"{where}: labels must be strings, got {label!r}")
    text = " ".join(label.strip().lower().split())
    if "," in text or ";" in text:
        raise ValueError(f"{where}: a label may not contain ',' or ';' (got {label!r})")
    return text


def _picture_from(path: Path, labels: Sequence[object], where: str) -> Picture:
    cleaned = tuple(dict.fromkeys(lab for lab in (_clean_label(x, where) for x in labels) if lab))
    if not cleaned:
        raise ValueError(f"{where}: no label given for {path.name}")
    try:
        with Image.open(path) as img:
            img.verify()
    except Exception as exc:  # PIL raises many types for broken files
        raise ValueError(f"{where}: {path.name} is not a readable image ({type(exc).__name__})") from None
    return Picture(name=path.name, labels=cleaned, path=str(path))


def load_folder(path: str | os.PathLike[str]) -> tuple[Picture, ...]:
    """Labelled pictures from a folder, sorted by file name.

    Either a ``labels.json`` mapping file names to a list of accepted labels
    (``{"bike1.png": ["bicycle", "bike"]}``), or image files named
    ``<label>[,<variant>...].png`` (``.jpg``/``.jpeg`` also read), e.g.
    ``bicycle,bike.png``. Labels are lower-cased; a label may not contain ',' or ';'.
    Raises ValueError for a missing, empty or invalid folder.
    """
    return _load_folder_cached(str(Path(path).resolve()), _folder_stamp(path))


def _folder_stamp(path: str | os.PathLike[str]) -> float:
    p = Path(path)
    if not p.is_dir():
        raise ValueError(f"pictures_dir {str(path)!r} is not a folder")
    stamps = [p.stat().st_mtime_ns] + [f.stat().st_mtime_ns for f in p.iterdir() if f.is_file()]
    return max(stamps)


@functools.lru_cache(maxsize=8)
def _load_folder_cached(folder: str, stamp: float) -> tuple[Picture, ...]:
    del stamp  # part of the cache key only
    root = Path(folder)
    labels_file = root / "labels.json"
    pictures: list[Picture] = []
    if labels_file.exists():
        where = f"pictures_dir {folder!r}: labels.json"
        try:
            table = json.loads(labels_file.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{where} is not valid JSON ({exc})") from None
        if not isinstance(table, dict):
            raise ValueError(f"{where} must map file names to lists of labels")
        for fname in sorted(table):
            labels = table[fname]
            labels = labels.split(",") if isinstance(labels, str) else labels
            if not isinstance(labels, list):
                raise ValueError(f"{where}: labels of {fname!r} must be a list of strings")
            fpath = root / fname
            if not fpath.is_file() or fpath.parent != root:
                raise ValueError(f"{where}: {fname!r} is not a file in the folder")
            pictures.append(_picture_from(fpath, labels, where))
    else:
        where = f"pictures_dir {folder!r}"
        for fpath in sorted(root.iterdir()):
            if fpath.is_file() and fpath.suffix.lower() in IMAGE_SUFFIXES:
                pictures.append(_picture_from(fpath, fpath.stem.split(","), where))
    if not pictures:
        raise ValueError(
            f"pictures_dir {folder!r} holds no labelled pictures: expected <label>[,<variant>...].png files or a labels.json"
        )
    return tuple(pictures)


def library(pictures_dir: str | None = None) -> tuple[Picture, ...]:
    """The picture source of a config: the built-in drawings, or a user folder."""
    return BUILTIN if pictures_dir is None else load_folder(pictures_dir)


# --------------------------------------------------------------------------- occluders (CS1, CS2, CS3)


def paint(draw: ImageDraw.ImageDraw, shape: dict, fill: int | str) -> None:
    """Draw one occluder or clutter shape of a scene: a polyline, a rectangle or an ellipse (pixel units)."""
    kind = shape["kind"]
    if kind == "line":
        draw.line([tuple(p) for p in shape["pts"]], fill=fill, width=int(shape["w"]), joint="curve")
    elif kind == "rect":
        draw.rectangle(list(shape["box"]), fill=fill)
    elif kind == "ellipse":
        draw.ellipse(list(shape["box"]), fill=fill)
    else:
        raise ValueError(f"unknown shape kind {kind!r}")


def greedy_cover(
    rng: random.Random,
    ink: np.ndarray,
    propose: Callable[[random.Random], dict],
    target: float,
    tolerance: float = 0.03,
    max_tries: int = 500,
    parts: Sequence[np.ndarray] = (),
    part_cap: float = 1.0,
) -> tuple[list[dict], int]:
    """Occluders that hide at most ``target`` of the ink (and at most ``part_cap`` of each part mask).

    Shapes from ``propose`` are kept while they hide new ink without breaking a cap
    (overlapping part masks are counted for their first part here, exactly in :func:`settle`),
    until the hidden share is within ``tolerance`` of ``target`` or ``max_tries`` is
    spent. Returns the kept shapes and the exact number of ink pixels they hide
    (re-counted on the full canvas by :func:`settle`).
    """
    h, w = ink.shape
    total = int(ink.sum())
    part_totals = np.array([int(m.sum()) for m in parts], dtype=np.int64)
    part_hidden = np.zeros(len(parts), dtype=np.int64)
    owner = np.full(ink.shape, len(parts), dtype=np.int32)  # first part owning each pixel (len = none)
    for k in range(len(parts) - 1, -1, -1):
        owner[parts[k]] = k
    covered = np.zeros_like(ink)
    hidden = 0
    shapes: list[dict] = []
    for _ in range(max_tries):
        if hidden >= (target - tolerance) * total:
            break
        shape = propose(rng)
        region = _shape_mask(shape, w, h)
        if region is None:
            continue
        (x0, y0, x1, y1), mask = region
        fresh = mask & ~covered[y0:y1, x0:x1] & ink[y0:y1, x0:x1]
        gain = int(fresh.sum())
        if gain == 0 or hidden + gain > target * total:
            continue
        if len(parts):
            part_gain = np.bincount(owner[y0:y1, x0:x1][fresh], minlength=len(parts) + 1)[:-1]
            if np.any(part_hidden + part_gain > part_cap * part_totals):
                continue
            part_hidden += part_gain
        covered[y0:y1, x0:x1] |= mask
        hidden += gain
        shapes.append(shape)
    return settle(shapes, ink, target, parts, part_cap)


def _shape_mask(shape: dict, w: int, h: int) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """The pixels a shape paints on a w x h canvas, as (bbox, mask inside bbox); None when it paints none.

    Drawn on a small canvas around the shape (shifted by whole pixels) for speed. A
    line can rarely differ by a pixel from full-canvas painting (float rounding in
    PIL), so :func:`settle` re-checks the kept shapes on the full canvas.
    """
    if shape["kind"] == "rect":  # PIL fills integer boxes inclusively: [x0, x1] x [y0, y1]
        bx0, by0, bx1, by1 = (int(v) for v in shape["box"])
        x0, y0, x1, y1 = max(0, bx0), max(0, by0), min(w, bx1 + 1), min(h, by1 + 1)
        if x0 >= x1 or y0 >= y1:
            return None
        return (x0, y0, x1, y1), np.ones((y1 - y0, x1 - x0), dtype=bool)
    if shape["kind"] == "line":
        xs = [p[0] for p in shape["pts"]]
        ys = [p[1] for p in shape["pts"]]
        pad = int(shape["w"]) + 2
    else:
        xs, ys, pad = [shape["box"][0], shape["box"][2]], [shape["box"][1], shape["box"][3]], 2
    # no shift along an axis where the shape comes near or past 0: PIL truncates negative coordinates
    ox, oy = max(0, math.floor(min(xs)) - pad), max(0, math.floor(min(ys)) - pad)
    lw = min(math.ceil(max(xs)) + pad + 1, w) - ox  # the full canvas clips there anyway
    lh = min(math.ceil(max(ys)) + pad + 1, h) - oy
    if lw <= 0 or lh <= 0:
        return None
    local = dict(shape)
    if shape["kind"] == "line":
        local["pts"] = [[p[0] - ox, p[1] - oy] for p in shape["pts"]]
    else:
        b = shape["box"]
        local["box"] = [b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy]
    layer = Image.new("L", (lw, lh), 0)
    paint(ImageDraw.Draw(layer), local, 255)
    mask = np.asarray(layer) > 0
    x0, y0, x1, y1 = max(0, ox), max(0, oy), min(w, ox + lw), min(h, oy + lh)
    if x0 >= x1 or y0 >= y1:
        return None
    mask = mask[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
    if not mask.any():
        return None
    return (x0, y0, x1, y1), mask


def settle(
    shapes: list[dict], ink: np.ndarray, target: float, parts: Sequence[np.ndarray] = (), part_cap: float = 1.0
) -> tuple[list[dict], int]:
    """Shapes painted together on the full canvas, dropping the last ones while a cap is broken.

    Returns the kept shapes and the exact number of ink pixels they hide.
    """
    h, w = ink.shape
    shapes = list(shapes)
    while True:
        layer = Image.new("L", (w, h), 0)
        draw = ImageDraw.Draw(layer)
        for shape in shapes:
            paint(draw, shape, 255)
        covered = np.asarray(layer) > 0
        hidden = int((covered & ink).sum())
        ok = hidden <= target * int(ink.sum()) and all(
            int((covered & m).sum()) <= part_cap * int(m.sum()) for m in parts
        )
        if ok or not shapes:
            return shapes, hidden
        shapes.pop()


def ink_points(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates (xs, ys) of the ink pixels, for placing occluders on the object."""
    ys, xs = np.nonzero(ink)
    return xs, ys


def ink_box(ink: np.ndarray, margin: int = 0) -> tuple[int, int, int, int]:
    """The bounding box (x0, y0, x1, y1) of the ink, grown by ``margin`` and clipped to the image."""
    ys, xs = np.nonzero(ink)
    h, w = ink.shape
    if len(xs) == 0:
        return (0, 0, w - 1, h - 1)
    return (
        max(0, int(xs.min()) - margin),
        max(0, int(ys.min()) - margin),
        min(w - 1, int(xs.max()) + margin),
        min(h - 1, int(ys.max()) + margin),
    )


@dataclass
class Prepared:
    """A chosen picture, drawn clean, with its ink: the common start of CS1 and CS3 items."""

    picture: Picture
    style: Style
    image: Image.Image  # drawn in place by the occluders
    ink: np.ndarray
    points: np.ndarray
    source: str
    grey: bool

    def scene(self, **occluders: object) -> dict[str, object]:
        """The scene a verifier needs: the picture, its style, and the occluders drawn over it."""
        return {"picture": self.picture.name, "source": self.source, "style": self.style.as_dict(), "grey": self.grey,
                **occluders, "ink_pixels": int(self.ink.sum())}  # fmt: skip

    def png(self) -> bytes:
        from .base import png

        return png(self.image.convert("L") if self.grey else self.image)


def prepare(rng: random.Random, pictures_dir: str | None, size: int, colour: bool) -> Prepared:
    """Pick a picture and its style from the item RNG and draw it (the RNG calls are part of the item's identity)."""
    pictures = library(pictures_dir)
    picture = pictures[rng.randrange(len(pictures))]
    style = random_style(rng, picture)
    image = picture.render(size, style, grey=not colour)
    ink = ink_mask(image)
    return Prepared(
        picture, style, image, ink, ink_points(ink), "builtin" if pictures_dir is None else "folder", not colour
    )
