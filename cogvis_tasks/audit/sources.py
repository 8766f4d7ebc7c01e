"""Item sets as :class:`AuditItem` streams: generated in memory or read from a released layout.

- Mind's Eye generated: the generators through :mod:`cogvis_tasks.minds_eye.generated`; option and stimulus
  boxes come from the recorded scene. Released: :mod:`cogvis_tasks.minds_eye.data` and a grid layout per task
  (:mod:`cogvis_tasks.audit.layouts`).
- VisFactor (generated through :mod:`cogvis_tasks.visfactor.generated`, released through
  :mod:`cogvis_tasks.visfactor.data`): an item is its group of rows. A row's option is the image that differs
  between the item's rows (VZ1, whose rows all show the same six images, asks about "piece k": image k); images
  shared by every row are the stimulus. When every item has exactly one "yes" row (VZ2), the item is a choice
  among its rows; otherwise each row's label is predicted (CF1, CF2, VZ1, S1).
- Numeric answers read off one image (SS3 building, CF3 end dot, MA1 number) are audited from the generators'
  scene metadata: the candidates are the buildings / grid dots / study cells, their features where they are
  (distance to the straight start-end line, to the start, to the centre, ...), never the route or the copy.
  Released files carry no scene, so these subtests are declared not audited there.

Images are decoded at half size (Mind's Eye 1024 -> 512) before cropping: the crops are ``CROP`` px anyway.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from PIL import Image

from ..core.errors import DataError
from .items import BINARY, CHOICE, AuditItem, Box, crops, decode, square_crop
from .layouts import GridLayout, generated_boxes, load_layouts

HALF = 2  # Mind's Eye images are reduced by this factor before cropping
_PIECE = re.compile(r"Is piece (\d+)\b")
YES, NO = "T", "F"


def _scaled(boxes: Sequence[Box], factor: float) -> list[Box]:
    return [tuple(v / factor for v in b) for b in boxes]


def minds_eye_item(
    task: str, preset: str, key: str, image: bytes | Image.Image, answer: int, options: Sequence[Box], stimulus: Sequence[Box]
) -> AuditItem:
    img = decode(image)
    factor = 1
    if min(img.size) >= 512:
        img = img.reduce(HALF)
        factor = HALF
    labels = tuple(int(i == answer) for i in range(len(options)))
    return AuditItem(
        f"minds_eye/{task}", preset, key, CHOICE, labels, crops(img, _scaled(options, factor)), crops(img, _scaled(stimulus, factor))
    )


def minds_eye_generated(tasks: Iterable[str], difficulty: str, n: int, seed: int) -> Iterator[AuditItem]:
    """Generated Mind's Eye items (``difficulty`` a preset or ``mixed``), cut at their recorded boxes."""
    from ..minds_eye import generated

    for task in tasks:
        for item in generated.items(task, difficulty, seed, n):
            options, stimulus = generated_boxes(task, item.scene)
            yield minds_eye_item(task, item.record["difficulty"], item.key, item.image, item.answer_index, options, stimulus)


def minds_eye_released(
    local_path: str | os.PathLike[str] | None = None, tasks: Sequence[str] | None = None, layout_file: str | None = None
) -> Iterator[AuditItem]:
    """Released Mind's Eye items (``local_path`` or $COGVIS_DATA_DIR), cut by each task's grid layout."""
    from ..minds_eye import data
    from ..minds_eye.tasks import BY_ID

    layouts = load_layouts(layout_file)
    for record in data.load(list(tasks) if tasks is not None else None, local_path):
        layout: GridLayout = layouts[record.task]
        task = BY_ID[record.task]
        if len(layout.options) != task.options:
            raise DataError(
                layout_file or "built-in layout", record.task, "options", f"{len(layout.options)} cells for {task.options} options"
            )
        img = decode(record.image)
        w, h = img.size
        yield minds_eye_item(
            record.task, "released", record.key, img, task.letters.index(record.answer),
            layout.boxes(w, h, layout.options), layout.stimulus_boxes(w, h),
        )  # fmt: skip


# --- VisFactor ---------------------------------------------------------------------------------------------


