"""Load VisualPuzzles from the hub (``neulab/VisualPuzzles``) or a local copy.

Local copies live in ``$COGVIS_DATA_DIR/visualpuzzles/`` (or an explicit path): the
hub's parquet files (any ``*.parquet`` below it, split ``test`` preferred, else
``train``: the hub renamed the split), or a ``*.jsonl`` file whose ``image`` field
names a file below the folder. Errors name the file, record and field. Data files
and images must resolve inside the folder, puzzle ids must be unique, and every
image is fully verified at load.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import images as imgs
from ..core import parquet
from ..core.datadir import contained, locate
from ..core.errors import DataError
from ..core.utf8 import bad_field, open_text

HF_DATASET_ID = "neulab/VisualPuzzles"
LETTERS = "ABCD"


@dataclass(frozen=True)
class Puzzle:
    id: str
    image: bytes
    question: str
    options: tuple[str, ...] | None  # None: the options are drawn in the image
    answer: str
    category: str
    difficulty: str
    source: str
    row: int


def _holds(folder: Path) -> bool:
    return any(True for _ in folder.rglob("*.parquet")) or any(True for _ in folder.rglob("*.jsonl"))


def _folder(local_path: str | os.PathLike[str] | None) -> Path | None:
    return locate("visualpuzzles", _holds, "*.parquet or *.jsonl", local_path, files=True)


def load(local_path: str | os.PathLike[str] | None = None) -> tuple[Puzzle, ...]:
    folder = _folder(local_path)
    if folder is None:
        puzzles = _load_hub()
        _no_duplicate_ids(puzzles)
        return puzzles
    files = sorted(folder.rglob("*.parquet")) if folder.is_dir() else [folder]
    if folder.is_dir() and not files:
        files = sorted(folder.rglob("*.jsonl"))
    for split in ("test", "train"):
        chosen = [f for f in files if split in f.name]
        if chosen:
            files = chosen
            break
    if not files:
        raise FileNotFoundError(f"visualpuzzles: no *.parquet or *.jsonl under {str(folder)!r}")
    if folder.is_dir():
        files = [contained(f, folder, str(f), "file", None, "data file") for f in files]
    puzzles = tuple(p for f in files for p in _load_file(str(f.resolve()), f.stat().st_mtime_ns))
    _no_duplicate_ids(puzzles)
    return puzzles


def _no_duplicate_ids(puzzles: tuple[Puzzle, ...]) -> None:
    """Two records with one id would be scored as one item (and one would overwrite the other in evalscope)."""
    seen: dict[str, Puzzle] = {}
    for p in puzzles:
        first = seen.setdefault(p.id, p)
        if first is not p:
            raise DataError(
                p.source, p.row, "id", f"duplicate puzzle id {p.id!r} (first in {first.source}, row {first.row})"
            )


@functools.lru_cache(maxsize=4)
def _load_file(path: str, mtime_ns: int) -> tuple[Puzzle, ...]:
    del mtime_ns
    if path.endswith(".jsonl"):
        records = []  # (line index, record): errors name the file line in both kinds of message
        with open_text(path) as fh:
            for n, line in enumerate(fh):
                if line.strip():
                    try:
                        records.append((n, json.loads(line)))
                    except json.JSONDecodeError as exc:
                        raise DataError(path, n, None, f"malformed JSON line ({exc.msg})") from None
        return tuple(_puzzle(r, path, n, Path(path).parent) for n, r in records)
    table = parquet.read_table(path)
    return tuple(_puzzle(r, path, n, None) for n, r in enumerate(parquet.records(table, path)))


def _load_hub() -> tuple[Puzzle, ...]:
    import datasets

    try:
        ds = datasets.load_dataset(HF_DATASET_ID, split="test")
    except ValueError:  # older snapshots call the split "train"
        ds = datasets.load_dataset(HF_DATASET_ID, split="train")
    if isinstance(ds.features.get("image"), datasets.Image):
        ds = ds.cast_column("image", datasets.Image(decode=False))
    return tuple(_puzzle(r, f"hf://{HF_DATASET_ID}", n, None) for n, r in enumerate(ds))


def _image_bytes(value: Any, path: str, n: int, base: Path | None) -> bytes:
    if isinstance(value, dict) and value.get("bytes"):
        return bytes(value["bytes"])
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    rel = value.get("path") if isinstance(value, dict) else value
    if isinstance(rel, str) and base is not None:
        target = contained(base / rel, base, path, n, "image", "image file")
        if not target.is_file():
            raise DataError(path, n, "image", f"image file {rel!r} is not a file")
        return target.read_bytes()
    raise DataError(path, n, "image", "no image bytes or path")


def _puzzle(rec: Any, path: str, n: int, base: Path | None) -> Puzzle:
    if not isinstance(rec, dict):
        raise DataError(path, n, None, f"record is not an object (got {type(rec).__name__})")
    bad = bad_field(rec)
    if bad is not None:
        raise DataError(path, n, bad, "text is not valid UTF-8")
    for field in ("id", "image", "question", "answer", "category", "difficulty"):
        if rec.get(field) in (None, ""):
            raise DataError(path, n, field, "missing")
    answer = str(rec["answer"]).strip().strip("()").strip().upper()
    if len(answer) != 1 or answer not in LETTERS:
        raise DataError(path, n, "answer", f"not one of {LETTERS}: {rec['answer']!r}")
    options = rec.get("options")
    if options is not None and (not isinstance(options, list) or len(options) != 4):
        raise DataError(path, n, "options", "expected a list of four options or null")
    image = _image_bytes(rec["image"], path, n, base)
    imgs.verify(image, path, n, "image")
    return Puzzle(
        id=str(rec["id"]),
        image=image,
        question=str(rec["question"]),
        options=tuple(str(o) for o in options) if options is not None else None,
        answer=answer,
        category=str(rec["category"]).strip().lower(),
        difficulty=str(rec["difficulty"]).strip().lower(),
        source=path,
        row=n,
    )
