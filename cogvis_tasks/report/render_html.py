"""The report as one self-contained HTML file: inline CSS, figures as data: URLs.

No scripts and no external requests, so the file renders the same offline, from a
mail attachment or a CI artifact.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping

from . import analyses, layout
from .analyses import Inputs
from .plots import Plot
from .tables import Report

CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 2em auto; max-width: 1400px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { border-bottom: 2px solid #333; padding-bottom: .2em; }
h2 { margin-top: 2.2em; border-bottom: 1px solid #aaa; }
h3 { margin-top: 1.4em; font-size: 1.05em; }
table { border-collapse: collapse; margin: .5em 0 1em; font-size: .88em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; }
td:first-child, th:first-child { text-align: left; }
tr:nth-child(even) td { background: #fafafa; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .85em; color: #555; }
.notes li, .sources li { font-size: .85em; }
code { font-size: .9em; word-break: break-all; }
"""


def _table(t: layout.Table) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in t.header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    return f'<h3>{html.escape(t.title)}</h3>\n<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>\n'


def _figure(plot: Plot) -> str:
    data = base64.b64encode(plot.png).decode("ascii")
    title = html.escape(plot.title)
    return f'<figure><img src="data:image/png;base64,{data}" alt="{title}"><figcaption>{title}</figcaption></figure>\n'


def render(report: Report, plots: Mapping[str, list[Plot]], inputs: Inputs | None = None) -> str:
    inputs = inputs or Inputs()
    parts = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>cogvis report</title>\n',
        f"<style>{CSS}</style>\n</head>\n<body>\n<h1>cogvis report</h1>\n",
        "".join(f"<p>{html.escape(line)}</p>\n" for line in layout.intro(report)),
    ]
    for section in report.sections:
        parts.append(f'<section id="{html.escape(section.evaluation)}">\n<h2>{html.escape(section.evaluation)}</h2>\n')
        parts += [
            f"<p>{html.escape(line)}</p>\n"
            for line in [*layout.section_intro(section), *analyses.intro_lines(section, inputs)]
        ]
        parts += [_table(t) for t in [layout.overall_table(section), *layout.group_tables(section)]]
        extras = layout.extras_table(section)
        if extras is not None:
            parts.append(_table(extras))
        parts += [_table(t) for t in analyses.section_tables(report, section, inputs)]
        parts += [_figure(p) for p in plots.get(section.evaluation, [])]
        notes = layout.notes(section)
        if notes:
            parts.append(
                '<h3>Notes</h3>\n<ul class="notes">' + "".join(f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>\n"
            )
        items = "".join(
            f"<li>{html.escape(label)}: "
            + ", ".join(f"<code>{html.escape(f)}</code>" for f in files)
            + (f"; {html.escape(logs)}" if logs else "")
            + "</li>"
            for label, files, logs in layout.sources(section)
        )
        parts.append(f'<h3>Sources</h3>\n<ul class="sources">{items}</ul>\n</section>\n')
    parts.append("</body>\n</html>\n")
    return "".join(parts)