def _row_options(key: str, rows: Sequence[tuple[tuple[bytes, ...], str]]) -> tuple[list[int | None], list[int]]:
    """Per row the option image index (None: the varying images together) and the shared (stimulus) positions."""
    width = min(len(images) for images, _ in rows)
    shared = [j for j in range(width) if all(images[j] == rows[0][0][j] for images, _ in rows)]
    varying = [j for j in range(width) if j not in shared]
    if len(varying) == 1:
        return [varying[0]] * len(rows), shared
    if not varying:
        picks = []
        for images, question in rows:
            match = _PIECE.search(question)
            if match is None or not 0 <= int(match.group(1)) < len(images):
                raise DataError(key, "rows", "image", "the rows show the same images and name no piece: no option to audit")
            picks.append(int(match.group(1)))
        return picks, [j for j in shared if j not in picks]
    return [None] * len(rows), shared


def rows_item(group: str, preset: str, key: str, rows: Sequence[tuple[tuple[bytes, ...], str, str]], kind: str) -> AuditItem:
    """An item of yes/no rows: (images, question, answer) per row."""
    picks, shared = _row_options(key, [(images, question) for images, question, _ in rows])
    options = []
    for (images, _, _), pick in zip(rows, picks, strict=True):
        if pick is not None:
            options.append(square_crop(decode(images[pick])))
        else:  # several images differ between rows: the row's varying images side by side
            parts = [decode(images[j]) for j in range(len(images)) if j not in shared]
            strip = Image.new("RGB", (sum(p.width for p in parts), max(p.height for p in parts)), "white")
            x = 0
            for p in parts:
                strip.paste(p, (x, 0))
                x += p.width
            options.append(square_crop(strip))
    stimulus = tuple(square_crop(decode(rows[0][0][j])) for j in shared)
    labels = tuple(int(answer == YES) for _, _, answer in rows)
    return AuditItem(group, preset, key, kind, labels, tuple(options), stimulus)


def _kind(answers: Sequence[Sequence[str]]) -> str:
    return CHOICE if all(list(a).count(YES) == 1 for a in answers) else BINARY


def _boolean(answers: Iterable[str]) -> bool:
    return all(a in (YES, NO) for a in answers)


def visfactor_rows_set(
    group: str, preset: str, items: Sequence[tuple[str, Sequence[tuple[tuple[bytes, ...], str, str]]]]
) -> list[AuditItem]:
    """A subtest's items of yes/no rows; a choice set when every item has exactly one "yes"."""
    kind = _kind([[a for _, _, a in rows] for _, rows in items])
    return [rows_item(group, preset, key, rows, kind) for key, rows in items]


def _ss3(scene: dict[str, Any], answer: str) -> tuple[dict[str, tuple[float, ...]], tuple[int, ...]]:
    """SS3 candidates: the buildings, where they lie relative to start, end, the straight line and the map."""
    (sx, sy), (ex, ey) = (scene["labels"][name] for name in scene["row_routes"][0])
    rows, cols = scene["rows"], scene["cols"]
    blocked = [(tuple(a), tuple(b)) for a, b in scene["blocked"]]
    vals: dict[str, list[float]] = {
        k: [] for k in ("line", "segment", "start", "end", "detour", "inside", "centre", "number", "x", "y", "blocked_near")
    }
    dx, dy = ex - sx, ey - sy
    length = math.hypot(dx, dy) or 1.0
    for b in scene["buildings"]:
        x0, y0, x1, y1 = b["square"]
        px, py = (x0 + x1) / 2, (y0 + y1) / 2
        t = max(0.0, min(1.0, ((px - sx) * dx + (py - sy) * dy) / length**2))
        vals["line"].append(abs(dx * (py - sy) - dy * (px - sx)) / length)
        vals["segment"].append(math.hypot(px - sx - t * dx, py - sy - t * dy))
        vals["start"].append(math.hypot(px - sx, py - sy))
        vals["end"].append(math.hypot(px - ex, py - ey))
        vals["detour"].append(vals["start"][-1] + vals["end"][-1] - length)
        vals["inside"].append(float(min(sx, ex) <= px <= max(sx, ex) and min(sy, ey) <= py <= max(sy, ey)))
        vals["centre"].append(math.hypot(px - cols / 2, py - rows / 2))
        vals["number"].append(float(b["number"]))
        vals["x"].append(px / cols)
        vals["y"].append(py / rows)
        corner = tuple(b["corner"])
        vals["blocked_near"].append(float(sum(corner in e for e in blocked)))
    labels = tuple(int(str(b["number"]) == answer.strip()) for b in scene["buildings"])
    return {f"building_{k}": tuple(v) for k, v in vals.items()}, labels


