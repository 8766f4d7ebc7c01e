"""Invalid UTF-8 in text data files, located by record and field.

A strict decode stops the whole read with a bare ``UnicodeDecodeError`` and a
byte offset into some buffer. Reading with ``surrogateescape`` keeps every
undecodable byte as a lone surrogate instead, so a loader can parse the file as
usual and then name the record and field that hold the bad bytes.
"""

from __future__ import annotations

import os
import re
from typing import Any, TextIO

_SURROGATE = re.compile("[\ud800-\udfff]")


def open_text(path: str | os.PathLike[str], newline: str | None = None) -> TextIO:
    """A data file opened as UTF-8 that keeps undecodable bytes (as lone surrogates) for ``bad_field`` to find."""
    return open(path, encoding="utf-8", errors="surrogateescape", newline=newline)


def bad_field(value: Any, name: str = "") -> str | None:
    """The field path (``extra.Subtask``, ``options[2]``) of the first string in ``value`` that is not UTF-8 text.

    ``name`` is the path of ``value`` itself. Dict keys are checked too (the path
    then ends at the bad key). Returns None when every string is valid.
    """
    if isinstance(value, str):
        return name if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{name}.{key}" if name else str(key)
            if isinstance(key, str) and _SURROGATE.search(key):
                return printable(path)
            found = bad_field(item, path)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = bad_field(item, f"{name}[{i}]")
            if found is not None:
                return found
    return None


def printable(text: str) -> str:
    """``text`` with undecodable bytes shown as ``\\xNN`` escapes, safe to put in an error message."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
