"""Vision-necessity controls: the same items with only their images changed.

A benchmark whose score barely drops when the images are replaced by a grey
field or by noise can be answered from the text (and the model's priors) alone;
a drop under ``lowres`` measures how much fine detail the items need (the Mind's
Eye paper's 100 vs 300 DPI ablation is a third of the side). Controls change
nothing else: prompt, answer, scoring and item ids stay, and every replacement
has the original's width and height, so layouts and image counts are unchanged.

Replacements are made when a request is built, never at load time, so memory
stays what it is without a control; they are pure functions of the original
bytes, the control and a key (sample id and image index), hence byte-identical
across runs and processes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
from collections.abc import Iterable

import numpy as np
from PIL import Image

from . import images as imgs
from .sample import Sample

CONTROLS = ("blank", "noise", "lowres")
#: The uniform grey of ``blank``: mid-grey carries no figure/ground information either way.
BLANK_GREY = 128
#: ``lowres`` keeps one pixel in LOWRES_FACTOR along each side, then scales back up.
LOWRES_FACTOR = 3
#: Metadata key of a sample's control (absent: the images as released).
META_KEY = "control"


def check(control: str | None) -> str | None:
    """The control name, or None for none; anything else is a ValueError naming the choices."""
    if control in (None, "", "none"):
        return None
    if control not in CONTROLS:
        raise ValueError(f"unknown image control {control!r}; expected one of {CONTROLS} (or none)")
    return control


def _noise_rng(key: str) -> np.random.Generator:
    return np.random.default_rng(int.from_bytes(hashlib.sha256(f"cogvis-noise/{key}".encode()).digest()[:16], "big"))


def replace(image: Image.Image, control: str, key: str) -> Image.Image:
    """The control's replacement for a decoded image (RGB, same size)."""
    width, height = image.size
    if control == "blank":
        return Image.new("RGB", (width, height), (BLANK_GREY,) * 3)
    if control == "noise":
        grey = _noise_rng(key).integers(0, 256, size=(height, width), dtype=np.uint8)
        return Image.fromarray(grey, mode="L").convert("RGB")
    if control == "lowres":
        small = image.resize(
            (max(1, round(width / LOWRES_FACTOR)), max(1, round(height / LOWRES_FACTOR))), Image.Resampling.BOX
        )
        return small.resize((width, height), Image.Resampling.BICUBIC)
    raise ValueError(f"unknown image control {control!r}; expected one of {CONTROLS}")


def decoded(
    data: bytes, control: str | None, key: str, file: str = "<memory>", row: object = "?", field: str = "image"
) -> Image.Image:
    """Decode image bytes (located errors as ``images.decode``) and apply the control, if any."""
    image = imgs.decode(data, file, row, field)
    return image if control is None else replace(image, control, key)


def encoded(data: bytes, control: str | None, key: str) -> bytes:
    """Encoded bytes for a back end that takes files: the original without a control, else a PNG of the replacement."""
    if control is None:
        return data
    out = io.BytesIO()
    replace(imgs.decode(data), control, key).save(out, format="PNG", optimize=False)
    return out.getvalue()


def mark(samples: Iterable[Sample], control: str | None) -> list[Sample]:
    """The samples with their control recorded in the metadata (unchanged without one).

    The images themselves are replaced only when a request is built (``decoded`` / ``encoded``),
    keyed by sample id and image index.
    """
    control = check(control)
    if control is None:
        return list(samples)
    return [dataclasses.replace(s, metadata={**s.metadata, META_KEY: control}) for s in samples]


def image_key(sample_id: str, index: int) -> str:
    """The key a replacement is seeded with: one per image of a sample."""
    return f"{sample_id}#{index}"