def _cf3(scene: dict[str, Any], answer: str) -> tuple[dict[str, tuple[float, ...]], tuple[int, ...]]:
    """CF3 candidates: every dot of the grid, where it lies relative to the circled starts and the grid."""
    rows, cols = scene["rows"], scene["cols"]
    (sr, sc), (pr, pc) = scene["start"], scene["path_start"]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    vals = {
        "dot_start": tuple(math.hypot(r - sr, c - sc) for r, c in cells),
        "dot_start_manhattan": tuple(float(abs(r - sr) + abs(c - sc)) for r, c in cells),
        "dot_path_start": tuple(math.hypot(r - pr, c - pc) for r, c in cells),
        "dot_centre": tuple(math.hypot(r - (rows - 1) / 2, c - (cols - 1) / 2) for r, c in cells),
        "dot_border": tuple(float(r in (0, rows - 1) or c in (0, cols - 1)) for r, c in cells),
        "dot_row": tuple(r / max(rows - 1, 1) for r, _ in cells),
        "dot_col": tuple(c / max(cols - 1, 1) for _, c in cells),
    }
    labels = tuple(int(f"({r + 1}, {c + 1})" == answer.strip()) for r, c in cells)
    return vals, labels


def _ma1(scene: dict[str, Any], answer: str) -> tuple[dict[str, tuple[float, ...]], tuple[int, ...]]:
    """MA1 candidates: the study cells, by place on the sheet and by their number (never by picture)."""
    cells = scene["cells"]
    rows, cols = scene["grid"]
    numbers = sorted(c["number"] for c in cells)
    vals = {
        "cell_row": tuple(c["row"] / max(rows - 1, 1) for c in cells),
        "cell_col": tuple(c["col"] / max(cols - 1, 1) for c in cells),
        "cell_centre": tuple(math.hypot(c["row"] - (rows - 1) / 2, c["col"] - (cols - 1) / 2) for c in cells),
        "cell_number": tuple(float(c["number"]) for c in cells),
        "cell_number_rank": tuple(numbers.index(c["number"]) / max(len(cells) - 1, 1) for c in cells),
    }
    labels = tuple(int(str(c["number"]) == answer.strip()) for c in cells)
    return vals, labels


METADATA = {"SS3": _ss3, "CF3": _cf3, "MA1": _ma1}


def visfactor_generated(subtests: Iterable[str], difficulty: str, n: int, seed: int) -> Iterator[list[AuditItem]]:
    """Per subtest, its generated items as audit items (subtests with no auditable surface are left to the caller)."""
    from ..visfactor import generated

    for subtest in subtests:
        group = f"visfactor/{subtest}"
        if subtest in METADATA:
            out = []
            for item in generated.items(subtest, difficulty, seed, n):
                values, labels = METADATA[subtest](item.metadata["scene"], item.rows[0].answer)
                out.append(AuditItem(group, difficulty, f"{subtest}:{item.index}", CHOICE, labels, values=values))
            yield out
            continue
        raw = [
            (f"{subtest}:{item.index}", [(row.images, row.question, row.answer) for row in item.rows])
            for item in generated.items(subtest, difficulty, seed, n)
        ]
        yield visfactor_rows_set(group, difficulty, raw)


def visfactor_released(
    local_path: str | os.PathLike[str] | None = None, subtests: Sequence[str] | None = None
) -> Iterator[list[AuditItem]]:
    """Per subtest of the released file, its yes/no-row items (other subtests are left to the caller)."""
    from ..visfactor import data

    by_item: dict[str, dict[int, list[Any]]] = {}
    for row in data.load_rows(local_path):
        if subtests is not None and row.category_id not in subtests:
            continue
        by_item.setdefault(row.category_id, {}).setdefault(row.eval_index, []).append(row)
    for subtest, grouped in by_item.items():
        answers = [r.answer for rows in grouped.values() for r in rows]
        if not _boolean(answers) or min(len(rows) for rows in grouped.values()) < 2:
            continue
        raw = [(f"{subtest}:{k}", [(r.images, r.question, r.answer) for r in rows]) for k, rows in grouped.items()]
        yield visfactor_rows_set(f"visfactor/{subtest}", "released", raw)


def released_subtests(local_path: str | os.PathLike[str] | None = None) -> list[str]:
    from ..visfactor import data

    return sorted({row.category_id for row in data.load_rows(local_path)})
