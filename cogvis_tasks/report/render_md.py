"""The report as markdown: tables per evaluation, figures as relative links to PNG files.

Without a figure folder (printing to stdout) the figures are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from . import analyses, layout
from .analyses import Inputs
from .tables import Report

if TYPE_CHECKING:  # plots imports matplotlib, which markdown to stdout does not need
    from .plots import Plot


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(t: layout.Table) -> list[str]:
    lines = ["| " + " | ".join(_escape(h) for h in t.header) + " |", "|" + "---|" * len(t.header)]
    lines += ["| " + " | ".join(_escape(c) for c in row) + " |" for row in t.rows]
    return lines


def render(
    report: Report, plots: Mapping[str, list[Plot]] | None = None, folder: str = "", inputs: Inputs | None = None
) -> str:
    """Markdown text; ``plots`` (evaluation -> figures) are linked as ``<folder>/<name>``."""
    inputs = inputs or Inputs()
    out = ["# cogvis report", ""]
    out += [*layout.intro(report), ""]
    for section in report.sections:
        out += [f"## {section.evaluation}", ""]
        out += [*layout.section_intro(section), *analyses.intro_lines(section, inputs), ""]
        for t in [layout.overall_table(section), *layout.group_tables(section)]:
            out += [f"### {t.title}", "", *table(t), ""]
        extras = layout.extras_table(section)
        if extras is not None:
            out += [f"### {extras.title}", "", *table(extras), ""]
        for t in analyses.section_tables(report, section, inputs):
            out += [f"### {t.title}", "", *table(t), ""]
        for plot in (plots or {}).get(section.evaluation, []):
            out += [f"![{_escape(plot.title)}]({folder}/{plot.name})", ""]
        notes = layout.notes(section)
        if notes:
            out += ["### Notes", "", *[f"- {_escape(n)}" for n in notes], ""]
        out += ["### Sources", ""]
        for label, files, logs in layout.sources(section):
            out += [
                f"- {_escape(label)}: " + ", ".join(f"`{f}`" for f in files) + (f"; {_escape(logs)}" if logs else "")
            ]
        out.append("")
    return "\n".join(out)
