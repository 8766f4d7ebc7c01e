"""Independent CS2 check: re-read the word from its list, re-count the hidden ink per letter.

The word is looked up again by its index in a candidate list rebuilt here (a
regular-expression filter over the same source, not the generator's filter) and
must equal the letters the scene places. The letters are re-drawn one by one from
the scene; the image must be those letters with only white added, at most the
severity share of the word's ink hidden, and every letter keeping more than
1 - max_letter_occlusion of its own ink. A broken rule raises ``ValueError``.
"""

from __future__ import annotations

import functools
import re

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import base
from .cs2 import BLOCKED, BUILTIN_WORDS  # data only
from .verify_cs1 import pixels, repaint

_WORD = re.compile(r"[a-z]+")
INK = 250


def candidates(params: dict) -> list[str]:
    return list(_candidates(params["word_source"], params["top_n"], params["min_len"], params["max_len"]))


@functools.lru_cache(maxsize=8)
def _candidates(source: str, top_n: int, lo: int, hi: int) -> tuple[str, ...]:
    if source == "wordfreq":
        import wordfreq

        raw = wordfreq.top_n_list("en", top_n)
    else:
        raw = BUILTIN_WORDS
    return tuple(sorted({w for w in raw if _WORD.fullmatch(w) and lo <= len(w) <= hi and w not in BLOCKED}))


def solve(item: base.GeneratedItem) -> list[str]:
    scene, params = item.metadata["scene"], item.metadata["params"]
    words = candidates(params)
    if len(words) != scene["word_count"]:
        raise ValueError(f"{len(words)} candidate words, the scene says {scene['word_count']}")
    word = words[scene["word_index"]]
    if word != scene["word"] or "".join(letter["char"] for letter in scene["letters"]) != word:
        raise ValueError(f"the scene's letters do not spell the listed word {word!r}")

    size = (params["width"], params["height"])
    font = ImageFont.load_default(size=scene["font_size"])
    layers = []
    for letter in scene["letters"]:
        one = Image.new("L", size, 255)
        ImageDraw.Draw(one).text((letter["x"], letter["y"]), letter["char"], font=font, fill=0)
        layers.append(np.asarray(one).astype(np.int16))
    clean = np.minimum.reduce(layers)
    (row,) = item.rows
    shown = pixels(row.images[0])
    if shown.shape != (size[1], size[0]):
        raise ValueError(f"image is {shown.shape[::-1]}, expected {size}")
    if np.any(shown[shown != clean] != 255):
        raise ValueError("the image differs from the word by more than white lines and blotches")
    if not np.array_equal(shown, repaint(clean, scene["occluders"])):
        raise ValueError("the image is not the word with the scene's occluders")
    gone = shown >= INK
    ink = clean < INK
    if int((ink & gone).sum()) > params["severity"] * int(ink.sum()):
        raise ValueError("more than the severity share of the word's ink is hidden")
    for letter, layer in zip(scene["letters"], layers, strict=True):
        mine = layer < INK
        if mine.sum() == 0 and letter["char"].strip():
            raise ValueError(f"letter {letter['char']!r} has no ink")
        if int((mine & gone).sum()) > params["max_letter_occlusion"] * int(mine.sum()):
            raise ValueError(f"letter {letter['char']!r} is hidden beyond max_letter_occlusion")
        if mine.sum() and not (mine & ~gone).any():
            raise ValueError(f"letter {letter['char']!r} is not visible at all")
    return [word]


def verify(item: base.GeneratedItem) -> None:
    """Raise ``VerificationError`` unless :func:`solve` re-derives every row's stored answer."""
    base.verify(item, solve)
