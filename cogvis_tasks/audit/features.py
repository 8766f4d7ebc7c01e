"""Per-option surface features, normalised within the item, and raw downsampled crops.

None of these features solves a task: they measure how an option is drawn (ink, extent, position, colour,
mirror and rotational symmetry, parts and holes) and how it relates to the other options and to the stimulus
panels (pixel distances: the "odd one out", "closest to the last frame"). If a picker on them finds the answer
above chance, the item set can be answered without doing the task.

Everything is computed on the whole stack of crops at once with numpy (connected components with SciPy, which
scikit-learn already requires). Features are returned raw and as z-scores within their item; the raw pixel
block is a 16 x 16 grey image per option, centred on its item's mean so that it says how an option differs from
its siblings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .items import CROP, AuditItem

INK_THRESHOLD = 48  # max channel difference from the crop's background that counts as ink
GRID = 32  # symmetry and distance grid
RAW = 16  # raw-pixel grid
COLOUR_BINS = 4  # levels per channel for the colour histogram (64 bins)

RELATION_FEATURES = (
    "colour_unique", "colour_dist_others", "dist_others_mean", "dist_others_min", "shape_dist_others",
    "colour_dist_stimulus", "dist_stimulus_min", "dist_stimulus_mean", "dist_stimulus_first", "dist_stimulus_last",
)  # fmt: skip


@dataclass(frozen=True)
class FeatureTable:
    """One row per option of a set of items (items contiguous, in order)."""

    kind: str  # choice or binary (every item of a set has the same)
    names: tuple[str, ...]
    values: np.ndarray  # (options, features) raw values
    within: np.ndarray  # (options, features) z-scores within the item
    raw: np.ndarray  # (options, RAW*RAW) grey pixels minus the item mean (empty when items have no crops)
    item: np.ndarray  # (options,) item number 0..n_items-1
    labels: np.ndarray  # (options,) 0/1
    position: np.ndarray  # (options,) option index within its item

    @property
    def n_items(self) -> int:
        return int(self.item[-1]) + 1 if len(self.item) else 0

    def column(self, name: str) -> np.ndarray:
        return self.values[:, self.names.index(name)]


def _blocks(a: np.ndarray, size: int) -> np.ndarray:
    """Block means of (N, S, S) down to (N, size, size)."""
    n, s = a.shape[0], a.shape[1]
    f = s // size
    return a[:, : f * size, : f * size].reshape(n, size, f, size, f).mean(axis=(2, 4))


def _similarity(m: np.ndarray, t: np.ndarray) -> np.ndarray:
    """1 - normalised L1 difference of masks and their transforms (1 = perfectly symmetric)."""
    den = m.sum(axis=(1, 2)) + t.sum(axis=(1, 2)) + 1e-9
    return 1.0 - np.abs(m - t).sum(axis=(1, 2)) / den


def _symmetries(m: np.ndarray, prefix: str, rot90: bool = True) -> dict[str, np.ndarray]:
    out = {
        f"{prefix}_v": _similarity(m, m[:, :, ::-1]),
        f"{prefix}_h": _similarity(m, m[:, ::-1, :]),
        f"{prefix}_d": _similarity(m, m.transpose(0, 2, 1)),
    }
    if rot90:
        out[f"{prefix}_ad"] = _similarity(m, m[:, ::-1, ::-1].transpose(0, 2, 1))
    out[f"{prefix}_rot180"] = _similarity(m, m[:, ::-1, ::-1])
    if rot90:
        out[f"{prefix}_rot90"] = _similarity(m, np.rot90(m, 1, axes=(1, 2)))
    return out


def _bbox_resample(
    mask: np.ndarray, x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray, size: int
) -> np.ndarray:
    """Each mask's ink bounding box stretched to size x size (nearest neighbour, vectorised by gathering)."""
    t = (np.arange(size) + 0.5) / size
    ys = np.clip((y0[:, None] + t[None] * (y1 - y0 + 1)[:, None]).astype(int), 0, mask.shape[1] - 1)
    xs = np.clip((x0[:, None] + t[None] * (x1 - x0 + 1)[:, None]).astype(int), 0, mask.shape[2] - 1)
    n = np.arange(mask.shape[0])[:, None, None]
    return mask[n, ys[:, :, None], xs[:, None, :]].astype(float)


