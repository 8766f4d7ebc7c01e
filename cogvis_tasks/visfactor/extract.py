"""Answer extraction from free-text responses, official and lenient.

The official VLMEvalKit scorer takes the value of the last match of
``\\{\\s*"answer"\\s*:\\s*(.+?)\\s*\\}`` (``re.finditer``). Run with Python's
backtracking engine that pattern is quadratic on long lines full of unclosed
``{"answer":`` prefixes, so a hostile or runaway 1 MB response would stall a run.
``official_json_answer`` computes exactly the same result in linear time: it
walks the candidate ``{`` positions left to right (non-overlapping, as finditer
does) and decides each match with precomputed look-ups instead of backtracking.
The equivalence is checked by property tests against the regex itself.

``lenient_json_answer`` is a more forgiving reader for an additional metric only:
it accepts ``"answer"`` anywhere in an object, nested braces and JSON literals.
"""

from __future__ import annotations

import json
import re

_WS_RUN = re.compile(r"\s*")
_DIGITS = re.compile(r"\d+")
_ANSWER_KEY = re.compile(r'"answer"\s*:\s*')
_LIST_ITEM = r'(?:-?\d+|"[^"\n]*")'
_LENIENT_VALUE = re.compile(
    r'"((?:[^"\\\n]|\\.)*)"'  # a JSON string (one line)
    r"|(-?\d+(?:\.\d+)?)"  # a number
    r"|(true|false)\b"  # a boolean
    rf"|\[\s*({_LIST_ITEM}(?:\s*,\s*{_LIST_ITEM})*)\s*\]"  # a flat list, e.g. [2, 3]
)


class _Scanner:
    """Look-ups over one response that are amortised linear for increasing queries."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.n = len(s)
        self._nl = (-1, -1)  # (query position, first '\n' at or after it; n if none)
        self._brace = (-1, -1)
        self._ws_start: dict[int, int] = {}

    def skip_ws(self, i: int) -> int:
        return _WS_RUN.match(self.s, i).end()

    def next_newline(self, i: int) -> int:
        start, found = self._nl
        if not (start <= i <= found):
            found = self.s.find("\n", i)
            found = self.n if found < 0 else found
        self._nl = (i, found)
        return found

    def next_brace(self, i: int) -> int:
        start, found = self._brace
        if not (start <= i <= found):
            found = self.s.find("}", i)
            found = self.n if found < 0 else found
        self._brace = (i, found)
        return found

    def ws_start(self, b: int) -> int:
        """Start of the whitespace run that ends just before index b."""
        a = self._ws_start.get(b)
        if a is None:
            a = b
            while a > 0 and self.s[a - 1].isspace():
                a -= 1
            self._ws_start[b] = a
        return a

    def match_at(self, p: int) -> tuple[str, int] | None:
        """The official pattern's match starting at '{' index p: (group, end) or None."""
        s, n = self.s, self.n
        i = self.skip_ws(p + 1)
        if not s.startswith('"answer"', i):
            return None
        i = self.skip_ws(i + 8)
        if i >= n or s[i] != ":":
            return None
        q = i + 1
        r = self.skip_ws(q)
        # Greedy whitespace after ':' first: the group starts at r.
        if r < n:
            b = self.next_brace(r + 1)
            if b < n:
                t = max(r + 1, self.ws_start(b))
                if t <= self.next_newline(r):
                    return s[r:t], b + 1
        # Backtracking into that whitespace only helps when s[r] is the closing
        # brace itself: the group is then the last non-newline whitespace
        # character before it (the rest of the run matches the trailing \s*).
        if r < n and s[r] == "}":
            for g in range(r - 1, q - 1, -1):
                if s[g] != "\n":
                    return s[g : g + 1], r + 1
        return None


def official_json_answer(response: str) -> str:
    """The official last-``{"answer": ...}`` value, quotes stripped as the official code does."""
    scanner = _Scanner(response)
    last: str | None = None
    pos = 0
    while True:
        p = response.find("{", pos)
        if p < 0:
            break
        found = scanner.match_at(p)
        if found is None:
            pos = p + 1
        else:
            last, pos = found
    if last is None:
        return ""
    value = last.strip()
    # The official code strips a quote pair even from a lone quote character.
    if (value.startswith('"') and value.endswith('"')) or (value.startswith("'") and value.endswith("'")):
        value = value[1:-1]
    return value


def lenient_json_answer(response: str) -> str:
    """The last ``"answer": <value>`` anywhere in the response ('' if none).

    Values are a JSON string, number, boolean, or a flat list (read as a
    ``(a, b)`` pair); anything nested is no answer. Each value is matched by a
    regular expression anchored at its key and bounded by the next quote, so
    the cost stays linear and no recursion limit can be hit.
    """
    for key in reversed(list(_ANSWER_KEY.finditer(response))):
        value = _LENIENT_VALUE.match(response, key.end())
        if value is None:
            continue
        string, number, boolean, items = value.groups()
        if string is not None:
            try:
                return str(json.loads(value.group(0))).strip()
            except ValueError:
                return string.strip()
        if number is not None or boolean is not None:
            return number if number is not None else boolean
        return "(" + ", ".join(x.strip().strip('"').strip() for x in items.split(",")) + ")"
    return ""


def last_integers(text: str, count: int) -> list[str]:
    """The last ``count`` runs of digits (Unicode digits included, as ``\\d`` does)."""
    found = _DIGITS.findall(text)
    return found[-count:] if len(found) >= count else []


def last_uppercase(text: str) -> str:
    for ch in reversed(text):
        if ch.isupper():
            return ch
    return ""
