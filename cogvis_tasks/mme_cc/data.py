"""Load MME-CC: 12 JSON files at the dataset root plus one image folder per subtask.

Sources: ``local_path`` / ``$COGVIS_DATA_DIR/mme_cc/`` holding the files, else the hub
(``MaxwellWen/MME-CC``, downloaded as a snapshot). The reference is the text after
``## The correct answer is:``; a ``## Scoring criteria:`` part is kept for the judge.
Image paths come from the data; they and the JSON files must resolve inside the
dataset root (for a hub snapshot: inside its cache folder, whose ``blobs/`` hold
the files the snapshot links to). Every image is fully verified at load.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import images as imgs
from ..core.datadir import contained, locate
from ..core.errors import DataError
from ..core.utf8 import bad_field, open_text
from .subtasks import FILES, canonical

HF_DATASET_ID = "MaxwellWen/MME-CC"
ANSWER_MARK = "## The correct answer is:"
CRITERIA_MARK = "## Scoring criteria:"


@dataclass(frozen=True)
class Question:
    subtask: str
    key: str  # "<file>#<index>"
    prompt: str
    images: tuple[bytes, ...]
    reference: str
    criteria: str
    source: str
    row: int


def root(local_path: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """(dataset root, the folder nothing may resolve outside of)."""

    def holds(folder: Path) -> bool:
        return any((folder / name).is_file() for name in FILES)

    found = locate("mme_cc", holds, str(sorted(FILES)), local_path)
    if found is not None:
        return found, found
    from huggingface_hub import snapshot_download

    snapshot = Path(snapshot_download(HF_DATASET_ID, repo_type="dataset"))
    return snapshot, snapshot.parent.parent  # <repo cache>/snapshots/<revision>: files link into <repo cache>/blobs


def split_reference(text: str) -> tuple[str, str]:
    """(reference, scoring criteria) from a ground-truth answer text."""
    body = text.split(ANSWER_MARK, 1)[1] if ANSWER_MARK in text else text
    reference, _, criteria = body.partition(CRITERIA_MARK)
    return reference.strip(), criteria.strip()


def load(local_path: str | os.PathLike[str] | None = None) -> tuple[Question, ...]:
    base, boundary = root(local_path)
    files = [base / name for name in FILES if (base / name).is_file()]
    if not files:
        raise FileNotFoundError(f"mme_cc: none of {sorted(FILES)} under {str(base)!r}")
    missing = sorted(name for name in FILES if not (base / name).is_file())
    if missing:
        warnings.warn(f"mme_cc: {str(base)!r} lacks {missing}; those questions are not evaluated", stacklevel=2)
    resolved = [contained(f, boundary, str(f), "file", None, "data file") for f in files]
    return tuple(
        q for f in resolved for q in _load_file(str(f), str(base), str(boundary.resolve()), f.stat().st_mtime_ns)
    )


@functools.lru_cache(maxsize=16)
def _load_file(path: str, base: str, boundary: str, mtime_ns: int) -> tuple[Question, ...]:
    del mtime_ns
    try:
        with open_text(path) as fh:
            raw = json.load(fh)
    except json.JSONDecodeError as exc:
        raise DataError(path, f"line {exc.lineno}", None, f"malformed JSON ({exc.msg})") from None
    records = raw.get("data") if isinstance(raw, dict) else raw
    if not isinstance(records, list):
        raise DataError(path, "top level", None, "expected a list of records")
    default = FILES[Path(path).name]
    return tuple(_question(r, path, n, Path(base), Path(boundary), default) for n, r in enumerate(records))


def _question(rec: Any, path: str, n: int, base: Path, boundary: Path, default: str) -> Question:
    if not isinstance(rec, dict):
        raise DataError(path, n, None, "record is not an object")
    bad = bad_field(rec)
    if bad is not None:
        raise DataError(path, n, bad, "text is not valid UTF-8")
    prompt = rec.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise DataError(path, n, "prompt", "missing or empty")
    truth = rec.get("ground_truth")
    answer = truth.get("answer") if isinstance(truth, dict) else None
    if not isinstance(answer, str) or not answer.strip():
        raise DataError(path, n, "ground_truth.answer", "missing or empty")
    image_list = rec.get("image_list") or []
    if not isinstance(image_list, list) or not all(isinstance(p, str) for p in image_list):
        raise DataError(path, n, "image_list", "expected a list of relative paths")
    extra = rec.get("extra") if isinstance(rec.get("extra"), dict) else {}
    named = extra.get("Subtask") or extra.get("subtask") or (image_list[0].split("/", 1)[0] if image_list else "")
    subtask = canonical(str(named)) or default
    images = []
    for rel in image_list:
        if Path(rel).is_absolute():
            raise DataError(path, n, "image_list", f"image path {rel!r} leaves the dataset root; refused")
        target = contained(base / rel, boundary, path, n, "image_list", "image file")
        if not target.is_file():
            raise DataError(path, n, "image_list", f"image file {rel!r} is not a file")
        data = target.read_bytes()
        imgs.verify(data, path, n, "image_list")
        images.append(data)
    reference, criteria = split_reference(answer)
    if not reference:
        raise DataError(path, n, "ground_truth.answer", f"no reference after {ANSWER_MARK!r}")
    return Question(subtask, f"{Path(path).stem}#{n}", prompt, tuple(images), reference, criteria, path, n)
