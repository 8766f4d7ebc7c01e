"""The Mind's Eye release fixture: the package's synthetic release (one source of truth), and the real samples."""

from __future__ import annotations

from pathlib import Path

from cogvis_tasks.minds_eye.synthetic import (  # noqa: F401  (the tests' vocabulary)
    FOLDER_OF,
    FOLDERS,
    MAKERS,
    OPTIONS_OF,
    annotations,
    png,
    write_release,
    write_task,
)

# Real release items: shared/ lies beside the checkout (in CI beside the clone).
SAMPLES = next(
    (
        p
        for p in (
            Path(__file__).resolve().parents[2] / "shared" / "samples" / "minds_eye",
            Path("/work/shared/samples/minds_eye"),
        )
        if p.is_dir()
    ),
    Path("/work/shared/samples/minds_eye"),
)
