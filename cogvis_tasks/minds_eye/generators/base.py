"""What every Mind's Eye generator returns, how it is seeded, and the drawing every task shares.

An item is a pure function of (seed, task, index, config): its RNG is derived from all
four by hashing, so item 17 is the same whether 20 or 2,000 items are made. An item
is one 1024x1024 PNG plus its ``annotations.json`` record in the released schema
(question, the task's answer field in the release's letter format, the task's extra
fields) and, for every task, ``difficulty``, ``option_types`` (the distractor type of
each option in order; the answer's entry is ``"correct"``) and ``scene`` (what a
verifier needs to re-derive the answer by another method). A verifier's ``solve(item)`` returns the answer
index; it reads the scene only (``solve_scene(scene)``), so planned scenes can be checked without drawing them.

Options share one look: panels of equal size in a grid, each labelled under its panel
by :func:`draw_label` with one font, size and position, so nothing but the content
differs between the correct option and the distractors. The correct option's position
is drawn uniformly, so the answer letter carries no signal.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

from ...core.generation import check_choice, check_range, check_solved, png, preset_name  # noqa: F401  (the generators' toolkit)
from ...core.rng import rng_for
from ..tasks import BY_ID, CORRECT

DIFFICULTIES = ("easy", "medium", "hard")
SIZE = 1024
LABEL_H = 48  # label strip under every panel
LABEL_FONT = 36
HEADING_FONT = 30
BACKGROUND = (255, 255, 255)
INK = (0, 0, 0)

# The released prompts (data of the benchmark, kept verbatim, typos included).
_ODD_ONE_OUT_6 = (
    "Analyze the six figures labeled A, B, C, D, E, and F in the image.Your goal is to identify the underlying visual concept "
    "that is shared by the majority of these figures and then determine which figure does not adhere to this concept. "
    "Reason step by step for answering."
)
_ODD_ONE_OUT_4 = (
    "Analyze the four figures labeled A, B, C and D in the image. Your goal is to identify the underlying visual concept that "
    "is shared by the majority of these figures and then determine which figure does not adhere to this concept. "
    "Reason step by step for answering.\n    "
)
QUESTIONS: dict[str, str] = {
    "VRA": _ODD_ONE_OUT_6,
    "HPE": _ODD_ONE_OUT_4,
    "DSC": (
        "Follow the transformation of the shapes in the top row, starting from t=0.0 uptp t=0.75. Analyze the four figures "
        "labeled A, B, C, D in the image. Your goal is to identify which of these options is the fifth image at t = 1.0. "
        "Reason step by step how are the shapes transforming for answering.\n    "
    ),
    "VCS": _ODD_ONE_OUT_6 + "\n    ",
    "SS": _ODD_ONE_OUT_4.replace("A, B, C and D", "A, B, C, D"),
    "MT": (
        "Analyze the four figures labeled A, B, C, D in the image. Your goal is to identify which of these options is the "
        "correct rotational transformation fo the figure labeled original shape. Reason step by step for answering.\n    "
    ),
    "PF": (
        "The a paper of shape labeled Unfolded is folded follwoing the pattern shown in the top row, in the sequence of fold 1, "
        "followed by fold 2 and so on. After the last fold a hole is punched as shown in the image of labeled final view, then "
        "after unfolding how would the paper look. Analyze the four figures labeled A, B, C, D in the image, how they are "
        "folded and answer. Reason step by step for answering.\n    "
    ),
    "MC": (
        "Analyze the four figures labeled A, B, C, D in the image. These are 3D Figures. Your goal is to identify which of "
        "these options can be constructed by folding the top 2D figure labeled as Original Shape. Reason step by step for "
        "answering.\n    "
    ),
}


def release_letter(task: str, index: int) -> str:
    """The answer as the release writes it for this task (upper, lower or "(c)"); the loader normalises all three."""
    letter = "ABCDEF"[index]
    if task == "DSC":
        return f"({letter.lower()})"
    return letter.lower() if task in ("HPE", "VCS", "SS", "MC") else letter


@dataclass(frozen=True)
class GeneratedItem:
    task: str
    index: int
    key: str  # image file name, the record's key in annotations.json
    image: bytes  # 1024x1024 PNG
    record: dict[str, Any]  # the annotations.json record (JSON-serialisable)

    @property
    def id(self) -> str:
        """The generator's ``ID`` (the task), under the name both families' items share."""
        return self.task

    @property
    def difficulty(self) -> str:
        """The preset the item's config equals ("custom" for any other)."""
        return self.record["difficulty"]

    @property
    def answer_index(self) -> int:
        return self.record["option_types"].index(CORRECT)

    @property
    def scene(self) -> dict[str, Any]:
        return self.record["scene"]


def stated_answer(item: GeneratedItem) -> int | None:
    """The option index the record's answer field states (what a model is scored against); None if none."""
    spec = BY_ID[item.task]
    stated = item.record.get(spec.answer_field)
    return next((k for k in range(spec.options) if release_letter(item.task, k) == stated), None)


