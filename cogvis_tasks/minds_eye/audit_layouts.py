"""Where the options and the stimulus panels are in a Mind's Eye image.

Generated items record their boxes (``scene["option_boxes"]`` and, per task, the stimulus panels: DSC's four
frames, MT's original, MC's net, PF's fold steps); the label strip under each generated panel is left out.
Released items carry no boxes, so each task has a grid spec measured on the released images (the samples in
``/work/shared/samples/minds_eye``): the image is cut into ``rows`` x ``cols`` equal cells; options and stimulus
panels are lists of (row, col) cells (or ``frames``: boxes as image fractions); ``label`` is the share of a
cell's height at its top that holds the option letter (left out). A JSON file such as
``{"PF": {"rows": 2, "cols": 5, "options": [[1, 1], [1, 2], [1, 3], [1, 4]], "stimulus": [[0, 0]]}}`` overrides
any task's spec (``cogvis audit --layout FILE``). Read by :mod:`.audit`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ..audit.items import Box
from ..core.errors import DataError
from .generators.base import content_box

Cell = tuple[int, int]


@dataclass(frozen=True)
class GridLayout:
    rows: int
    cols: int
    options: tuple[Cell, ...]
    stimulus: tuple[Cell, ...] = ()
    label: float = 0.0  # top share of each cell holding the letter (cut off)
    top: float = 0.0  # the grid's band of the image height (0 = from the top, 1 = to the bottom)
    bottom: float = 1.0
    frames: tuple[tuple[float, float, float, float], ...] = ()  # stimulus boxes as image fractions (x0, y0, x1, y1)

    def boxes(self, width: int, height: int, cells: tuple[Cell, ...]) -> list[Box]:
        band = (self.bottom - self.top) * height
        cw, ch = width / self.cols, band / self.rows
        out = []
        for r, c in cells:
            y0 = self.top * height + r * ch
            out.append((c * cw, y0 + self.label * ch, (c + 1) * cw, y0 + ch))
        return out

    def stimulus_boxes(self, width: int, height: int) -> list[Box]:
        cells = self.boxes(width, height, self.stimulus)
        return cells + [(x0 * width, y0 * height, x1 * width, y1 * height) for x0, y0, x1, y1 in self.frames]


# Measured on the released images (two per task): VRA and VCS 2 x 3 with the letter above each figure; HPE 2 x 2;
# SS one row of four; DSC frames t=0..0.75 above the four options; MT the original on top, "Option A-D" below;
# PF "Unfolded", folds and "Final view" above, the options under the last four of five columns; MC the net at the
# top left, the four solids below.
RELEASED: dict[str, GridLayout] = {
    "VRA": GridLayout(2, 3, tuple((r, c) for r in range(2) for c in range(3)), label=0.1),
    "VCS": GridLayout(2, 3, tuple((r, c) for r in range(2) for c in range(3)), label=0.1),
    "HPE": GridLayout(2, 2, tuple((r, c) for r in range(2) for c in range(2)), label=0.06),
    "SS": GridLayout(1, 4, tuple((0, c) for c in range(4)), label=0.15),
    "DSC": GridLayout(2, 4, tuple((1, c) for c in range(4)), tuple((0, c) for c in range(4)), label=0.12),
    "MT": GridLayout(2, 4, tuple((1, c) for c in range(4)), label=0.15, frames=((0.25, 0.05, 0.75, 0.5),)),
    "PF": GridLayout(2, 5, tuple((1, c) for c in range(1, 5)), tuple((0, c) for c in range(5)), label=0.15),
    "MC": GridLayout(2, 4, tuple((1, c) for c in range(4)), ((0, 0),), label=0.1),
}


def _cells(value: Any, path: str, task: str, field: str) -> tuple[Cell, ...]:
    if not isinstance(value, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) for v in c) for c in value
    ):
        raise DataError(path, task, field, "expected a list of [row, col] integer pairs")
    return tuple((int(r), int(c)) for r, c in value)


def _frames(value: Any, path: str, task: str) -> tuple[tuple[float, float, float, float], ...]:
    ok = isinstance(value, list) and all(
        isinstance(f, list)
        and len(f) == 4
        and all(isinstance(v, (int, float)) and 0 <= v <= 1 for v in f)
        and f[0] < f[2]
        and f[1] < f[3]
        for f in value
    )
    if not ok:
        raise DataError(
            path, task, "frames", "expected a list of [x0, y0, x1, y1] image fractions in [0, 1] with x0 < x1, y0 < y1"
        )
    return tuple(tuple(float(v) for v in f) for f in value)


def load_layouts(path: str | os.PathLike[str] | None) -> dict[str, GridLayout]:
    """The released layouts with the tasks in ``path`` (JSON) replaced."""
    layouts = dict(RELEASED)
    if path is None:
        return layouts
    path = str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except json.JSONDecodeError as exc:
        raise DataError(path, f"line {exc.lineno}", None, f"malformed JSON ({exc.msg})") from None
    if not isinstance(raw, dict):
        raise DataError(path, "top level", None, "expected an object mapping task ids to grid specs")
    for task, spec in raw.items():
        if task not in RELEASED:
            raise DataError(path, task, None, f"unknown task; expected one of {sorted(RELEASED)}")
        if not isinstance(spec, dict) or not isinstance(spec.get("rows"), int) or not isinstance(spec.get("cols"), int):
            raise DataError(path, task, "rows/cols", "expected integers rows and cols")
        extra = set(spec) - {"rows", "cols", "options", "stimulus", "frames", "label", "top", "bottom"}
        if extra:
            raise DataError(path, task, sorted(extra)[0], "unknown field")
        layout = GridLayout(
            spec["rows"],
            spec["cols"],
            _cells(spec.get("options"), path, task, "options"),
            _cells(spec.get("stimulus", []), path, task, "stimulus"),
            float(spec.get("label", 0.0)),
            float(spec.get("top", 0.0)),
            float(spec.get("bottom", 1.0)),
            _frames(spec.get("frames", []), path, task),
        )
        for r, c in layout.options + layout.stimulus:
            if not (0 <= r < layout.rows and 0 <= c < layout.cols):
                raise DataError(path, task, "options", f"cell {[r, c]} outside the {layout.rows} x {layout.cols} grid")
        layouts[task] = layout
    return layouts


def generated_boxes(task: str, scene: dict[str, Any]) -> tuple[list[Box], list[Box]]:
    """Option and stimulus boxes of a generated item, label strips left out."""
    options = [content_box(tuple(b)) for b in scene["option_boxes"]]
    if task == "DSC":
        stimulus = [content_box(tuple(f["box"])) for f in scene["frames"]]
    elif task == "MT":
        stimulus = [content_box(tuple(scene["original_box"]))]
    elif task == "MC":
        stimulus = [content_box(tuple(scene["net_box"]))]
    elif task == "PF":
        stimulus = [content_box(tuple(b)) for b in scene["step_boxes"]]
    else:
        stimulus = []
    return options, stimulus
