"""VisualPuzzles fixtures: the package's synthetic sets (one source of truth), in both released layouts."""

from cogvis_tasks.visualpuzzles.synthetic import records, write_jsonl, write_parquet  # noqa: F401
