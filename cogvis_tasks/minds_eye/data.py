"""Load Mind's Eye from the released layout: ``<task folder>/annotations.json`` plus PNGs.

Each annotations file maps an image file name to a record. Quirks of the
release handled here: the MT question is a one-element list; the answer lives
in a different field per task; letters come as ``B``, ``b`` or ``(c)``. Image
names come from the data, so they are refused unless they name a file inside
the task folder. Errors name the file, the record key and the field.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import images as imgs
from ..core.datadir import ENV_DATA_DIR, contained, locate
from ..core.errors import DataError
from ..core.utf8 import bad_field, open_text, printable
from .tasks import BY_ID, TASKS, Task

ANNOTATIONS = "annotations.json"
_LETTER = re.compile(r"^\(?\s*([A-Fa-f])\s*\)?\.?$")


@dataclass(frozen=True)
class Record:
    task: str
    key: str  # image file name, the record's key in annotations.json
    question: str
    answer: str  # one upper-case letter
    image: bytes
    extra: dict[str, Any]  # every other released field, for reports
    source: str  # the annotations file


def data_root(local_path: str | os.PathLike[str] | None = None) -> Path:
    """The folder holding the task folders: ``local_path`` (or its ``minds_eye/``), else $COGVIS_DATA_DIR/minds_eye."""
    wanted = f"task folder with {ANNOTATIONS} (e.g. mental_rotation/{ANNOTATIONS})"

    def holds(folder: Path) -> bool:
        return any((folder / t.folder / ANNOTATIONS).is_file() for t in TASKS)

    found = locate("minds_eye", holds, wanted, local_path)
    if found is None:
        raise FileNotFoundError(
            f"minds_eye has no hub copy: pass local_path or set ${ENV_DATA_DIR} (a root holding minds_eye/)"
        )
    return found


def normalize_letter(value: Any, task: Task, file: str, key: str, field: str) -> str:
    match = _LETTER.match(str(value).strip()) if isinstance(value, str) else None
    if match is None:
        raise DataError(file, key, field, f"not an option letter: {value!r}")
    letter = match.group(1).upper()
    if letter not in task.letters:
        raise DataError(
            file, key, field, f"letter {letter} is beyond the {task.options} options (A-{task.letters[-1]})"
        )
    return letter


def _question(value: Any, file: str, key: str) -> str:
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
        value = value[0]  # mental_rotation stores the prompt as a one-element list
    if not isinstance(value, str) or not value.strip():
        raise DataError(file, key, "question", f"expected a non-empty string, got {type(value).__name__}")
    return value


def _image(folder: Path, key: str, file: str) -> bytes:
    candidate = folder / key
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # missing, a link loop, or an invalid name (NUL byte)
        raise DataError(file, key, "image", f"image file {str(candidate)!r} does not exist") from None
    if Path(key).is_absolute() or not resolved.is_relative_to(folder.resolve()) or not resolved.is_file():
        raise DataError(file, key, "image", "image name resolves outside the task folder; refused")
    data = resolved.read_bytes()
    imgs.verify(data, file, key, "image")
    return data


def _no_duplicate_keys(path: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """json.load keeps only the last of duplicate keys; a duplicated image name is a data error."""

    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise DataError(path, printable(key), None, "duplicate key (each image may appear once)")
            out[key] = value
        return out

    return build


def parse_record(task: Task, key: str, rec: Any, image: bytes, source: str) -> Record:
    """One annotations entry as a Record; the generators' items go through here too, so both read alike."""
    if not isinstance(rec, dict):
        raise DataError(source, key, None, "record is not an object")
    if task.answer_field not in rec:
        raise DataError(source, key, task.answer_field, f"missing (the {task.id} answer field)")
    return Record(
        task=task.id,
        key=key,
        question=_question(rec.get("question"), source, key),
        answer=normalize_letter(rec[task.answer_field], task, source, key, task.answer_field),
        image=image,
        extra={k: v for k, v in rec.items() if k not in ("question", task.answer_field)},
        source=source,
    )


def load_task(root: Path, task: Task) -> tuple[Record, ...]:
    """One task's records; its folder and annotations file must resolve inside ``root``."""
    named = root / task.folder / ANNOTATIONS
    folder = contained(named.parent, root, str(named.parent), "folder", None, "task folder")
    path = contained(named, folder, str(named), "file", None, "annotations file")  # its images are read from its folder
    stat = path.stat()
    return _load(str(path), task.id, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _load(path: str, task_id: str, size: int, mtime_ns: int) -> tuple[Record, ...]:
    del size, mtime_ns  # cache key only
    task = BY_ID[task_id]
    try:
        with open_text(path) as fh:
            raw = json.load(fh, object_pairs_hook=_no_duplicate_keys(path))
    except json.JSONDecodeError as exc:
        raise DataError(path, f"line {exc.lineno}", None, f"malformed JSON ({exc.msg})") from None
    if not isinstance(raw, dict):
        raise DataError(path, "top level", None, "expected an object mapping image names to records")
    for key, rec in raw.items():
        if bad_field(key) is not None:
            raise DataError(path, printable(key), None, "record key (image name) is not valid UTF-8")
        bad = bad_field(rec)
        if bad is not None:
            raise DataError(path, key, bad, "text is not valid UTF-8")
    folder = Path(path).parent
    # Fields first, then the image: a record's own errors are reported before a missing file.
    records = [
        dataclasses.replace(parse_record(task, key, rec, b"", path), image=_image(folder, key, path))
        for key, rec in raw.items()
    ]
    if not records:
        raise DataError(path, "top level", None, "no records")
    return tuple(records)


def load(tasks: list[str] | None = None, local_path: str | os.PathLike[str] | None = None) -> list[Record]:
    """Records of the requested tasks present in the release folder (all tasks by default)."""
    root = data_root(local_path)
    wanted = [BY_ID[t] for t in tasks] if tasks is not None else list(TASKS)
    out: list[Record] = []
    for task in wanted:
        if (root / task.folder / ANNOTATIONS).is_file():
            out.extend(load_task(root, task))
        elif tasks is not None:
            raise FileNotFoundError(f"minds_eye: {task.id} requested but {root / task.folder / ANNOTATIONS} is missing")
    return out
