"""Write a report: markdown to stdout, a markdown file with its figures beside it, or one HTML file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from . import bootstrap
from .analyses import Inputs, read_external, read_human
from .tables import build


def write_report(
    run_dirs: Sequence[str],
    out: str | None = None,
    resamples: int = bootstrap.DEFAULT_RESAMPLES,
    seed: int = bootstrap.DEFAULT_SEED,
    external: str | None = None,
    human: str | None = None,
) -> str:
    """Build the report; return the markdown (``out`` None, no figures) or write ``out`` and return its path.

    ``report.md`` gets its figures in ``report_files/*.png`` (linked relatively);
    ``report.html`` embeds them. ``external`` (``model,benchmark,score``) and ``human``
    (``benchmark,subtest,score``) are CSV files for the validity and reliability analyses.
    """
    if out is not None and Path(out).suffix.lower() not in (".md", ".html"):
        raise ValueError(f"--out must end in .md or .html, got {out!r}")
    if resamples < 1:
        raise ValueError(f"--bootstrap must be at least 1, got {resamples}")
    inputs = Inputs(read_external(external) if external else {}, read_human(human) if human else {})
    report = build(run_dirs, resamples, seed)
    from . import render_md

    if out is None:
        return render_md.render(report, inputs=inputs)
    from . import plots as figures
    from . import render_html

    plots = {s.evaluation: figures.figures(s) for s in report.sections}
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".html":
        path.write_text(render_html.render(report, plots, inputs), encoding="utf-8")
        return str(path)
    folder = path.with_name(f"{path.stem}_files")
    folder.mkdir(exist_ok=True)
    for plot in (p for ps in plots.values() for p in ps):
        (folder / plot.name).write_bytes(plot.png)
    path.write_text(render_md.render(report, plots, folder.name, inputs), encoding="utf-8")
    return str(path)
