"""Independent CF1 check: rasterise pattern and figures, search every pixel translation.

The generator decides containment on edge sets at lattice translations. Here the scene
is drawn as one-pixel lines on a fine raster (8 pixels per lattice unit) and a figure
counts as present when its pixels fit inside the pattern's pixels at ANY pixel offset,
found by correlation. That also covers shifts by fractions of a lattice unit, so a
figure that only appears off the lattice (e.g. a diamond of diagonals moved by half a
unit) would show up as a disagreement.

``image_answers`` does the same on the item's PNGs (ink masks, full-resolution
correlation over all offsets): it only works if every figure image is drawn at the
same scale as the pattern.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image
from scipy.signal import correlate, fftconvolve

from . import base

UNIT = 8  # raster pixels per lattice unit (even, so half-unit shifts are representable)


def _raster(edges) -> np.ndarray:
    edges = np.asarray(edges, dtype=int).reshape(-1, 4)
    rows = np.concatenate([edges[:, 0], edges[:, 2]])
    cols = np.concatenate([edges[:, 1], edges[:, 3]])
    edges = edges - [rows.min(), cols.min(), rows.min(), cols.min()]
    h, w = edges[:, [0, 2]].max(), edges[:, [1, 3]].max()
    grid = np.zeros((h * UNIT + 1, w * UNIT + 1), dtype=bool)
    t = np.arange(UNIT + 1)[None, :]  # every raster pixel along each unit edge
    grid[
        edges[:, :1] * UNIT + t * (edges[:, 2:3] - edges[:, :1]),
        edges[:, 1:2] * UNIT + t * (edges[:, 3:] - edges[:, 1:2]),
    ] = True
    return grid


def _fits(pattern: np.ndarray, fig: np.ndarray) -> bool:
    if fig.shape[0] > pattern.shape[0] or fig.shape[1] > pattern.shape[1]:
        return False
    hits = correlate(pattern.astype(np.float64), fig.astype(np.float64), mode="valid", method="fft")
    return bool(hits.max() > fig.sum() - 0.5)  # counts are integers; FFT adds tiny rounding noise


def solve(item: base.GeneratedItem) -> list[str]:
    scene = item.metadata["scene"]
    pattern = _raster(scene["pattern_edges"])  # offsets are searched exhaustively, so no origin is needed
    return ["T" if _fits(pattern, _raster(fig)) else "F" for fig in scene["figures"]]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)


def _ink(png: bytes, threshold: int = 128) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("L")) < threshold


def _crop(mask: np.ndarray) -> np.ndarray:
    rows, cols = np.flatnonzero(mask.any(1)), np.flatnonzero(mask.any(0))
    return mask[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]


def image_answers(item) -> list[str]:
    """Answers read off the PNGs alone: figure ink inside pattern ink at some pixel offset."""
    out = []
    for row in item.rows:
        fig, pattern = _crop(_ink(row.images[0])), _ink(row.images[1])
        if fig.shape[0] > pattern.shape[0] or fig.shape[1] > pattern.shape[1]:
            out.append("F")
            continue
        misses = fftconvolve((~pattern).astype(np.float32), fig[::-1, ::-1].astype(np.float32), mode="valid")
        out.append("T" if misses.min() < 0.5 else "F")
    return out
