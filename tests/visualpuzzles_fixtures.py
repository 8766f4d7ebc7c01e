"""VisualPuzzles fixtures in the hub's parquet layout and in the jsonl + image folder layout."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from cogvis_tasks.core.rng import rng_for

CATEGORIES = ("algorithmic", "analogical", "deductive", "inductive", "spatial")
DIFFICULTIES = ("easy", "medium", "hard")


def _png(seed: int, i: int) -> bytes:
    rng = rng_for(seed, "vp-image", i)
    img = Image.new("RGB", (48, 48), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    ImageDraw.Draw(img).rectangle((rng.randrange(20), rng.randrange(20), 30 + rng.randrange(18), 30 + rng.randrange(18)), outline="black")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def records(n: int = 20, seed: int = 0) -> list[dict[str, Any]]:
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


def write_parquet(root: Path, n: int = 20, seed: int = 0) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    recs = records(n, seed)
    folder = root / "visualpuzzles" / "data"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{**r, "image": {"bytes": r["image"], "path": None}} for r in recs]
    pq.write_table(pa.Table.from_pylist(rows), folder / "test-00000-of-00001.parquet")
    return root


def write_jsonl(root: Path, n: int = 20, seed: int = 0) -> Path:
    folder = root / "visualpuzzles"
    (folder / "images").mkdir(parents=True, exist_ok=True)
    with open(folder / "test.jsonl", "w", encoding="utf-8") as fh:
        for r in records(n, seed):
            name = f"images/{r['id']}.png"
            (folder / name).write_bytes(r["image"])
            fh.write(json.dumps({**r, "image": name}) + "\n")
    return root