def _components(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parts and holes per mask of a stack."""
    from ..core.topology import parts_and_holes

    counts = np.array([parts_and_holes(m) for m in mask], dtype=float).reshape(-1, 2)
    return counts[:, 0], counts[:, 1]


def image_features(stack: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """Per-crop features of an (N, CROP, CROP, 3) uint8 stack; also the 32x32 grey, 32x32 mask and colour histograms."""
    rgb = stack.astype(np.int16)
    n, s = stack.shape[0], stack.shape[1]
    border = np.concatenate([rgb[:, 0], rgb[:, -1], rgb[:, :, 0], rgb[:, :, -1]], axis=1)
    bg = np.median(border, axis=1)  # (N, 3)
    diff = np.abs(rgb - bg[:, None, None, :]).max(axis=3)
    mask = diff > INK_THRESHOLD
    grey = stack.sum(axis=3, dtype=np.uint16).astype(np.float32) / 765.0
    ink_count = mask.sum(axis=(1, 2)).astype(float)
    has = ink_count > 0
    rows_any, cols_any = mask.any(axis=2), mask.any(axis=1)
    idx = np.arange(s)
    y0 = np.where(has, np.argmax(rows_any, axis=1), 0)
    y1 = np.where(has, s - 1 - np.argmax(rows_any[:, ::-1], axis=1), s - 1)
    x0 = np.where(has, np.argmax(cols_any, axis=1), 0)
    x1 = np.where(has, s - 1 - np.argmax(cols_any[:, ::-1], axis=1), s - 1)
    width, height = (x1 - x0 + 1) / s, (y1 - y0 + 1) / s
    safe = np.maximum(ink_count, 1.0)
    cy = (mask.sum(axis=2) * idx).sum(axis=1) / safe / s
    cx = (mask.sum(axis=1) * idx).sum(axis=1) / safe / s
    pos = idx / s
    ey2 = (mask.sum(axis=2) * pos**2).sum(axis=1) / safe
    ex2 = (mask.sum(axis=1) * pos**2).sum(axis=1) / safe
    spread = np.sqrt(np.maximum(ey2 - cy**2 + ex2 - cx**2, 0.0))
    parts, holes = _components(mask)
    q = (stack // (256 // COLOUR_BINS)).astype(np.int64)
    bins = (q[..., 0] * COLOUR_BINS + q[..., 1]) * COLOUR_BINS + q[..., 2]
    nb = COLOUR_BINS**3
    flat = (np.arange(n)[:, None, None] * nb + bins)[mask]
    hist = np.bincount(flat, minlength=n * nb).reshape(n, nb) / safe[:, None]
    mean_rgb = np.einsum("nhwc,nhw->nc", stack.astype(np.float32), mask.astype(np.float32)) / safe[:, None] / 255.0
    sat = ((rgb.max(axis=3) - rgb.min(axis=3)) * mask).sum(axis=(1, 2)) / safe / 255.0
    m32 = _blocks(mask.astype(float), GRID)
    mb = _bbox_resample(mask, x0, x1, y0, y1, GRID)
    feats: dict[str, np.ndarray] = {
        "ink": ink_count / (s * s),
        "darkness": 1.0 - grey.mean(axis=(1, 2)),
        "width": width,
        "height": height,
        "bbox_area": width * height,
        "aspect": width / np.maximum(height, 1.0 / s),
        "fill": ink_count / (s * s) / np.maximum(width * height, 1.0 / (s * s)),
        "cx": cx,
        "cy": cy,
        "centre_offset": np.hypot(cx - 0.5, cy - 0.5),
        "spread": spread,
        "n_parts": parts,
        "n_holes": holes,
        "n_colours": (hist > 0.05).sum(axis=1).astype(float),
        "saturation": sat,
        "mean_r": mean_rgb[:, 0],
        "mean_g": mean_rgb[:, 1],
        "mean_b": mean_rgb[:, 2],
    }
    feats.update(_symmetries(m32, "sym"))
    feats["sym_mirror_best"] = np.max([feats["sym_v"], feats["sym_h"], feats["sym_d"], feats["sym_ad"]], axis=0)
    feats.update(_symmetries(mb, "bsym", rot90=False))
    return feats, _blocks(grey, GRID).reshape(n, -1), m32.reshape(n, -1), hist


def _relations(items: Sequence[AuditItem], spans: list[tuple[int, int]], g32, m32, hist) -> dict[str, np.ndarray]:
    """Distances of each option to its siblings and to its item's stimulus panels."""
    total = spans[-1][1]
    out = {name: np.zeros(total) for name in RELATION_FEATURES}
    stimuli = [it.stimulus for it in items]
    flat = [s for st in stimuli for s in st]
    if flat:
        sf, sg, _, sh = image_features(np.stack(flat))
        del sf
    offset = 0
    dominant = hist.argmax(axis=1)
    for it, (a, b) in zip(items, spans, strict=True):
        g, m, h = g32[a:b], m32[a:b], hist[a:b]
        k = b - a
        d = np.sqrt(((g[:, None] - g[None]) ** 2).mean(axis=2))
        off = ~np.eye(k, dtype=bool)
        out["dist_others_mean"][a:b] = d.sum(axis=1) / (k - 1)
        out["dist_others_min"][a:b] = np.where(off, d, np.inf).min(axis=1)
        out["shape_dist_others"][a:b] = np.abs(m[:, None] - m[None]).mean(axis=2).sum(axis=1) / (k - 1)
        out["colour_dist_others"][a:b] = np.abs(h[:, None] - h[None]).sum(axis=2).sum(axis=1) / (k - 1)
        dom = dominant[a:b]
        out["colour_unique"][a:b] = ((dom[:, None] == dom[None]).sum(axis=1) == 1).astype(float)
        ns = len(it.stimulus)
        if ns:
            sg_i, sh_i = sg[offset : offset + ns], sh[offset : offset + ns]
            ds = np.sqrt(((g[:, None] - sg_i[None]) ** 2).mean(axis=2))
            out["dist_stimulus_min"][a:b] = ds.min(axis=1)
            out["dist_stimulus_mean"][a:b] = ds.mean(axis=1)
            out["dist_stimulus_first"][a:b] = ds[:, 0]
            out["dist_stimulus_last"][a:b] = ds[:, -1]
            out["colour_dist_stimulus"][a:b] = np.abs(h[:, None] - sh_i[None]).sum(axis=2).min(axis=1)
            offset += ns
    return out


def _within(values: np.ndarray, item: np.ndarray, n_items: int) -> np.ndarray:
    """z-scores of every column within its item (0 where an item's options are all equal)."""
    count = np.bincount(item, minlength=n_items)[:, None].astype(float)
    mean = np.zeros((n_items, values.shape[1]))
    np.add.at(mean, item, values)
    mean /= count
    dev = values - mean[item]
    var = np.zeros_like(mean)
    np.add.at(var, item, dev**2)
    std = np.sqrt(var / count)[item]
    return np.where(std > 1e-9, dev / np.maximum(std, 1e-9), 0.0)


def build(items: Sequence[AuditItem]) -> FeatureTable:
    """The feature table of a set of items (all with crops, or all with values of the same names)."""
    if not items:
        raise ValueError("no items to audit")
    spans, start = [], 0
    for it in items:
        spans.append((start, start + len(it.labels)))
        start += len(it.labels)
    item = np.concatenate([np.full(len(it.labels), i) for i, it in enumerate(items)])
    labels = np.concatenate([np.asarray(it.labels) for it in items]).astype(int)
    position = np.concatenate([np.arange(len(it.labels)) for it in items]).astype(float)
    columns: dict[str, np.ndarray] = {}
    raw = np.zeros((len(item), 0))
    with_crops = [bool(it.options) for it in items]
    if any(with_crops):
        if not all(with_crops):
            raise ValueError("a set mixes items with option crops and items without")
        stack = np.stack([o for it in items for o in it.options])
        if stack.shape[1:] != (CROP, CROP, 3):
            raise ValueError(f"option crops must be {CROP}x{CROP}x3, got {stack.shape[1:]}")
        feats, g32, m32, hist = image_features(stack)
        columns.update(feats)
        columns.update(_relations(items, spans, g32, m32, hist))
        grey16 = _blocks(stack.sum(axis=3, dtype=np.uint16).astype(np.float32) / 765.0, RAW).reshape(len(item), -1)
        raw = grey16 - item_means(grey16, item, len(items))
    names_v = sorted(items[0].values)
    for it in items:
        if sorted(it.values) != names_v:
            raise ValueError(f"{it.key}: values {sorted(it.values)} differ from the set's {names_v}")
    for name in names_v:
        columns[name] = np.concatenate([np.asarray(it.values[name], dtype=float) for it in items])
    columns["position"] = position / np.maximum(np.bincount(item)[item] - 1, 1)
    names = tuple(columns)
    values = np.column_stack([columns[n] for n in names])
    kinds = {it.kind for it in items}
    if len(kinds) != 1:
        raise ValueError(f"a set mixes item kinds {sorted(kinds)}")
    return FeatureTable(kinds.pop(), names, values, _within(values, item, len(items)), raw, item, labels, position)


def item_means(a: np.ndarray, item: np.ndarray, n_items: int) -> np.ndarray:
    """Each row replaced by the mean of its item's rows."""
    total = np.zeros((n_items, a.shape[1]))
    np.add.at(total, item, a)
    return (total / np.bincount(item, minlength=n_items)[:, None])[item]


def coarse(raw: np.ndarray) -> np.ndarray:
    """16 x 16 crops as 8 x 8 block means (what the raw boosting picker sees: its cost grows with the columns)."""
    side = int(round(math.sqrt(raw.shape[1])))
    return raw.reshape(-1, side // 2, 2, side // 2, 2).mean(axis=(2, 4)).reshape(len(raw), -1)


def learned_design(values: np.ndarray, within: np.ndarray, item: np.ndarray, n_items: int) -> np.ndarray:
    """What the learned surface pickers see of each option: its values, its z-scores within the item, and the item's
    means (the context: which options are shown together), so boosting can learn a lookup such as "in items showing
    these solids, pick that one". Shared with the generators' surface balance, which scores drafts as these pickers
    would."""
    return np.hstack([values, within, item_means(values, item, n_items)])


def neutralised(table: FeatureTable, mask: np.ndarray) -> FeatureTable:
    """The table with the masked entries (rows x features) set to their item's mean and their within-item z to 0.

    Masks cover whole items (:func:`cogvis_tasks.audit.concepts.item_concepts`), so a masked feature is flat within
    its item: it cannot tell the options apart there, and the item means (the pickers' context) are unchanged.
    """
    if not mask.any():
        return table
    means = item_means(table.values, table.item, table.n_items)
    return replace(table, values=np.where(mask, means, table.values), within=np.where(mask, 0.0, table.within))
