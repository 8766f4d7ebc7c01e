"""Helpers every item generator shares: deterministic PNG bytes, config validation, preset names, the
contract-checked module lookups (:mod:`.generator_contract`) and the one error a verifier raises."""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Callable, Iterator
from typing import Any

from PIL import Image

from .generator_contract import Generator, Verifier, check_generator, check_verifier
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


def generator_module(package: str, name: str, available: tuple[str, ...], presets: tuple[str, ...]) -> Generator:
    """The generator ``<package>.generators.<name lower>``, checked against the contract (``presets``: the
    family's); names outside ``available`` are refused before any import."""
    if name not in available:
        raise ValueError(f"no generator for {name!r}; available: {available}")
    return check_generator(importlib.import_module(f"{package}.generators.{name.lower()}"), name, presets)


def verifier_module(package: str, name: str, available: tuple[str, ...]) -> Verifier:
    """The verifier ``<package>.generators.verify_<name lower>``, checked against the contract. Separate from
    :func:`generator_module`: verifiers may import what generating does not need (scipy)."""
    if name not in available:
        raise ValueError(f"no generator for {name!r}; available: {available}")
    return check_verifier(importlib.import_module(f"{package}.generators.verify_{name.lower()}"))


def generate_items(gen: Generator, preset_of: Callable[[int], str], seed: int, n: int | None) -> Iterator[Any]:
    """Items 0..n-1 (default: the generator's DEFAULT_ITEMS), item i at preset ``preset_of(i)``, one at a time."""
    for index in range(gen.DEFAULT_ITEMS if n is None else n):
        yield gen.generate(seed, index, gen.PRESETS[preset_of(index)])


class VerificationError(ValueError):
    """An item's stored answer is not the one its verifier re-derives, or the verifier rejects the item's scene.

    The one error every verifier's ``verify`` raises; names the generator, the item and both answers."""

    def __init__(self, generator: str, index: int, stored: Any, derived: Any, reason: str = "") -> None:
        because = f" ({reason})" if reason else ""
        super().__init__(
            f"generator {generator}, item {index}: stored answer {stored!r}, re-derived {derived!r}{because}"
        )
        self.generator, self.index, self.stored, self.derived, self.reason = generator, index, stored, derived, reason


def check_solved(generator: str, index: int, stored: Any, solve: Callable[[], Any]) -> None:
    """Raise :class:`VerificationError` unless ``solve()`` returns ``stored``; a ``ValueError`` from ``solve``
    (the verifier found the scene broken) becomes one too, its message kept as the reason."""
    try:
        derived = solve()
    except VerificationError:
        raise
    except ValueError as exc:
        raise VerificationError(generator, index, stored, None, str(exc)) from exc
    if derived != stored:
        raise VerificationError(generator, index, stored, derived)
