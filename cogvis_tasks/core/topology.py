"""Parts and holes of an ink mask, counted in one place: the shortcut audit's features count them on option crops,
and a generator that must not change them (HPE's irregular figures) counts them on a thumbnail the same way."""

from __future__ import annotations

import numpy as np
from scipy import ndimage  # type: ignore[import-untyped]

SPECK = 3  # px: parts and holes smaller than this are resampling noise


def parts_and_holes(mask: np.ndarray) -> tuple[int, int]:
    """Ink parts (8-connected) and holes (background regions not touching the border, 4-connected) of a 2-D mask."""
    labels, _ = ndimage.label(mask, structure=np.ones((3, 3), dtype=bool))
    parts = int((np.bincount(labels.ravel())[1:] >= SPECK).sum())
    background, count = ndimage.label(~mask)
    sizes = np.bincount(background.ravel(), minlength=count + 1)
    border = np.unique(np.concatenate([background[0], background[-1], background[:, 0], background[:, -1]]))
    inner = np.setdiff1d(np.arange(1, count + 1), border)
    return parts, int((sizes[inner] >= SPECK).sum())
