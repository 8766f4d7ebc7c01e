"""A small synthetic Mind's Eye release in the public layout, for offline runs and the tests.

``write_release(root)`` writes ``root/minds_eye/<folder>/annotations.json`` plus one
small drawn PNG per record for all eight tasks, reproducing the quirks of the real
release (see ``shared/reference/minds_eye.md`` and ``shared/samples/minds_eye``), so
the loader is exercised on what it will meet:

* the question is a string, except in ``mental_rotation`` where it is a
  one-element list; most released questions end with ``"\\n    "``;
* the answer lives in a different field per task and comes in mixed formats:
  VRA ``answer`` "F", HPE ``answer`` "c", DSC ``fifth_label`` "(a)", VCS
  ``violation`` "d", SS ``asymmetric_label`` "d", MT ``answer`` "B", PF
  ``correct_option`` "A", MC ``answer`` "c";
* extra fields: VRA ``reason``; DSC ``answer`` (text); VCS ``concept``; SS ``answer``
  ("lacks symmetry"); MT ``filename``, ``difficulty`` (easy|complex), ``shape``,
  ``correct_angles``, ``candidate_order`` ("rotate" at the correct letter, three of
  mirror/mirror2/similar/rotate2 elsewhere); PF ``folds``; MC ``net``,
  ``correct_shape``, ``other_shapes``, ``net_color``, ``difficulty`` (easy|hard);
* VRA and VCS have six options (A-F), the others four.

The pictures carry no task: only the oracle can score 100%. Use the generators
(``cogvis generate minds_eye``) for items a model can solve. Everything derives
from ``seed`` through ``rng_for``, so the same seed writes byte-identical files.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from ..core.rng import rng_for
from .data import ANNOTATIONS
from .generators.base import QUESTIONS
from .tasks import TASKS

#: (task id, release folder, number of options), in the paper's order.
FOLDERS: tuple[tuple[str, str, int], ...] = tuple((t.id, t.folder, t.options) for t in TASKS)
FOLDER_OF = {tid: folder for tid, folder, _ in FOLDERS}
OPTIONS_OF = {tid: n for tid, _, n in FOLDERS}
#: Items per task that ``write_synthetic`` writes unless asked otherwise.
DEFAULT_ITEMS = 4

MOTIONS = (
    "stretch_x",
    "rotate_back_and_forth",
    "scale",
    "compress_and_stretch",
    "bounce",
    "wiggle",
    "pulsate",
    "swirl",
)
DSC_SHAPES = ("diamond", "square", "triangle", "circle")
CONCEPTS = ("symmetry", "alignment", "spacing", "number", "enclosure", "topology", "border", "hollowness")
MT_SHAPES = ("CornerStaircase", "HookedCorner", "ZigZag", "TShape", "LBlock")
MT_DISTRACTORS = ("mirror", "mirror2", "similar", "rotate2")
MC_EASY = ("cube", "cuboid", "triangular_prism", "square_pyramid", "cone")
MC_HARD = ("tetrahedron", "octahedron", "dodecahedron", "icosahedron")
COLORS = ("teal", "yellow", "red", "blue", "green", "orange", "purple")
ANGLES = ("0.0", "30.0", "45.0", "60.0", "90.0", "120.0", "180.0")


def png(task_index: int, item: int, seed: int, size: int = 64) -> bytes:
    """A small PNG that differs for every (task, item, seed): colours and a shape drawn from them."""
    rng = rng_for(seed, "png", task_index, item)
    background = tuple(rng.randrange(256) for _ in range(3))
    ink = tuple(255 - c for c in background)
    img = Image.new("RGB", (size, size), background)  # type: ignore[arg-type]
    draw = ImageDraw.Draw(img)
    x0, y0 = rng.randrange(4, 20), rng.randrange(4, 20)
    x1, y1 = rng.randrange(36, 60), rng.randrange(36, 60)
    kind = (task_index + item) % 3
    if kind == 0:
        draw.ellipse((x0, y0, x1, y1), outline=ink, width=3)  # type: ignore[arg-type]
    elif kind == 1:
        draw.rectangle((x0, y0, x1, y1), fill=ink)  # type: ignore[arg-type]
    else:
        draw.polygon([(x0, y1), ((x0 + x1) // 2, y0), (x1, y1)], fill=ink)  # type: ignore[arg-type]
    # stamp the identity into the first row so no two images can coincide
    img.putpixel((0, 0), (task_index, item % 256, seed % 256))
    img.putpixel((1, 0), (item // 256 % 256, seed // 256 % 256, 7))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _letter(rng: random.Random, options: int) -> str:
    return "ABCDEF"[rng.randrange(options)]


def _vra(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    key = f"{rng.randrange(10**7, 10**8)}_AP.png"
    return key, {
        "question": QUESTIONS["VRA"],
        "answer": _letter(rng, 6),
        "reason": f"Other figures have {rng.randrange(3, 9)} straight lines and this one doesn't",
    }


def _hpe(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    return f"{rng.randrange(10**7, 10**8)}.png", {"question": QUESTIONS["HPE"], "answer": _letter(rng, 4).lower()}


def _dsc(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    m1, m2 = rng.sample(MOTIONS, 2)
    s1, s2 = rng.sample(DSC_SHAPES, 2)
    key = f"pair_{rng.randrange(1, 100)}_{m1}_{m2}_grid.png"
    return key, {
        "question": QUESTIONS["DSC"],
        "fifth_label": f"({_letter(rng, 4).lower()})",
        "answer": f"The {s1} hs the motion of {m1} and the {s2} has the motion of {m2}",
    }


def _vcs(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    concept = rng.choice(CONCEPTS)
    letter = _letter(rng, 6).lower()
    return f"{rng.randrange(10**4, 10**5)}_{concept}.png", {
        "question": QUESTIONS["VCS"],
        "concept": f"Figure in option {letter} violates the concept of {concept}",
        "violation": letter,
    }


def _ss(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    return f"{rng.randrange(10**7, 10**8)}.png", {
        "question": QUESTIONS["SS"],
        "asymmetric_label": _letter(rng, 4).lower(),
        "answer": "lacks symmetry",
    }


def _mt(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    shape = rng.choice(MT_SHAPES)
    key = f"{shape}_{rng.randrange(1, 100)}.png"
    answer = _letter(rng, 4)
    order = rng.sample(MT_DISTRACTORS, 3)
    order.insert("ABCD".index(answer), "rotate")
    difficulty = ("easy", "complex")[i % 2]  # both levels present from two items on
    return key, {
        "filename": key,
        "difficulty": difficulty,
        "shape": shape,
        "correct_angles": [rng.choice(ANGLES) for _ in range(3)],
        "candidate_order": order,
        "answer": answer,
        "question": [QUESTIONS["MT"]],
    }


def _pf(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    folds = rng.randrange(2, 5)
    key = f"{rng.randrange(1, 100)}_fold-{folds}_holes-{rng.randrange(1, 3)}.png"
    return key, {
        "question": QUESTIONS["PF"],
        "correct_option": _letter(rng, 4),
        "folds": rng.choice(("Vertical/Horizontal", "Diagonal")),
    }


def _mc(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    difficulty = ("easy", "hard")[i % 2]
    correct = rng.choice(MC_EASY if difficulty == "easy" else MC_HARD)
    others = rng.sample([s for s in MC_EASY + MC_HARD if s != correct], 3)
    return f"{rng.randrange(10**4, 10**5)}_.png", {
        "question": QUESTIONS["MC"],
        "net": f"{correct}_net",
        "correct_shape": correct,
        "other_shapes": others,
        "net_color": rng.choice(COLORS),
        "answer": _letter(rng, 4).lower(),
        "difficulty": difficulty,
    }


MAKERS: dict[str, Callable[[random.Random, int], tuple[str, dict[str, Any]]]] = {
    "VRA": _vra,
    "HPE": _hpe,
    "DSC": _dsc,
    "VCS": _vcs,
    "SS": _ss,
    "MT": _mt,
    "PF": _pf,
    "MC": _mc,
}


def annotations(task: str, items: int, seed: int = 0) -> dict[str, dict[str, Any]]:
    """The annotation records of one task (keys are unique image names)."""
    out: dict[str, dict[str, Any]] = {}
    i = 0
    while len(out) < items:
        key, rec = MAKERS[task](rng_for(seed, "record", task, i), len(out))
        i += 1
        if key not in out:
            out[key] = rec
    return out


def write_task(root: Path, task: str, records: dict[str, dict[str, Any]], seed: int = 0) -> Path:
    """Write one task folder (annotations + PNGs) under ``root/minds_eye``; returns the annotations path."""
    task_index = [t for t, _, _ in FOLDERS].index(task)
    folder = Path(root) / "minds_eye" / FOLDER_OF[task]
    folder.mkdir(parents=True, exist_ok=True)
    for item, key in enumerate(records):
        (folder / key).write_bytes(png(task_index, item, seed))
    path = folder / ANNOTATIONS
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return path


def write_synthetic(out_dir: Path, items: int = DEFAULT_ITEMS, seed: int = 0) -> list[Path]:
    """All eight task folders under ``out_dir/minds_eye``; returns the annotation files."""
    if items < 1:
        raise ValueError(f"items must be at least 1, got {items}")
    return [write_task(Path(out_dir), task, annotations(task, items, seed), seed) for task, _, _ in FOLDERS]


def write_release(root: Path, items_per_task: int = 3, seed: int = 0) -> Path:
    """Write all eight task folders under ``root/minds_eye``; return ``root`` (the data root)."""
    write_synthetic(Path(root), items_per_task, seed)
    return Path(root)
