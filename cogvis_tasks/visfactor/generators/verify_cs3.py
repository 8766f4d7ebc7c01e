"""Independent CS3 check: look the object up by name, re-count the snow-covered ink on the pixels.

As for CS1 (shared helpers in ``verify_cs1``): the answer is the label list found by
name; the image must be the clean drawing with only white and black added, exactly
the scene's snow and clutter repainted here, with round(s * clutter_lines) clutter
segments and at most the severity share of the drawing's ink turned white.
"""

from __future__ import annotations

import numpy as np

from . import base
from .verify_cs1 import check_lost_ink, clean_picture, labels_by_name, pixels, repaint


def solve(item: base.GeneratedItem) -> list[str]:
    scene, params = item.metadata["scene"], item.metadata["params"]
    labels = labels_by_name(params["pictures_dir"])[scene["picture"]]
    (row,) = item.rows
    shown = pixels(row.images[0])
    clean = clean_picture(scene, params)
    if shown.shape != (params["size"], params["size"]):
        raise ValueError(f"image is {shown.shape}, expected {params['size']} square")
    changed = shown[shown != clean]
    if np.any((changed != 255) & (changed != 0)):
        raise ValueError("the image differs from the clean picture by more than snow and black clutter")
    if len(scene["clutter"]) != round(params["severity"] * params["clutter_lines"]):
        raise ValueError(f"{len(scene['clutter'])} clutter segments, expected round(severity * clutter_lines)")
    if not np.array_equal(shown, repaint(clean, scene["snow"], scene["clutter"])):
        raise ValueError("the image is not the clean picture with the scene's snow and clutter")
    check_lost_ink(clean, repaint(clean, scene["snow"]), params["severity"], scene)
    return [",".join(labels)]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
