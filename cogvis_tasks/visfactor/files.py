"""Write rows in the two released VisFactor layouts.

``VisFactor.tsv`` (official): base64 images, a Python list literal when a row has
several; ``test.parquet`` (HF mirror): a list of ``{bytes, path}`` structs.
Used by the generators, the offline demo and the test fixtures, so that
everything we produce loads through the same reader as the released files.
"""

from __future__ import annotations

import base64
import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .data import COLUMNS


def _tsv_image_cell(images: list[bytes]) -> str:
    encoded = [base64.b64encode(b).decode("ascii") for b in images]
    if len(encoded) == 1:
        return encoded[0]
    return "[" + ", ".join(repr(e) for e in encoded) + "]"


def write_tsv(rows: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow([_tsv_image_cell(list(row["image"])) if c == "image" else ("" if row[c] is None else row[c]) for c in COLUMNS])
    return path


def write_parquet(rows: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = list(rows)
    image_type = pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))
    table = pa.table(
        {
            "index": pa.array([int(r["index"]) for r in rows], pa.int64()),
            "category_id": pa.array([r["category_id"] for r in rows], pa.string()),
            "category_name": pa.array([r["category_name"] for r in rows], pa.string()),
            "eval_index": pa.array([int(r["eval_index"]) for r in rows], pa.int64()),
            "image": pa.array([[{"bytes": b, "path": None} for b in r["image"]] for r in rows], image_type),
            "question": pa.array([r["question"] for r in rows], pa.string()),
            "answer": pa.array([str(r["answer"]) for r in rows], pa.string()),
            "additional": pa.array([r["additional"] for r in rows], pa.string()),
        }
    )
    pq.write_table(table, path)
    return path
