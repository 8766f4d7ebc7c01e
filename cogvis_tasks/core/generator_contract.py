"""What a generator provides, written down once for both families (VisFactor subtests, Mind's Eye tasks).

A generator is a module ``<benchmark>/generators/<id lower>.py`` with the members of :class:`Generator`, and
beside it an independent verifier ``verify_<id lower>.py`` with those of :class:`Verifier`. The families'
lookups (``<benchmark>.generated.generator`` and ``.verifier``) check a module against these when they hand it
out, so a forgotten or malformed member is a :class:`GeneratorContractError` naming the module and the
attribute, before any item is made. The benchmark contract (:mod:`.contract`) is the other half: a generated
set is a benchmark whose samples come from these modules.

The item type and the answer form are the family's: a VisFactor item carries rows in the released schema and
its answer is the rows' answer cells (``list[str]``); a Mind's Eye item is one image with its released record
and its answer is the correct option's index (``int``). Both share the read-only surface of :class:`Item`.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, cast, runtime_checkable

#: The parameters ``generate`` takes first, in this order.
GENERATE_PARAMETERS = ("seed", "index", "config")


class Item(Protocol):
    """What both families' items give callers that do not know the family: the generator's ``id`` (its ``ID``),
    the item's ``index`` and its ``difficulty`` (the preset its config equals, "custom" for any other)."""

    @property
    def id(self) -> str: ...

    @property
    def index(self) -> int: ...

    @property
    def difficulty(self) -> str: ...


@runtime_checkable
class Generator(Protocol):
    """The module surface of a generator.

    ``ID``: the subtest or task id; ``Config``: a frozen dataclass that validates itself in ``__post_init__``
    (``ValueError`` naming the field); ``PRESETS``: the family's difficulty presets, in the family's order, as
    Configs; ``DEFAULT_ITEMS``: the set size when no count is given; ``generate``: item ``index`` of ``seed`` at
    ``config``, a pure function of the three (its RNG is hashed from them and the ID, ``core.rng``), answer and
    metadata returned together.
    """

    ID: str
    Config: type
    PRESETS: Mapping[str, Any]
    DEFAULT_ITEMS: int

    def generate(self, seed: int, index: int, config: Any) -> Item: ...


@runtime_checkable
class Verifier(Protocol):
    """The verifier beside a generator: ``solve`` re-derives an item's answer (the family's answer form) from
    what the item stores, by another method than the generator's; ``verify`` raises
    :class:`.generation.VerificationError` when that is not the stored answer (or ``solve`` rejects the item)."""

    def solve(self, item: Any) -> Any: ...

    def verify(self, item: Any) -> None: ...


class GeneratorContractError(ValueError):
    """A generator or verifier module does not meet the contract: names the module and the attribute."""

    def __init__(self, module: str, attribute: str, message: str) -> None:
        super().__init__(f"generator module {module!r}, attribute {attribute}: {message}")
        self.module, self.attribute, self.message = module, attribute, message


def members(protocol: type) -> tuple[str, ...]:
    """The names a module must define to meet ``protocol``: its annotated attributes, then its functions."""
    own = dict(vars(protocol))
    functions = (name for name, value in own.items() if inspect.isfunction(value) and name[0] != "_")
    return (*own.get("__annotations__", {}), *functions)


def _missing(module: ModuleType, protocol: type) -> None:
    for name in members(protocol):
        if not hasattr(module, name):
            raise GeneratorContractError(module.__name__, name, f"missing (a {protocol.__name__} defines it)")


def check_generator(module: ModuleType, generator_id: str, presets: tuple[str, ...]) -> Generator:
    """The module, after checking it defines every member of :class:`Generator` as described there."""
    where = module.__name__
    _missing(module, Generator)
    if module.ID != generator_id:
        raise GeneratorContractError(where, "ID", f"is {module.ID!r}, the module is looked up as {generator_id!r}")
    config = module.Config
    if not (isinstance(config, type) and dataclasses.is_dataclass(config) and config.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        raise GeneratorContractError(where, "Config", "must be a frozen dataclass")
    if "__post_init__" not in vars(config):
        raise GeneratorContractError(where, "Config", "must validate itself in __post_init__")
    if not isinstance(module.PRESETS, Mapping) or tuple(module.PRESETS) != presets:
        raise GeneratorContractError(where, "PRESETS", f"must map the family's presets {presets} to Configs")
    for name, preset in module.PRESETS.items():
        if not isinstance(preset, config):
            raise GeneratorContractError(where, f"PRESETS[{name!r}]", f"is a {type(preset).__name__}, not a Config")
    items = module.DEFAULT_ITEMS
    if not isinstance(items, int) or isinstance(items, bool) or items <= 0:
        raise GeneratorContractError(where, "DEFAULT_ITEMS", f"must be a positive int, got {items!r}")
    if not callable(module.generate):
        raise GeneratorContractError(where, "generate", "must be a function")
    first = tuple(inspect.signature(module.generate).parameters)[: len(GENERATE_PARAMETERS)]
    if first != GENERATE_PARAMETERS:
        raise GeneratorContractError(where, "generate", f"must take {GENERATE_PARAMETERS} first, takes {first}")
    return cast(Generator, module)


def check_verifier(module: ModuleType) -> Verifier:
    """The module, after checking ``solve`` and ``verify`` are functions of one item."""
    _missing(module, Verifier)
    for name in members(Verifier):
        function = getattr(module, name)
        if not callable(function) or len(inspect.signature(function).parameters) != 1:
            raise GeneratorContractError(module.__name__, name, "must be a function of one item")
    return cast(Verifier, module)
