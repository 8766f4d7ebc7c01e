"""The real Mind's Eye items in the released layout, beside the checkout (tests that need them skip without them)."""

from __future__ import annotations

from pathlib import Path

# Real release items: shared/ lies beside the checkout (in CI beside the clone).
SAMPLES = next(
    (
        p
        for p in (
            Path(__file__).resolve().parents[3] / "shared" / "samples" / "minds_eye",
            Path("/work/shared/samples/minds_eye"),
        )
        if p.is_dir()
    ),
    Path("/work/shared/samples/minds_eye"),
)
