"""Parquet data files read with located errors.

pyarrow reports a truncated or corrupt file as a raw ``ArrowInvalid`` and a
string cell holding invalid UTF-8 as a bare ``UnicodeDecodeError`` when the
column is converted; here both become a DataError naming the file (and the row
and column of a bad cell).
"""

from __future__ import annotations

from typing import Any

from .errors import DataError


def read_table(path: str) -> Any:
    """The whole table of a parquet file (a ``pyarrow.Table``)."""
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path)
    except Exception as exc:  # ArrowInvalid, OSError, ... for truncated or corrupt files
        raise DataError(
            path, "file", None, f"cannot read parquet ({type(exc).__name__}: {exc}); is the file truncated?"
        ) from None


def column(table: Any, name: str, path: str) -> list[Any]:
    """One column as Python values; a cell that is not valid UTF-8 is located by row and column."""
    values = table.column(name)
    try:
        return values.to_pylist()
    except UnicodeDecodeError:
        for n in range(len(values)):  # only on failure: find the row
            try:
                values[n].as_py()
            except UnicodeDecodeError:
                raise DataError(path, n, name, "text is not valid UTF-8") from None
        raise


def records(table: Any, path: str) -> list[dict[str, Any]]:
    """Every row as a dict of column name -> value (bad cells located as in ``column``)."""
    columns = {name: column(table, name, path) for name in table.column_names}
    return [{name: columns[name][n] for name in columns} for n in range(table.num_rows)]
