"""The VisFactor audit sets (the audit engine is :mod:`cogvis_tasks.audit`).

Generated through :mod:`.generated`, released through :mod:`.data`: an item is its group of yes/no rows
(:func:`cogvis_tasks.audit.sources.rows_set`; VZ1's rows all show the same six images and ask about "piece k";
VZ2's items have exactly one "yes" row, a choice among its rows; CF1, CF2, VZ1, S1 predict each row's label).
Numeric answers read off one image (SS3 building, CF3 end dot, MA1 number) are audited from the generators'
scene metadata: the candidates are the buildings / grid dots / study cells, their features where they are
(distance to the straight start-end line, to the start, to the centre, ...), never the route or the copy.
Released files carry no scene, so these subtests are declared not audited there.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..audit.items import CHOICE, AuditItem
from ..audit.sources import boolean, rows_set
from .generators.base import DIFFICULTIES
from .info import GENERATED_SUBTESTS, NAME

PRESETS = ACCEPTED_PRESETS = DIFFICULTIES
SETS = GENERATED_SUBTESTS

#: Features that ARE a subtest's concept (see :mod:`cogvis_tasks.audit.concepts`).
CONCEPT_FEATURES: dict[str, tuple[str, ...]] = {
    # Hidden Patterns: the model is drawn on the same grid at the same place as in the pattern, so the pixel
    # distance between pattern and model measures the containment the row asks about.
    "CF2": ("dist_stimulus_*",),
    # Paper Folding: where an option's holes lie against the fold panels is the unfolding the item asks for (with
    # one fold: the punch comes back mirrored across the crease shown). Without these features the options alone
    # are at chance (easy, 300 items: 23.7%); no foil design can give five legal one-fold options the real fold's
    # direction (see the generator's docstring).
    "VZ2": ("dist_stimulus_*", "colour_dist_stimulus"),
}
#: Sets with no surface the audit can look at, and why (reported as "not audited", never skipped silently).
NOT_AUDITED: dict[str, str] = {
    "CS1": "open-vocabulary answer (an object name); no options to compare",
    "CS2": "open-vocabulary answer (a word); no options to compare",
    "CS3": "open-vocabulary answer (an object name); no options to compare",
    "S2": "the four rows show one pair of cube views asked four ways (same/different, both orders); "
    "their images carry no per-row difference to audit",
}
#: Released subtests whose answer is a number or a grid position read from one image: auditable from the
#: generators' scene metadata only (what the candidate positions are), so not from released files.
METADATA_ONLY = ("CF3", "MA1", "SS3")


def set_id(subtest: str) -> str:
    return f"{NAME}/{subtest}"


def _ss3(scene: dict[str, Any], answer: str) -> tuple[dict[str, tuple[float, ...]], tuple[int, ...]]:
    """SS3 candidates: the buildings, where they lie relative to start, end, the straight line and the map."""
    (sx, sy), (ex, ey) = (scene["labels"][name] for name in scene["row_routes"][0])
    rows, cols = scene["rows"], scene["cols"]
    blocked = [(tuple(a), tuple(b)) for a, b in scene["blocked"]]
    vals: dict[str, list[float]] = {
        k: []
        for k in ("line", "segment", "start", "end", "detour", "inside", "centre", "number", "x", "y", "blocked_near")
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
    """CF3 candidates: every dot of the grid, where it lies relative to the circled starts and the grid.

    The path image's circled start is a place on the reference grid only where the path image is that grid
    (``translate=False``); on the generators' larger field it is always the middle dot and says nothing."""
    rows, cols = scene["rows"], scene["cols"]
    (sr, sc), (pr, pc) = scene["start"], scene["path_start"]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    same_grid = list(scene["path_grid"]) == [rows, cols]
    vals = {
        "dot_start": tuple(math.hypot(r - sr, c - sc) for r, c in cells),
        "dot_start_manhattan": tuple(float(abs(r - sr) + abs(c - sc)) for r, c in cells),
        **({"dot_path_start": tuple(math.hypot(r - pr, c - pc) for r, c in cells)} if same_grid else {}),
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


def generated_sets(subtests: Iterable[str], difficulty: str, n: int, seed: int) -> Iterator[list[AuditItem]]:
    """Per subtest, its generated items as audit items (subtests with no auditable surface are left to the caller)."""
    from . import generated

    for subtest in subtests:
        group = set_id(subtest)
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
        yield rows_set(group, difficulty, raw)


def released_sets(
    local_path: str | os.PathLike[str] | None = None, subtests: Sequence[str] | None = None
) -> Iterator[list[AuditItem]]:
    """Per subtest of the released file, its yes/no-row items (other subtests are left to the caller)."""
    from . import data

    by_item: dict[str, dict[int, list[Any]]] = {}
    for row in data.load_rows(local_path):
        if subtests is not None and row.category_id not in subtests:
            continue
        by_item.setdefault(row.category_id, {}).setdefault(row.eval_index, []).append(row)
    for subtest, grouped in by_item.items():
        answers = [r.answer for rows in grouped.values() for r in rows]
        if not boolean(answers) or min(len(rows) for rows in grouped.values()) < 2:
            continue
        raw = [(f"{subtest}:{k}", [(r.images, r.question, r.answer) for r in rows]) for k, rows in grouped.items()]
        yield rows_set(set_id(subtest), "released", raw)


def released_subtests(local_path: str | os.PathLike[str] | None = None) -> list[str]:
    from . import data

    return sorted({row.category_id for row in data.load_rows(local_path)})


def generated(name: str, preset: str, n: int, seed: int, on_item: Callable[[], None]) -> list[AuditItem]:
    """Items 0..n-1 of one generated subtest as audit items (item i is the same whatever n is)."""
    items = next(iter(generated_sets([name], preset, n, seed)))
    for _ in items:
        on_item()
    return items


def released(
    local_path: str | os.PathLike[str] | None,
    wanted: Sequence[str] | None,
    layout_file: str | None,
    on_item: Callable[[], None],
) -> Iterator[list[AuditItem] | tuple[str, str]]:
    """Per subtest of yes/no rows its items; the other subtests present as (set, why it is not audited)."""
    del layout_file, on_item  # one file, read at once
    present = released_subtests(local_path)
    audited = set()
    for items in released_sets(local_path, wanted):
        audited.add(items[0].group.split("/")[1])
        yield items
    for subtest in present:
        if (wanted is None or subtest in wanted) and subtest not in audited:
            reason = NOT_AUDITED.get(subtest)
            if reason is None:
                reason = (
                    "numeric answer; auditable from the generators' scene metadata only"
                    if subtest in METADATA_ONLY
                    else "not yes/no rows with per-row images (one row per item, or open answers)"
                )
            yield set_id(subtest), reason
