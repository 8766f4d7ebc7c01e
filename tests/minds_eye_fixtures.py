"""A synthetic Mind's Eye release in the public layout, for the tests.

``write_release(root)`` writes ``root/minds_eye/<folder>/annotations.json`` plus one
small PIL-drawn PNG per record for all eight tasks, reproducing the quirks of the
real release (see ``/work/shared/samples/minds_eye``):

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

Everything is derived from ``seed`` through ``rng_for``-style hashing, so the same
seed always writes byte-identical files.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

# Real release items: shared/ lies beside the checkout (in CI beside the clone).
SAMPLES = next(
    (
        p
        for p in (Path(__file__).resolve().parents[2] / "shared" / "samples" / "minds_eye", Path("/work/shared/samples/minds_eye"))
        if p.is_dir()
    ),
    Path("/work/shared/samples/minds_eye"),
)

#: (task id, release folder, number of options), in the paper's order.
FOLDERS: tuple[tuple[str, str, int], ...] = (
    ("VRA", "abstract", 6),
    ("HPE", "hierarchial_isomorph", 4),
    ("DSC", "dynamic_isomorph", 4),
    ("VCS", "slippage", 6),
    ("SS", "symmetric_isomorph", 4),
    ("MT", "mental_rotation", 4),
    ("PF", "paper_folding", 4),
    ("MC", "mental_composition", 4),
)
FOLDER_OF = {tid: folder for tid, folder, _ in FOLDERS}
OPTIONS_OF = {tid: n for tid, _, n in FOLDERS}

Q_SIX_ODD = (
    "Analyze the six figures labeled A, B, C, D, E, and F in the image.Your goal is to identify the underlying visual "
    "concept that is shared by the majority of these figures and then determine which figure does not adhere to this "
    "concept. Reason step by step for answering."
)
Q_HPE = (
    "Analyze the four figures labeled A, B, C and D in the image. Your goal is to identify the underlying visual concept "
    "that is shared by the majority of these figures and then determine which figure does not adhere to this concept. "
    "Reason step by step for answering.\n    "
)
Q_DSC = (
    "Follow the transformation of the shapes in the top row, starting from t=0.0 uptp t=0.75. Analyze the four figures "
    "labeled A, B, C, D in the image. Your goal is to identify which of these options is the fifth image at t = 1.0. "
    "Reason step by step how are the shapes transforming for answering.\n    "
)
Q_SS = (
    "Analyze the four figures labeled A, B, C, D in the image. Your goal is to identify the underlying visual concept "
    "that is shared by the majority of these figures and then determine which figure does not adhere to this concept. "
    "Reason step by step for answering.\n    "
)
Q_MT = (
    "Analyze the four figures labeled A, B, C, D in the image. Your goal is to identify which of these options is the "
    "correct rotational transformation fo the figure labeled original shape. Reason step by step for answering.\n    "
)
Q_PF = (
    "The a paper of shape labeled Unfolded is folded follwoing the pattern shown in the top row, in the sequence of "
    "fold 1, followed by fold 2 and so on. After the last fold a hole is punched as shown in the image of labeled final "
    "view, then after unfolding how would the paper look. Analyze the four figures labeled A, B, C, D in the image, how "
    "they are folded and answer. Reason step by step for answering.\n    "
)
Q_MC = (
    "Analyze the four figures labeled A, B, C, D in the image. These are 3D Figures. Your goal is to identify which of "
    "these options can be constructed by folding the top 2D figure labeled as Original Shape. Reason step by step for "
    "answering.\n    "
)

MOTIONS = ("stretch_x", "rotate_back_and_forth", "scale", "compress_and_stretch", "bounce", "wiggle", "pulsate", "swirl")
DSC_SHAPES = ("diamond", "square", "triangle", "circle")
CONCEPTS = ("symmetry", "alignment", "spacing", "number", "enclosure", "topology", "border", "hollowness")
MT_SHAPES = ("CornerStaircase", "HookedCorner", "ZigZag", "TShape", "LBlock")
MT_DISTRACTORS = ("mirror", "mirror2", "similar", "rotate2")
MC_EASY = ("cube", "cuboid", "triangular_prism", "square_pyramid", "cone")
MC_HARD = ("tetrahedron", "octahedron", "dodecahedron", "icosahedron")
COLORS = ("teal", "yellow", "red", "blue", "green", "orange", "purple")
ANGLES = ("0.0", "30.0", "45.0", "60.0", "90.0", "120.0", "180.0")


def _rng(seed: int, *keys: object) -> random.Random:
    digest = hashlib.sha256(repr((int(seed),) + tuple(str(k) for k in keys)).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def png(task_index: int, item: int, seed: int, size: int = 64) -> bytes:
    """A small PNG that differs for every (task, item, seed): colours and a shape drawn from them."""
    rng = _rng(seed, "png", task_index, item)
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
        "question": Q_SIX_ODD,
        "answer": _letter(rng, 6),
        "reason": f"Other figures have {rng.randrange(3, 9)} straight lines and this one doesn't",
    }


def _hpe(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    return f"{rng.randrange(10**7, 10**8)}.png", {"question": Q_HPE, "answer": _letter(rng, 4).lower()}


def _dsc(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    m1, m2 = rng.sample(MOTIONS, 2)
    s1, s2 = rng.sample(DSC_SHAPES, 2)
    key = f"pair_{rng.randrange(1, 100)}_{m1}_{m2}_grid.png"
    return key, {
        "question": Q_DSC,
        "fifth_label": f"({_letter(rng, 4).lower()})",
        "answer": f"The {s1} hs the motion of {m1} and the {s2} has the motion of {m2}",
    }


def _vcs(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    concept = rng.choice(CONCEPTS)
    letter = _letter(rng, 6).lower()
    return f"{rng.randrange(10**4, 10**5)}_{concept}.png", {
        "question": Q_SIX_ODD + "\n    ",
        "concept": f"Figure in option {letter} violates the concept of {concept}",
        "violation": letter,
    }


def _ss(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    return f"{rng.randrange(10**7, 10**8)}.png", {
        "question": Q_SS,
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
        "question": [Q_MT],
    }


def _pf(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    folds = rng.randrange(2, 5)
    key = f"{rng.randrange(1, 100)}_fold-{folds}_holes-{rng.randrange(1, 3)}.png"
    return key, {
        "question": Q_PF,
        "correct_option": _letter(rng, 4),
        "folds": rng.choice(("Vertical/Horizontal", "Diagonal")),
    }


def _mc(rng: random.Random, i: int) -> tuple[str, dict[str, Any]]:
    difficulty = ("easy", "hard")[i % 2]
    correct = rng.choice(MC_EASY if difficulty == "easy" else MC_HARD)
    others = rng.sample([s for s in MC_EASY + MC_HARD if s != correct], 3)
    return f"{rng.randrange(10**4, 10**5)}_.png", {
        "question": Q_MC,
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
        key, rec = MAKERS[task](_rng(seed, "record", task, i), len(out))
        i += 1
        if key not in out:
            out[key] = rec
    return out


def write_task(root: Path, task: str, records: dict[str, dict[str, Any]], seed: int = 0) -> Path:
    """Write one task folder (annotations + PNGs) under ``root/minds_eye``; returns the annotations path."""
    task_index = [t for t, _, _ in FOLDERS].index(task)
    folder = root / "minds_eye" / FOLDER_OF[task]
    folder.mkdir(parents=True, exist_ok=True)
    for item, key in enumerate(records):
        (folder / key).write_bytes(png(task_index, item, seed))
    path = folder / "annotations.json"
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return path


def write_release(root: Path, items_per_task: int = 3, seed: int = 0) -> Path:
    """Write all eight task folders under ``root/minds_eye``; return ``root`` (the data root)."""
    root = Path(root)
    for task, _, _ in FOLDERS:
        write_task(root, task, annotations(task, items_per_task, seed), seed)
    return root
