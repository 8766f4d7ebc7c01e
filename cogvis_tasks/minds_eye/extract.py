"""Which option a free-text answer chose: a deterministic, linear-time reader.

Mind's Eye prompts ask for step-by-step reasoning and no answer format, so long
answers mention several letters. The reader looks for explicit answer
statements ("Answer: C", "the correct option is (b)", "\\boxed{D}", "I choose E",
"none of the options") and the LAST one wins; only when there is none does it
accept a bare letter as the whole answer or as the last line. A statement
saying that no option fits is its own outcome, ``NONE``; no usable statement
gives ``''`` (unparseable). Letters outside the task's options are ignored.
Lower-case letters count only where they cannot be the article "a" (in
brackets, or followed by punctuation or the end).
"""

from __future__ import annotations

import re

NONE = "none"

_KEYWORDS = (
    r"final\s+answer|answer|correct\s+(?:answer|option|choice|figure|one)|odd\s+one(?:\s+out)?|"
    r"(?:my|the)\s+choice|i\s+(?:would\s+)?(?:choose|pick|select|go\s+with)|(?:best|right)\s+(?:answer|option|choice)"
)
_CONNECT = r"(?:\s*(?:is|:|=|would\s+be|should\s+be|will\s+be|must\s+be|here\s+is)\s*)?[:\-\u2013\u2014]?\s*(?:\*\*|__)?\s*"
_NOUN = r"(?:(?i:option|figure|choice|letter|image|shape)\s*)?"
_LETTER = r"(?:[\(\[\{\"'*]\s*([A-Fa-f])\s*[\)\]\}\"'*]|([A-F])(?![A-Za-z0-9_'])|([a-f])(?=\s*(?:[).\]*,;:!?\"']|$)))"

_STATEMENT = re.compile(
    rf"(?i:\b(?:{_KEYWORDS}))\b{_CONNECT}{_NOUN}{_LETTER}"
    rf"|\\boxed\{{\s*(?:\\text\{{\s*)?([A-Fa-f])\s*\}}"
    rf"|(?i:\b(?:option|figure|choice)\s+)\(?([A-F]|[a-f](?=\)))\)?\s+(?i:is|would\s+be)\s+(?i:the\s+)?(?i:correct|right|answer|odd\s+one|one\s+that)"
    rf"|(?P<none>(?i:\bnone\s+of\s+the\s+(?:options|above|figures|choices|answers)|\bno\s+(?:option|answer|figure|choice)\s+(?:is\s+)?(?:correct|fits|matches)|\banswer\s*:\s*none\b))",
    re.MULTILINE,
)
_BARE = re.compile(r"^[\s*_#>\-]*(?:(?i:option|answer)\s*:?\s*)?(?:[\(\[]\s*([A-Fa-f])\s*[\)\]]|([A-F]))[.!]?[\s*_]*$")


def extract_choice(response: str, letters: str = "ABCD") -> str:
    """The chosen letter (upper case), ``NONE``, or '' when no answer can be read."""
    last = ""
    for match in _STATEMENT.finditer(response):
        if match.group("none") is not None:
            last = NONE
            continue
        letter = next((g for g in match.groups()[:6] if g), "").upper()
        if letter and letter in letters:
            last = letter
    if last:
        return last
    stripped = response.strip()
    tail = stripped.rsplit("\n", 1)[-1][-60:]  # the whole answer, or its last line
    bare = _BARE.match(tail)
    letter = (bare.group(1) or bare.group(2)).upper() if bare else ""
    return letter if letter in letters else ""
