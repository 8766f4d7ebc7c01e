"""Errors for bad benchmark data.

A user who points the loader at a broken file needs to know *where* it is broken:
every data error names the file, the row (or record key) and the field.
"""

from __future__ import annotations


class DataError(ValueError):
    """A problem in a benchmark data file, located by file, row and field."""

    def __init__(self, file: str, row: object, field: str | None, message: str) -> None:
        self.file = str(file)
        self.row = row
        self.field = field
        self.message = message
        where = f"{self.file}, row {row}"
        if field:
            where += f", field {field!r}"
        super().__init__(f"{where}: {message}")
