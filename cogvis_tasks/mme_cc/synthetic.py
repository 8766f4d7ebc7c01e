"""A small synthetic MME-CC release: the 12 JSON files at the root, one image folder per file.

For offline runs and the tests (``shared/reference/visualpuzzles_mme_cc.md`` describes the release):
references as ``## The correct answer is: ...``, half of them with scoring criteria, ``extra`` with
``Subtask`` (Maze: ``subtask``) on the first record only, one or two images per question. Each reference
is one a rule pre-check settles when the oracle repeats it, so no judge is needed to score the oracle 100%.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from ..core.rng import rng_for
from .subtasks import FILES

#: Questions per file ``write_synthetic`` writes unless asked otherwise (24 in all).
DEFAULT_ITEMS = 2
#: A reference answer per subtask (Maze: path numbers, ascending; counting: one number; Sandbagging: four sub-answers).
REFERENCES = {
    "Satellite_Image_Matching": "Image 3",
    "Indoor_Directional_Reasoning": "The sofa is to the left of the window.",
    "Indoor_Deduplication_Counting": "7",
    "Gomoku_Variation": "Black wins at (4, 5)",
    "Maze": "2, 5, 9, 14",
    "Unblock_Me": "Minimum moves: 3; blocks moved: A, C, F",
    "Jigsaw_Puzzle": "2-1-4-3",
    "Chart_Modification": "Change the bar for 2019 to 42",
    "Sandbagging": "1. 17; 2. B; 3. 4; 4. yes",  # the four true sub-answers; a right reply gets exactly one of them
    "Counterfactual_Instruction": "Blue",
    "Finding_Wrong_Answer": "Step 3 is wrong",
}


def png(seed: int, key: str) -> bytes:
    rng = rng_for(seed, "mme-cc-image", key)
    img = Image.new("RGB", (40, 40), tuple(rng.randrange(256) for _ in range(3)))
    ImageDraw.Draw(img).line((rng.randrange(40), 0, rng.randrange(40), 39), fill="black", width=2)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def write_synthetic(out_dir: Path, items: int = DEFAULT_ITEMS, seed: int = 0) -> list[Path]:
    """``out_dir/mme_cc/<File>.json`` + images, ``items`` questions per file; returns the JSON files."""
    if items < 1:
        raise ValueError(f"items must be at least 1, got {items}")
    base = Path(out_dir) / "mme_cc"
    written = []
    for name, subtask in FILES.items():
        folder = Path(name).stem  # Maze06 / Maze10 keep their own image folders
        records: list[dict[str, Any]] = []
        for i in range(items):
            images = []
            for k in range(1 + (i % 2)):
                rel = f"{folder}/{i}_{k}.png"
                (base / folder).mkdir(parents=True, exist_ok=True)
                (base / rel).write_bytes(png(seed, rel))
                images.append(rel)
            answer = f"## The correct answer is: {REFERENCES[subtask]}"
            if i % 2:
                answer += "\n## Scoring criteria: every part must match."
            record: dict[str, Any] = {
                "prompt": f"{subtask} question {i}: look at the image(s) and answer.",
                "image_list": images,
                "ground_truth": {"answer": answer},
            }
            if i == 0:
                record["extra"] = {"Subtask" if subtask != "Maze" else "subtask": folder}
            records.append(record)
        base.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(json.dumps(records, indent=1), encoding="utf-8")
        written.append(base / name)
    return written


def write_release(root: Path, per_file: int = DEFAULT_ITEMS, seed: int = 0) -> Path:
    """``root/mme_cc/<File>.json`` + images; returns ``root`` (use it as COGVIS_DATA_DIR)."""
    write_synthetic(Path(root), per_file, seed)
    return Path(root)
