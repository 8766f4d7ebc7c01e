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
            writer.writerow(
                [
                    _tsv_image_cell(list(row["image"])) if c == "image" else ("" if row[c] is None else row[c])
                    for c in COLUMNS
                ]
            )
    return path


def write_parquet(rows: Iterable[Mapping[str, Any]], path: str | Path, batch_rows: int = 256) -> Path:
    """Write rows as the HF mirror's parquet, in row groups, so memory stays flat in the row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image_type = pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))
    schema = pa.schema(
        [
            ("index", pa.int64()),
            ("category_id", pa.string()),
            ("category_name", pa.string()),
            ("eval_index", pa.int64()),
            ("image", image_type),
            ("question", pa.string()),
            ("answer", pa.string()),
            ("additional", pa.string()),
        ]
    )

    def table(batch: list[Mapping[str, Any]]) -> Any:
        return pa.table(
            {
                "index": [int(r["index"]) for r in batch],
                "category_id": [r["category_id"] for r in batch],
                "category_name": [r["category_name"] for r in batch],
                "eval_index": [int(r["eval_index"]) for r in batch],
                "image": [[{"bytes": b, "path": None} for b in r["image"]] for r in batch],
                "question": [r["question"] for r in batch],
                "answer": [str(r["answer"]) for r in batch],
                "additional": [r["additional"] for r in batch],
            },
            schema=schema,
        )

    with pq.ParquetWriter(path, schema) as writer:
        batch: list[Mapping[str, Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= batch_rows:
                writer.write_table(table(batch))
                batch = []
        if batch:
            writer.write_table(table(batch))
    return path
