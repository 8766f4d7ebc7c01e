"""VisFactor prompt templates to interleaved prompts.

The ``question`` column is a template: ``<br>`` is a newline, ``<ADDITIONAL_n>``
takes the n-th ``;``-separated part of ``additional`` (0-based, itself possibly
holding ``<br>`` and image tags), and ``<IMAGE_k>`` marks where image k goes.
Resolution follows the official VLMEvalKit order (newlines, then additional
parts, then the CoT rewrite, then the split at image tags), but image indices of
any width are honoured (the official code reads only the last digit) and tags that
do not resolve are data errors instead of being sent to the model verbatim.
"""

from __future__ import annotations

import re

from ..core.errors import DataError
from ..core.sample import Part

_ADDITIONAL = re.compile(r"<ADDITIONAL_(\d+)>")
_IMAGE = re.compile(r"<IMAGE_(\d+)>")

#: The official CoT condition rewrites this literal of the direct prompt.
DIRECT_OUTPUT = "Output: Respond"
COT_OUTPUT = "Output: Solve the problem step-by-step. First, reason through the problem clearly. At the end, respond"

CONDITIONS = ("direct", "cot")


def resolve_template(question: str, additional: str, where: tuple[str, object]) -> str:
    """Apply ``<br>`` and ``<ADDITIONAL_n>`` substitution; raise on an unresolvable tag."""
    text = question.replace("<br>", "\n")
    parts = additional.replace("<br>", "\n").split(";") if additional else []

    def substitute(match: re.Match[str]) -> str:
        n = int(match.group(1))
        if n >= len(parts):
            raise DataError(
                where[0],
                where[1],
                "additional",
                f"question uses <ADDITIONAL_{n}> but 'additional' has {len(parts)} part(s)",
            )
        return parts[n]

    return _ADDITIONAL.sub(substitute, text)


def apply_condition(text: str, condition: str) -> str:
    if condition == "direct":
        return text
    if condition == "cot":
        return text.replace(DIRECT_OUTPUT, COT_OUTPUT)
    raise ValueError(f"unknown VisFactor prompt condition {condition!r}; expected one of {CONDITIONS}")


def interleave(text: str, n_images: int, where: tuple[str, object]) -> tuple[Part, ...]:
    """Split resolved text at ``<IMAGE_k>`` tags into text and image parts.

    Every image of the row must be shown at least once and no tag may point past
    the row's images: a mismatch means the row is corrupt.
    """
    parts: list[Part] = []
    seen: set[int] = set()
    pos = 0
    for match in _IMAGE.finditer(text):
        if match.start() > pos:
            parts.append(("text", text[pos : match.start()]))
        k = int(match.group(1))
        if k >= n_images:
            raise DataError(
                where[0], where[1], "image", f"question shows <IMAGE_{k}> but the row has {n_images} image(s)"
            )
        parts.append(("image", k))
        seen.add(k)
        pos = match.end()
    if pos < len(text):
        parts.append(("text", text[pos:]))
    missing = sorted(set(range(n_images)) - seen)
    if missing:
        raise DataError(
            where[0],
            where[1],
            "question",
            f"the row has {n_images} image(s) but the question never shows image(s) {missing}",
        )
    return tuple(parts)


def render(
    question: str, additional: str, n_images: int, condition: str, where: tuple[str, object]
) -> tuple[Part, ...]:
    """The interleaved prompt of one VisFactor row under a prompt condition."""
    text = apply_condition(resolve_template(question, additional, where), condition)
    return interleave(text, n_images, where)
