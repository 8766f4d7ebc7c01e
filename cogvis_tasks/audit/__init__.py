"""Shortcut audit: can an item set be answered without doing the task?

Cheap pickers (logistic regression and gradient boosting on per-option surface features and on raw downsampled
crops, plus every single feature as an argmax/argmin picker) are cross-validated with folds grouped by item; a
set is flagged when a picker's 95% CI lies clearly above chance (:mod:`cogvis_tasks.audit.engine` states the
rule). Needs the ``audit`` extra (scikit-learn).

Library use::

    from cogvis_tasks.audit import AuditItem, audit, audit_set, run, to_markdown
    results = run(benchmark, subtests=["PF"], difficulties=["hard"], n=300)  # a name of run.benchmarks()
    print(to_markdown(results))
"""

from __future__ import annotations

from .engine import MARGIN, FeatureScore, Score, SetAudit, audit, audit_set, wilson
from .items import BINARY, CHOICE, CROP, AuditItem, square_crop
from .report import to_html, to_markdown, write
from .run import run

__all__ = [
    "BINARY", "CHOICE", "CROP", "MARGIN", "AuditItem", "FeatureScore", "Score", "SetAudit",
    "audit", "audit_set", "run", "square_crop", "to_html", "to_markdown", "wilson", "write",
]  # fmt: skip
