"""The chosen option of a VisualPuzzles answer: the official cascade, deterministic.

Patterns are tried from the most explicit to the least ("Answer: (X)", "Answer:
X", "(X)", "X)", "{X}", "$X$", " X.", a bare letter as the whole answer, then a
unique option text); within a pattern the last occurrence wins. The official
code falls back to a random letter; here no match is '' (unparseable, counted).
"""

from __future__ import annotations

import re

_CASCADE = tuple(
    re.compile(p)
    for p in (
        r"Answer:\s*+\(([A-Da-d])\)",
        r"Answer:\s*+([A-Da-d])\b",
        r"\(([A-Da-d])\)",
        r"(?:^|(?<=\s))([A-Da-d])\)",
        r"\{([A-Da-d])\}",
        r"\$([A-Da-d])\$",
        r"(?<= )([A-Da-d])\.",
    )
)
_BARE = re.compile(r"^\s*+([A-Da-d])\s*+$")


def extract_option(response: str, options: tuple[str, ...] | None = None) -> str:
    padded = " " + response.strip()  # as the official parser does, so "B." at the start counts
    for pattern in _CASCADE:
        found = pattern.findall(padded)
        if found:
            return found[-1].upper()
    stripped = response.strip()
    if len(stripped) <= 5:
        bare = _BARE.match(stripped)
        if bare:
            return bare.group(1).upper()
    if options:
        low = response.lower()
        hits = [i for i, opt in enumerate(options) if opt.strip() and opt.strip().lower() in low]
        if len(hits) == 1:
            return "ABCD"[hits[0]]
    return ""
