"""The unit the audit works on: one item with its options cut out, their labels and the stimulus panels.

Every source (generated Mind's Eye images with their recorded option boxes, released Mind's Eye images cut by a
grid layout, VisFactor rows, scene metadata) is turned into :class:`AuditItem` first, so features and pickers
never see where an item came from. Crops are small (``CROP`` px squares, aspect kept by padding with the
background), which is all the surface features need and keeps 300 items x 8 tasks x 3 presets at minutes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

CHOICE, BINARY = "choice", "binary"
CROP = 64  # side of every option and stimulus crop (px)
Box = tuple[float, float, float, float]  # left, top, right, bottom in the image's pixels


@dataclass(frozen=True)
class AuditItem:
    """One item as the audit sees it.

    ``kind`` is ``choice`` (exactly one option is the answer; pickers choose one option per item) or ``binary``
    (every option is a yes/no row of its own; pickers predict each row's label). ``options`` and ``stimulus``
    hold ``CROP`` x ``CROP`` x 3 uint8 crops; an item audited from scene metadata only has no crops and gives its
    per-option numbers in ``values`` instead (one list per feature name, one entry per option). ``concept`` names
    the features (``fnmatch`` patterns) that are this item's own concept, beyond its task's
    (:func:`cogvis_tasks.audit.concepts.item_concepts`): the surface pickers see them flat on this item only.
    """

    group: str  # "<benchmark>/<subtest>": the set the item belongs to (with ``preset``)
    preset: str
    key: str  # the item's id in its source (image name, "<subtest>:<eval_index>")
    kind: str
    labels: tuple[int, ...]  # per option: 1 for the answer (choice) or a "yes" row (binary)
    options: tuple[np.ndarray, ...] = ()
    stimulus: tuple[np.ndarray, ...] = ()
    values: dict[str, tuple[float, ...]] = field(default_factory=dict)
    concept: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.labels)
        if self.kind not in (CHOICE, BINARY):
            raise ValueError(f"{self.key}: kind must be {CHOICE!r} or {BINARY!r}, got {self.kind!r}")
        if n < 2:
            raise ValueError(f"{self.key}: an item needs at least two options, got {n}")
        if self.kind == CHOICE and sum(self.labels) != 1:
            raise ValueError(
                f"{self.key}: a choice item needs exactly one answer among its labels, got {list(self.labels)}"
            )
        if self.options and len(self.options) != n:
            raise ValueError(f"{self.key}: {len(self.options)} option crops for {n} labels")
        if not self.options and not self.values:
            raise ValueError(f"{self.key}: neither option crops nor option values")
        for name, vals in self.values.items():
            if len(vals) != n:
                raise ValueError(f"{self.key}: value {name!r} has {len(vals)} entries for {n} options")

    @property
    def answer(self) -> int:
        """The answer's option index (choice items)."""
        return self.labels.index(1)


def decode(data: bytes | Image.Image) -> Image.Image:
    """An RGB image from PNG/JPEG bytes (transparent pixels composited on white, as a viewer shows them)."""
    img = data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))
    if img.mode in ("RGBA", "LA", "P"):
        img = img.convert("RGBA")
        flat = Image.new("RGBA", img.size, (255, 255, 255, 255))
        flat.alpha_composite(img)
        img = flat
    return img.convert("RGB")


def square_crop(img: Image.Image, box: Box | None = None, side: int = CROP) -> np.ndarray:
    """``box`` of ``img`` (the whole image by default) padded to a square with its border colour, resized to ``side``."""
    part = img if box is None else img.crop(tuple(int(round(v)) for v in box))
    w, h = part.size
    if w < 1 or h < 1:
        raise ValueError(f"empty crop {box} of a {img.size} image")
    arr = np.asarray(part)
    border = np.concatenate([arr[0], arr[-1], arr[:, 0], arr[:, -1]])
    fill = tuple(int(v) for v in np.median(border, axis=0))
    s = max(w, h)
    canvas = Image.new("RGB", (s, s), fill)
    canvas.paste(part, ((s - w) // 2, (s - h) // 2))
    return np.asarray(canvas.resize((side, side), Image.Resampling.BOX), dtype=np.uint8)


def crops(img: Image.Image, boxes: Sequence[Box], side: int = CROP) -> tuple[np.ndarray, ...]:
    return tuple(square_crop(img, b, side) for b in boxes)
