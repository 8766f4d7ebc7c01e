"""Independent CS1 check: look the object up by name, re-count the erased ink on the pixels.

The answer is the accepted-label list of the scene's picture, found by name in a
table built from the picture source (the generator indexes the sorted list with its
RNG). The image is re-checked pixel by pixel: it must be the clean drawing with
only white added, exactly the scene's strokes repainted here, and the ink it lost
(clean ink pixels now white) at most the severity share of the drawing's ink.
A broken rule raises ``ValueError``.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw

from . import base, objects


def labels_by_name(pictures_dir: str | None) -> dict[str, tuple[str, ...]]:
    return {p.name: p.labels for p in objects.library(pictures_dir)}


def pixels(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as img:
        return np.asarray(img.convert("L")).astype(np.int16)


def clean_picture(scene: dict, params: dict) -> np.ndarray:
    picture = {p.name: p for p in objects.library(params["pictures_dir"])}[scene["picture"]]
    img = picture.render(params["size"], objects.Style.from_dict(scene["style"]), grey=scene["grey"])
    return np.asarray(img.convert("L")).astype(np.int16)


def check_lost_ink(clean: np.ndarray, shown: np.ndarray, share: float, scene: dict) -> None:
    """The shown image keeps the clean ink except where it turned white, and loses at most ``share`` of it."""
    ink = clean < objects.INK_THRESHOLD
    lost = int((ink & (shown >= objects.INK_THRESHOLD)).sum())
    if int(ink.sum()) == 0:
        raise ValueError("the picture has no ink")
    if lost > share * int(ink.sum()):
        raise ValueError(f"{lost} of {int(ink.sum())} ink pixels erased, more than {share:.0%}")
    if (lost, int(ink.sum())) != (scene["hidden_pixels"], scene["ink_pixels"]):
        raise ValueError("the erased-ink count differs from the scene's")


def repaint(clean: np.ndarray, white: list[dict], black: list[dict] = ()) -> np.ndarray:
    img = Image.fromarray(clean.astype(np.uint8), "L")
    draw = ImageDraw.Draw(img)
    for fill, shapes in ((255, white), (0, black)):
        for s in shapes:
            if s["kind"] == "line":
                draw.line([tuple(p) for p in s["pts"]], fill=fill, width=s["w"], joint="curve")
            elif s["kind"] == "rect":
                draw.rectangle(s["box"], fill=fill)
            else:
                draw.ellipse(s["box"], fill=fill)
    return np.asarray(img).astype(np.int16)


def solve(item: base.GeneratedItem) -> list[str]:
    scene, params = item.metadata["scene"], item.metadata["params"]
    labels = labels_by_name(params["pictures_dir"])[scene["picture"]]
    (row,) = item.rows
    shown = pixels(row.images[0])
    clean = clean_picture(scene, params)
    if shown.shape != (params["size"], params["size"]):
        raise ValueError(f"image is {shown.shape}, expected {params['size']} square")
    if np.any(shown[shown != clean] != 255):
        raise ValueError("the image differs from the clean picture by more than white strokes")
    if not np.array_equal(shown, repaint(clean, scene["strokes"])):
        raise ValueError("the image is not the clean picture with the scene's strokes")
    check_lost_ink(clean, shown, params["severity"], scene)
    return [",".join(labels)]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
