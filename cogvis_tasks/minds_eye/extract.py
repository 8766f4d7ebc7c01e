"""Which option a free-text answer chose: a deterministic, linear-time reader.

Mind's Eye prompts ask for step-by-step reasoning and no answer format, so long
answers mention several letters. The reader looks for explicit answer
statements ("Answer: C", "**Final Answer**: (b)", "the correct option is most
likely D", "\\boxed{(B)}", "I'll go with E", "C is the correct answer",
"none of the options") and the LAST one wins; only when there is none does it
accept a bare letter as the whole answer or as its last line. A statement that
no option fits is its own outcome, ``NONE``; no usable statement gives ``''``
(unparseable). Letters outside the task's options are ignored, and so are
hedges naming two letters ("A or C"). Lower-case letters count only where they
cannot be the article "a" (in brackets, or followed by punctuation or the end).

Every quantifier that can meet a long run of the same characters is possessive
(``*+``), so the regular expressions cannot backtrack into such runs: the cost
is linear in the answer length.
"""

from __future__ import annotations

import re

NONE = "none"

_MARK = r"[*_`]"  # markdown emphasis and code marks
_KEYWORD = (
    r"(?i:final\s++answer|answer|correct\s++(?:answer|option|choice|figure|one)|odd\s++one(?:\s++out)?|"
    r"(?:my|the)\s++choice|(?:best|right)\s++(?:answer|option|choice)|"
    r"i(?:'ll|'d|\s++will|\s++would)?\s++(?:choose|pick|select|go\s++with))"
)
#: Between the keyword and the letter: separators, emphasis and a few filler words, never a long backtrack.
_CONNECT = (
    r"(?:[\s*_`:=\-\u2013\u2014]++|(?i:is|are|would|should|will|must|be|here|therefore|thus|hence|so|most|likely|"
    r"probably|clearly|definitely|then|now|finally|appears|seems|to|option|figure|choice|letter|image|shape)\b)*+"
)
_HEDGE = r"(?![ \t]*+(?:or|and|/)[ \t]*+[(\[]?[A-Fa-f]\b)"  # "A or C" on the same line: no choice
_LETTER = rf"(?:[(\[{{\"'`]\s*+([A-Fa-f])\s*+[)\]}}\"'`]|([A-F])(?![A-Za-z0-9_'])|([a-f])(?={_MARK}*+[ \t]*+(?:[).\]*,;:!?\"'`]|$))){_HEDGE}"
_NONE_PHRASE = (
    r"(?i:\bnone\s++of\s++(?:the\s++)?(?:given\s++|provided\s++|above\s++)?(?:options|above|figures|choices|answers)\b"
    r"(?!\s*+(?:except|but|other|besides|apart)\b)"
    r"|\bno\s++(?:option|answer|figure|choice)\s++(?:is\s++)?(?:correct|fits|matches)\b)"
)

_STATEMENT = re.compile(
    rf"\b{_KEYWORD}\b{_CONNECT}{_LETTER}"  # 1-3: keyword ... letter
    rf"|\\boxed\{{\s*+(?:\\text(?:bf)?\{{\s*+)?[(\[]?\s*+([A-Fa-f])\b"  # 4: \boxed{C}, \boxed{(B)}
    rf"|(?i:\b(?:option|figure|choice)\s++){_MARK}*+[(\[]?([A-F]|[a-f](?=[)\]]))[)\]]?{_MARK}*+\s++"
    rf"(?i:is|would\s++be)\s++(?i:the\s++)?(?i:correct|right|answer\b|odd\s++one)"  # 5: option B is the correct one
    rf"|(?:^|(?<=[\s(*]))([A-F])\)?{_MARK}*+\s++(?i:is|would\s++be)\s++(?i:the\s++)?(?i:correct|right)\s++"
    rf"(?i:answer|option|choice|one)"  # 6: C is the correct answer
    rf"|(?P<none_kw>\b(?i:final\s++answer|answer)\b{_CONNECT}(?i:none)\b)"
    rf"|(?P<none>{_NONE_PHRASE})",
    re.MULTILINE,
)
_BARE = re.compile(
    r"^[\s*_#>\-`]*+(?:(?i:option|answer)\s*+:?\s*+)?(?:[(\[]\s*+([A-Fa-f])\s*+[)\]]|([A-Fa-f]))[.!]?[\s*_`]*+$"
)


def extract_choice(response: str, letters: str = "ABCD") -> str:
    """The chosen letter (upper case), ``NONE``, or '' when no answer can be read."""
    last = ""
    for match in _STATEMENT.finditer(response):
        if match.group("none") is not None or match.group("none_kw") is not None:
            last = NONE
            continue
        letter = next((g for g in match.groups()[:6] if g), "").upper()
        if letter and letter in letters:
            last = letter
    if last:
        return last
    tail = response.strip().rsplit("\n", 1)[-1][-60:]  # the whole answer, or its last line
    bare = _BARE.match(tail)
    letter = (bare.group(1) or bare.group(2)).upper() if bare else ""
    return letter if letter in letters else ""
