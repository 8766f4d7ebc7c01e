"""Small synthetic VisualPuzzles sets in the hub's parquet layout and in the jsonl + image folder layout.

For offline runs and the tests (``shared/reference/visualpuzzles_mme_cc.md`` describes the release): every
category and difficulty, options as text and as drawn (``null``), answers in mixed case and categories
sometimes capitalised, as the loader meets them. The pictures carry no puzzle; only the oracle scores 100%.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from ..core.rng import rng_for
from .benchmark import CATEGORIES, DIFFICULTIES

#: Puzzles ``write_synthetic`` writes unless asked otherwise (every category and difficulty appear from 15 on).
DEFAULT_ITEMS = 20
PARQUET = Path("data") / "test-00000-of-00001.parquet"


def _png(seed: int, i: int) -> bytes:
    rng = rng_for(seed, "vp-image", i)
    img = Image.new("RGB", (48, 48), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    box = (rng.randrange(20), rng.randrange(20), 30 + rng.randrange(18), 30 + rng.randrange(18))
    ImageDraw.Draw(img).rectangle(box, outline="black")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def records(n: int = DEFAULT_ITEMS, seed: int = 0) -> list[dict[str, Any]]:
    """Every category and difficulty, options as text and as drawn (null), answers in mixed case."""
    out = []
    for i in range(n):
        rng = rng_for(seed, "vp-record", i)
        text_options = i % 2 == 0
        out.append(
            {
                "id": 1000 + i,
                "image": _png(seed, i),
                "question": f"Which piece completes pattern {i}?",
                "options": [f"piece {i}-{k}" for k in range(4)] if text_options else None,
                "answer": rng.choice("ABCD") if i % 3 else rng.choice("abcd"),
                "category": CATEGORIES[i % 5].capitalize() if i % 4 == 0 else CATEGORIES[i % 5],
                "difficulty": DIFFICULTIES[i % 3],
            }
        )
    return out


def write_parquet(root: Path, n: int = DEFAULT_ITEMS, seed: int = 0) -> Path:
    """``root/visualpuzzles/data/test-00000-of-00001.parquet`` (images as ``{bytes, path}``); returns ``root``."""
    import pyarrow as pa  # a dependency of datasets
    import pyarrow.parquet as pq

    path = Path(root) / "visualpuzzles" / PARQUET
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [{**r, "image": {"bytes": r["image"], "path": None}} for r in records(n, seed)]
    pq.write_table(pa.Table.from_pylist(rows), path)
    return Path(root)


def write_jsonl(root: Path, n: int = DEFAULT_ITEMS, seed: int = 0) -> Path:
    """``root/visualpuzzles/test.jsonl`` whose ``image`` fields name PNGs under ``images/``; returns ``root``."""
    folder = Path(root) / "visualpuzzles"
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / "test.jsonl", "w", encoding="utf-8") as fh:
        for r in records(n, seed):
            name = f"images/{r['id']}.png"
            (folder / name).write_bytes(r["image"])
            fh.write(json.dumps({**r, "image": name}) + "\n")
    return Path(root)


def write_synthetic(out_dir: Path, items: int = DEFAULT_ITEMS, seed: int = 0) -> list[Path]:
    """The hub's parquet layout under ``out_dir/visualpuzzles``; returns the parquet file."""
    if items < 1:
        raise ValueError(f"items must be at least 1, got {items}")
    write_parquet(Path(out_dir), items, seed)
    return [Path(out_dir) / "visualpuzzles" / PARQUET]