def verify(item: GeneratedItem, solve: Callable[[GeneratedItem], int]) -> None:
    """Raise ``VerificationError`` unless ``solve`` re-derives the answer the record states."""
    check_solved(item.task, item.index, stated_answer(item), lambda: solve(item))


def item_rng(seed: int, task: str, index: int, config: Any) -> random.Random:
    """The item's own generator: independent of how many other items are produced."""
    return rng_for(seed, "minds-eye-generator", task, index, json.dumps(dataclasses.asdict(config), sort_keys=True))


T = TypeVar("T")


def place_options(rng: random.Random, correct: T, distractors: Sequence[tuple[str, T]]) -> tuple[list[T], list[str]]:
    """Options in display order and their types: the correct one at a uniformly drawn position, distractors shuffled."""
    pool = list(distractors)
    rng.shuffle(pool)
    position = rng.randrange(len(pool) + 1)
    pool.insert(position, (CORRECT, correct))
    return [p for _, p in pool], [t for t, _ in pool]


def make_item(
    task: str,
    seed: int,
    index: int,
    image: Image.Image,
    option_types: list[str],
    config: Any,
    presets: dict[str, Any],
    scene: dict[str, Any],
    extra: dict[str, Any] | None = None,
) -> GeneratedItem:
    """The item with its record: question, answer field, released extra fields, difficulty (the preset ``config``
    equals, else "custom"), option types, scene."""
    spec = BY_ID[task]
    if len(option_types) != spec.options or option_types.count(CORRECT) != 1:
        raise AssertionError(
            f"{task}: option types {option_types} need {spec.options} entries, one of them {CORRECT!r}"
        )
    if image.size != (SIZE, SIZE):
        raise AssertionError(f"{task}: image is {image.size}, expected {SIZE}x{SIZE}")
    key = f"gen_{task.lower()}_{seed}_{index:05d}.png"
    record: dict[str, Any] = {"question": QUESTIONS[task]}
    if task == "MT":
        record["question"] = [QUESTIONS[task]]  # the release stores the MT prompt as a one-element list
        record["filename"] = key
    record[spec.answer_field] = release_letter(task, option_types.index(CORRECT))
    record.update(extra or {})
    record.update({"difficulty": preset_name(config, presets), "option_types": option_types, "scene": scene})
    json.dumps(record)  # fail here, not in the writer, if something is not JSON
    return GeneratedItem(task, index, key, png(image), record)


def convex_hull(points: Iterable[Sequence[float]]) -> list[tuple[float, float]]:
    """Convex hull of 2-D points, counter-clockwise, collinear points dropped (Andrew's monotone chain).

    Geometry several generators, verifiers and tests need; a hull is a primitive, not a way of solving an item.
    """
    pts = sorted({(float(p[0]), float(p[1])) for p in points})

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1]) - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    return half(pts)[:-1] + half(pts[::-1])[:-1]


# --- drawing shared by all tasks ---------------------------------------------------------------


def canvas() -> Image.Image:
    return Image.new("RGB", (SIZE, SIZE), BACKGROUND)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


def grid_boxes(rows: int, cols: int, top: int = 0, bottom: int = SIZE, margin: int = 16) -> list[Box]:
    """Equal panels (label strip included) filling the band [top, bottom), row by row."""
    width = (SIZE - margin * (cols + 1)) // cols
    height = (bottom - top - margin * (rows + 1)) // rows
    return [
        (
            margin + c * (width + margin),
            top + margin + r * (height + margin),
            margin + c * (width + margin) + width,
            top + margin + r * (height + margin) + height,
        )
        for r in range(rows)
        for c in range(cols)
    ]


def content_box(box: Box) -> Box:
    """The part of a panel a figure may use: everything above the label strip."""
    left, top, right, bottom = box
    return (left, top, right, bottom - LABEL_H)


def label_box(box: Box) -> Box:
    left, top, right, bottom = box
    return (left, bottom - LABEL_H, right, bottom)


def draw_label(img: Image.Image, box: Box, text: str, size: int = LABEL_FONT) -> None:
    """The text centred in the panel's label strip; one font and size for every panel."""
    left, top, right, bottom = label_box(box)
    ImageDraw.Draw(img).text(((left + right) // 2, (top + bottom) // 2), text, fill=INK, font=font(size), anchor="mm")


def draw_option_labels(img: Image.Image, boxes: Sequence[Box]) -> None:
    """Option letters A, B, ... under the panels (every option task labels its options this way)."""
    for letter, box in zip("ABCDEF", boxes, strict=False):
        draw_label(img, box, letter)


def reference_label(box: Box, text: str, size: int = LABEL_FONT) -> Image.Image:
    """The label strip as :func:`draw_label` draws it on a blank panel (tests compare every drawn label to it)."""
    img = canvas()
    draw_label(img, box, text, size)
    return img.crop(label_box(box))
