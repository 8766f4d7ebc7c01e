"""The audit as markdown or self-contained HTML: one table over all sets, then the flagged cues with examples.

Markdown writes its thumbnails to ``<name>_files/`` beside the file; HTML inlines them as data URLs. Same
inputs give byte-identical files (PNG bytes carry no metadata).
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from pathlib import Path

from ..core.generation import png
from .engine import SetAudit


def _pct(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}"


def _name(a: SetAudit) -> str:
    return a.group.split("/", 1)[1]


def table_rows(results: Sequence[SetAudit]) -> list[list[str]]:
    """One row per set: the columns of the summary table."""
    out = []
    for a in results:
        if a.kind == "not audited":
            out.append([_name(a), a.preset, a.kind, "-", "-", "-", "-", "-", "-", "-", a.note])
            continue
        best = a.best
        strongest = "; ".join(f"{f.name} {f.direction} {_pct(f.accuracy)}" for f in a.features if not f.concept)[:200]
        concept = ", ".join(f"{s.name} {_pct(s.accuracy)}" for s in a.concept)
        if a.item_concept:
            concept += f" (item concepts: {a.item_concept})"
        flag = f"LEAK ({a.cue})" if a.leak else "ok"
        if "position_p" in a.extra:
            flag += f"; positions p={a.extra['position_p']:.2g}"
        if a.note:
            flag += f"; {a.note}"
        kind = a.kind
        if "best_item_accuracy" in a.extra:
            best_items, majority_items = _pct(a.extra["best_item_accuracy"]), _pct(a.extra["majority_item_accuracy"])
            kind += f" (items with every row right: {best_items} vs {majority_items} by the majority label)"
        out.append(
            [
                _name(a), a.preset, kind, str(a.n_items), _pct(a.chance), _pct(a.majority),
                f"{best.name} {_pct(best.accuracy)}" if best else "-",
                f"[{_pct(best.low)}, {_pct(best.high)}]" if best else "-",
                flag, strongest, concept,
            ]
        )  # fmt: skip
    return out


HEADER = [
    "set",
    "preset",
    "kind",
    "items",
    "chance %",
    "majority %",
    "best picker (acc %)",
    "95% CI",
    "flag",
    "strongest single features (acc %)",
    "concept pickers (acc %)",
]


def summary_markdown(results: Sequence[SetAudit]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in table_rows(results)]
    return "\n".join(lines)


def _intro(results: Sequence[SetAudit]) -> str:
    margin = results[0].margin if results else 0.02
    return (
        f"Pickers: surface features and raw 16x16 crops, logistic regression and gradient boosting, folds grouped by item; "
        f"the best single feature chosen on the training folds. A set is flagged when a picker's 95% CI lower bound exceeds "
        f"the baseline (chance; for yes/no rows the larger of 50% and the majority label) by more than {100 * margin:.0f} points. "
        f"Concept pickers use only features that are the task's concept and are never flagged."
    )


def _all_pickers(a: SetAudit) -> str:
    parts = [f"{s.name} {_pct(s.accuracy)} [{_pct(s.low)}, {_pct(s.high)}]" for s in a.pickers + a.concept]
    return "; ".join(parts)


def to_markdown(results: Sequence[SetAudit], files: Path | None = None, link: str = "") -> str:
    """The report; thumbnails go to ``files`` (linked as ``link/<name>``) when given, else they are left out."""
    out = ["# Shortcut audit", "", _intro(results), "", summary_markdown(results), ""]
    for a in results:
        if not a.leak:
            continue
        out += [f"## {a.group} {a.preset}: {a.cue}", "", _all_pickers(a), ""]
        for k, ex in enumerate(a.examples):
            if ex.image is not None and files is not None:
                files.mkdir(parents=True, exist_ok=True)
                name = f"{_name(a)}_{a.preset}_{k}.png".replace("/", "_")
                from PIL import Image

                (files / name).write_bytes(png(Image.fromarray(ex.image)))
                out.append(f"- `{ex.key}` ![{ex.key}]({link}/{name})")
            else:
                out.append(f"- `{ex.key}` {ex.text}")
        out.append("")
    return "\n".join(out)


def to_html(results: Sequence[SetAudit]) -> str:
    from PIL import Image

    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADER)
    body = []
    for row, a in zip(table_rows(results), results, strict=True):
        style = ' style="background:#fdd"' if a.leak else ""
        body.append(f"<tr{style}>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>")
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Shortcut audit</title>",
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}",
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}</style>",
        "</head><body><h1>Shortcut audit</h1>",
        f"<p>{html.escape(_intro(results))}</p><table><tr>{head}</tr>{''.join(body)}</table>",
    ]
    for a in results:
        if not a.leak:
            continue
        parts.append(f"<h2>{html.escape(f'{a.group} {a.preset}: {a.cue}')}</h2><p>{html.escape(_all_pickers(a))}</p>")
        for ex in a.examples:
            if ex.image is not None:
                data = base64.b64encode(png(Image.fromarray(ex.image))).decode()
                parts.append(
                    f"<div><code>{html.escape(ex.key)}</code><br><img src='data:image/png;base64,{data}'></div>"
                )
            else:
                parts.append(f"<div><code>{html.escape(ex.key)}</code> {html.escape(ex.text)}</div>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write(results: Sequence[SetAudit], out: str | Path) -> Path:
    """``out.html`` (self-contained) or ``out.md`` (thumbnails in ``<stem>_files/``)."""
    path = Path(out)
    if path.suffix == ".html":
        path.write_text(to_html(results), encoding="utf-8")
    else:
        files = path.parent / f"{path.stem}_files"
        path.write_text(to_markdown(results, files, files.name), encoding="utf-8")
    return path
