"""The Mind's Eye audit sets: options cut from each item's image (the audit engine is :mod:`cogvis_tasks.audit`).

Generated items: the generators through :mod:`.generated`; option and stimulus boxes come from the recorded
scene. Released items: :mod:`.data` and a grid layout per task (:mod:`.audit_layouts`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..audit.concepts import item_patterns
from ..audit.items import AuditItem, decode
from ..audit.sources import choice_item
from ..core.errors import DataError
from .audit_layouts import GridLayout, generated_boxes, load_layouts
from .generators.base import DIFFICULTIES
from .info import GENERATED_TASKS, MIXED, NAME
from .tasks import BY_ID

PRESETS = DIFFICULTIES  # audited by default (``mixed`` on request)
ACCEPTED_PRESETS = (MIXED, *DIFFICULTIES)
SETS = GENERATED_TASKS

#: Features that ARE a task's concept (see :mod:`cogvis_tasks.audit.concepts`).
CONCEPT_FEATURES: dict[str, tuple[str, ...]] = {
    # Visual Conceptual Slippage: number (parts), hollowness, topology (holes) and symmetry are among the concepts.
    "VCS": ("n_parts", "n_holes", "fill", "ink", "darkness", "sym_*", "bsym_*"),
    # Symmetric Structures: the odd figure is the asymmetric one.
    "SS": ("sym_*", "bsym_*"),
    # Visual Relation Abstraction: the shared attribute is thinness (ink per extent, elongation), regularity
    # (symmetry), the number of regions (holes) or of strokes and crossings (parts): the odd figure differing from
    # the others in it is the task. Measured over 1,800 items (three presets, seeds 1234 and 77) with every feature:
    # the items of lines, convexity and curvature are at chance (15.5-20.6%), those of thinness are not (35-37%).
    "VRA": ("fill", "aspect", "n_holes", "n_parts", "sym_*", "bsym_*"),
    # Mental Composition: the net is the stimulus; an option's pixel/colour distance to it compares the net's faces
    # (which solid they fold into) with the option's solid, which is the task (option-only features stay at chance).
    "MC": ("dist_stimulus_*", "colour_dist_stimulus"),
}
#: Features that are the concept of some items only, by the attribute an item tests (the odd figure breaks it); see
#: "Per-item concepts" in :mod:`cogvis_tasks.audit.concepts` for the rule and the evidence.
ITEM_CONCEPT_FEATURES: dict[str, dict[str, tuple[str, ...]]] = {
    # VRA, by the attribute the odd figure breaks: an enclosed region more is a chord or a crossing more, i.e. a
    # stroke inside the outline, so at the same extent the figure has more ink. Measured at 300 items (seed 77,
    # easy): the odd figure's ink z-score within its item +1.14 where it has more regions and -0.75 where it has
    # fewer (+0.56 / -0.57 for crossings), while figures differ in stroke width (3-7 px) and size (x0.75-1.3) at
    # random. Thinness is the ratio of a figure's extents: at the same diameter (figures are sized on ink, diameter
    # and spread) a thin figure has the smaller box, so on items whose odd figure breaks thinness the box is the
    # concept too. Measured at 900 hard items (seed 1234): the surface logistic picker found 33.3% of those 165
    # items with the box and 16.4% without it (chance 16.7%; the other items 19.0% either way), 21.7% of all items
    # (flagged) against 18.6%. Regularity (symmetry, roundness) needs no mapping: its footprint is in the declared
    # features above; all pickers with every feature are at chance on the items of lines, convexity and curvature
    # (see generators/vra.py).
    "VRA": {
        "regions": ("ink", "darkness"),
        "crossings": ("ink", "darkness"),
        "thin": ("width", "height", "bbox_area"),
    },
}
NOT_AUDITED: dict[str, str] = {}


def group(task: str) -> str:
    return f"{NAME}/{task}"


def generated_items(tasks: Iterable[str], difficulty: str, n: int, seed: int) -> Iterator[AuditItem]:
    """Generated items (``difficulty`` a preset or ``mixed``), cut at their recorded boxes."""
    from . import generated

    for task in tasks:
        for item in generated.items(task, difficulty, seed, n):
            options, stimulus = generated_boxes(task, item.scene)
            audit_item = choice_item(
                group(task), item.difficulty, item.key, item.image, item.answer_index, options, stimulus
            )
            yield dataclasses.replace(audit_item, concept=item_concept(task, item.scene))


def item_concept(task: str, scene: dict) -> tuple[str, ...]:
    """The features that are this item's own concept: those of the attribute its odd figure breaks (VRA)."""
    violated = scene.get("params", {}).get("violated")
    return item_patterns(group(task), violated) if isinstance(violated, str) else ()


def released_items(
    local_path: str | os.PathLike[str] | None = None, tasks: Sequence[str] | None = None, layout_file: str | None = None
) -> Iterator[AuditItem]:
    """Released items (``local_path`` or $COGVIS_DATA_DIR), cut by each task's grid layout."""
    from . import data

    layouts = load_layouts(layout_file)
    for record in data.load(list(tasks) if tasks is not None else None, local_path):
        layout: GridLayout = layouts[record.task]
        task = BY_ID[record.task]
        if len(layout.options) != task.options:
            raise DataError(
                layout_file or "built-in layout",
                record.task,
                "options",
                f"{len(layout.options)} cells for {task.options} options",
            )
        img = decode(record.image)
        w, h = img.size
        yield choice_item(
            group(record.task), "released", record.key, img, task.letters.index(record.answer),
            layout.boxes(w, h, layout.options), layout.stimulus_boxes(w, h),
        )  # fmt: skip


def generated(name: str, preset: str, n: int, seed: int, on_item: Callable[[], None]) -> list[AuditItem]:
    """Items 0..n-1 of one generated task as audit items (item i is the same whatever n is)."""
    out = []
    for item in generated_items([name], preset, n, seed):
        out.append(item)
        on_item()
    return out


def released(
    local_path: str | os.PathLike[str] | None,
    wanted: Sequence[str] | None,
    layout_file: str | None,
    on_item: Callable[[], None],
) -> Iterator[list[AuditItem] | tuple[str, str]]:
    """The released items, one set per task."""
    by: dict[str, list[AuditItem]] = {}
    for item in released_items(local_path, wanted, layout_file):
        by.setdefault(item.group, []).append(item)
        on_item()
    yield from by.values()
