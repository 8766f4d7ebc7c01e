"""Helpers every item generator shares: deterministic PNG bytes, config validation, preset names."""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from PIL import Image

from .rng import DEFAULT_SEED

ENV_SEED, ENV_ITEMS = "COGVIS_GEN_SEED", "COGVIS_GEN_ITEMS"


def png(img: Image.Image) -> bytes:
    """Deterministic PNG bytes (no timestamps or other metadata)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def preset_name(config: Any, presets: dict[str, Any]) -> str:
    """The preset a config equals ("custom" for any other), recorded as the item's difficulty."""
    return next((name for name, preset in presets.items() if preset == config), "custom")


def check_choice(name: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def check_range(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value!r}")


def settings(seed: int | None, n: int | None) -> tuple[int, int | None]:
    """Seed and item count of a generated set: the arguments, else $COGVIS_GEN_SEED / $COGVIS_GEN_ITEMS, else defaults.

    The harnesses build generated sets at task-load time, where the environment is the one knob both share.
    """
    seed = int(os.environ.get(ENV_SEED, DEFAULT_SEED)) if seed is None else seed
    if n is None and os.environ.get(ENV_ITEMS):
        n = int(os.environ[ENV_ITEMS])
    return seed, n


def generator_module(package: str, name: str, available: tuple[str, ...]) -> ModuleType:
    """The generator ``<package>.generators.<name lower>``; names outside ``available`` are refused before any import."""
    if name not in available:
        raise ValueError(f"no generator for {name!r}; available: {available}")
    return importlib.import_module(f"{package}.generators.{name.lower()}")


def generate_items(gen: ModuleType, preset_of: Callable[[int], str], seed: int, n: int | None) -> Iterator[Any]:
    """Items 0..n-1 (default: the generator's DEFAULT_ITEMS), item i at preset ``preset_of(i)``, one at a time."""
    for index in range(gen.DEFAULT_ITEMS if n is None else n):
        yield gen.generate(seed, index, gen.PRESETS[preset_of(index)])
