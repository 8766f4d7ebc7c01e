"""Load the VisFactor rows from the official TSV, the HF parquet mirror or the hub.

All three sources give the same ``Row`` objects; images stay encoded (bytes)
until a back end needs pixels, each fully verified at load. Every defect is reported with file, row and field.
Parsed files are cached per (path, size, mtime) because harnesses build one task
per subtest and each asks for its rows.
"""

from __future__ import annotations

import ast
import csv
import functools
import math
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import images as imgs
from ..core import parquet
from ..core.datadir import find_local
from ..core.errors import DataError
from ..core.utf8 import bad_field, open_text
from .subtests import BY_ID

HF_DATASET_ID = "lmms-lab-encoder/visfactor"
LOCAL_FILES = ("VisFactor.tsv", "test.parquet")
COLUMNS = ("index", "category_id", "category_name", "eval_index", "image", "question", "answer", "additional")


@dataclass(frozen=True)
class Row:
    index: str
    category_id: str
    category_name: str
    eval_index: int
    images: tuple[bytes, ...]
    question: str
    answer: str
    additional: str
    source: str
    row: int  # 0-based data row in the source file, for error messages


def load_rows(local_path: str | os.PathLike[str] | None = None) -> tuple[Row, ...]:
    """All rows of the released set, from the local copy if any, else the hub."""
    path = find_local("visfactor", LOCAL_FILES, local_path)
    if path is None:
        return _load_hub()
    stat = path.stat()
    return _load_file(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def _load_file(path: str, size: int, mtime_ns: int) -> tuple[Row, ...]:
    del size, mtime_ns  # part of the cache key only
    if path.endswith(".parquet"):
        return _load_parquet(path)
    return _load_tsv(path)


def _load_tsv(path: str) -> tuple[Row, ...]:
    csv.field_size_limit(sys.maxsize)
    with open_text(path, newline="") as fh:
        reader = csv.reader(fh, delimiter="\t", strict=True)
        try:
            header = next(reader)
        except StopIteration:
            raise DataError(path, "header", None, "file is empty") from None
        except csv.Error as exc:
            raise DataError(path, "header", None, f"not a valid TSV ({exc})") from None
        _check_columns(path, header)
        col = {name: header.index(name) for name in COLUMNS}
        rows: list[Row] = []
        n = 0
        try:
            for n, cells in enumerate(reader):
                if len(cells) != len(header):
                    raise DataError(
                        path,
                        n,
                        None,
                        f"has {len(cells)} fields, the header has {len(header)} (truncated or malformed file?)",
                    )
                raw = {name: cells[col[name]] for name in COLUMNS}
                bad = bad_field(
                    {name: value for name, value in raw.items() if name != "image"}
                )  # image cells: base64 checks them
                if bad is not None:
                    raise DataError(path, n, bad, "text is not valid UTF-8")
                image_cells = _tsv_images(raw["image"], path, n)
                raw["image"] = [imgs.b64_to_bytes(c, path, n, "image") for c in image_cells]
                rows.append(_make_row(raw, path, n))
        except csv.Error as exc:
            raise DataError(path, n + 1, None, f"malformed TSV ({exc}); is the file truncated?") from None
    return _finish(rows, path)


def _tsv_images(cell: str, path: str, n: int) -> list[str]:
    """A TSV image cell: one base64 string, or a Python list literal of them."""
    text = cell.strip()
    if not text.startswith("["):
        return [text]
    try:
        value = ast.literal_eval(text)  # literal syntax only: never evaluates code
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise DataError(path, n, "image", f"image list is not a valid list literal ({type(exc).__name__})") from None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DataError(path, n, "image", "image list must be a list of base64 strings")
    return value


def _load_parquet(path: str) -> tuple[Row, ...]:
    table = parquet.read_table(path)
    _check_columns(path, table.column_names)
    columns = {name: parquet.column(table, name, path) for name in COLUMNS}
    rows = []
    for n in range(table.num_rows):
        raw = {name: columns[name][n] for name in COLUMNS}
        raw["image"] = _parquet_images(raw["image"], path, n)
        rows.append(_make_row(raw, path, n))
    return _finish(rows, path)


def _parquet_images(cell: Any, path: str, n: int) -> list[bytes]:
    """A parquet image cell: a list of {bytes, path} structs (or one struct)."""
    if isinstance(cell, dict):
        cell = [cell]
    if not isinstance(cell, list):
        raise DataError(path, n, "image", f"expected a list of images, got {type(cell).__name__}")
    out = []
    for img in cell:
        data = img.get("bytes") if isinstance(img, dict) else img
        if not isinstance(data, (bytes, bytearray)):
            raise DataError(path, n, "image", "image entry has no bytes")
        out.append(bytes(data))
    return out


def _load_hub() -> tuple[Row, ...]:
    import datasets

    ds = datasets.load_dataset(HF_DATASET_ID, split="test")
    feature = ds.features.get("image")
    inner = getattr(feature, "feature", feature)
    if isinstance(inner, datasets.Image):
        undecoded = datasets.Image(decode=False)
        ds = ds.cast_column("image", datasets.List(undecoded) if inner is not feature else undecoded)
    source = f"hf://{HF_DATASET_ID}"
    rows = []
    for n, rec in enumerate(ds):
        raw = {name: rec.get(name) for name in COLUMNS}
        raw["image"] = _parquet_images(raw["image"], source, n)
        rows.append(_make_row(raw, source, n))
    return _finish(rows, source)


def _check_columns(path: str, names: Sequence[str]) -> None:
    missing = [c for c in COLUMNS if c not in names]
    if missing:
        raise DataError(path, "header", missing[0], f"missing column(s) {missing}; found {list(names)}")


def _text(value: Any) -> str:
    """A cell as text; pandas-style missing values (None, NaN, 'nan') become ''."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    text = str(value)
    return "" if text == "nan" else text


def _make_row(raw: dict[str, Any], path: str, n: int) -> Row:
    cid = _text(raw["category_id"]).strip()
    if cid not in BY_ID:
        raise DataError(path, n, "category_id", f"unknown subtest {cid!r}; expected one of {sorted(BY_ID)}")
    try:
        eval_index = int(_text(raw["eval_index"]).strip())
    except ValueError:
        raise DataError(path, n, "eval_index", f"not an integer: {raw['eval_index']!r}") from None
    index = _text(raw["index"]).strip()
    if not index:
        raise DataError(path, n, "index", "empty row id")
    answer = _text(raw["answer"])  # compared verbatim, as the official scorer does
    if not answer.strip():
        raise DataError(path, n, "answer", "empty answer")
    question = _text(raw["question"])
    if not question:
        raise DataError(path, n, "question", "empty question")
    images = tuple(raw["image"])
    for data in images:
        imgs.verify(data, path, n, "image")
    return Row(
        index=index,
        category_id=cid,
        category_name=_text(raw["category_name"]),
        eval_index=eval_index,
        images=images,
        question=question,
        answer=answer,
        additional=_text(raw["additional"]),
        source=path,
        row=n,
    )


def _finish(rows: Iterable[Row], path: str) -> tuple[Row, ...]:
    out = tuple(rows)
    if not out:
        raise DataError(path, "file", None, "no data rows")
    seen: dict[str, int] = {}
    for r in out:
        if r.index in seen:
            raise DataError(path, r.row, "index", f"duplicate row id {r.index!r} (first at row {seen[r.index]})")
        seen[r.index] = r.row
    return out
