"""The generator contract (cogvis_tasks/core/generator_contract.py), checked once over every registered generator of
both families: module shape, presets, config validation, determinism (also across processes), JSON-serialisable
metadata, and the verifier: it agrees on a few items per preset and raises VerificationError on an item whose
stored answer was altered. Family- and generator-specific checks live in test_gen_*.py / test_me_gen_*.py."""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from cogvis_tasks import registry
from cogvis_tasks.core.generation import VerificationError
from cogvis_tasks.core.generator_contract import (
    Generator,
    GeneratorContractError,
    Verifier,
    check_generator,
    check_verifier,
)
from cogvis_tasks.minds_eye.generators import base as me_base

SEED = 20261201
PER_PRESET = 2  # items per preset for the item checks
#: The generated sets and their generators, from the registry (a new generator is checked without editing this file).
SETS = tuple(name for name in registry.names() if registry.info(name).generated)
CASES = [(name, sub.id) for name in SETS for sub in registry.info(name).subtests]
UNKNOWN = "no-such-value"  # a name no string option accepts


def test_both_families_are_covered() -> None:
    assert {registry.info(name).family_name for name in SETS} == {"visfactor", "minds_eye"}
    assert len(CASES) >= 20  # 12 VisFactor subtests and 8 Mind's Eye tasks today


def _family(name: str) -> str:
    return registry.info(name).family_name


def _generator(name: str, gen_id: str) -> Any:
    return registry.benchmark(name).generator(gen_id)


def _verifier(name: str, gen_id: str) -> Any:
    return registry.benchmark(name).verifier(gen_id)


def item_bytes(item: Any) -> bytes:
    """Everything an item holds, as bytes: images, question and answer texts, metadata or record."""
    h = hashlib.sha256(str(item.index).encode())
    if hasattr(item, "rows"):  # VisFactor: rows in the released schema plus metadata
        for row in item.rows:
            h.update(b"\0".join([row.question.encode(), row.answer.encode(), row.additional.encode(), *row.images]))
        h.update(json.dumps(item.metadata, sort_keys=True).encode())
    else:  # Mind's Eye: one image and its annotations.json record
        h.update(item.key.encode() + b"\0" + item.image + json.dumps(item.record, sort_keys=True).encode())
    return h.digest()


def digests() -> dict[str, str]:
    """Item 0 of every generator at its first preset (what the cross-process test compares)."""
    out = {}
    for name, gen_id in CASES:
        gen = _generator(name, gen_id)
        out[gen_id] = item_bytes(gen.generate(SEED, 0, next(iter(gen.PRESETS.values())))).hex()
    return out


@functools.cache
def _items(name: str, gen_id: str) -> tuple[tuple[str, Any], ...]:
    gen = _generator(name, gen_id)
    return tuple(
        (preset, gen.generate(SEED, k, config)) for preset, config in gen.PRESETS.items() for k in range(PER_PRESET)
    )


# ---------------------------------------------------------------- module shape


@pytest.mark.parametrize("name, gen_id", CASES)
def test_module_shape(name: str, gen_id: str) -> None:
    gen, verifier = _generator(name, gen_id), _verifier(name, gen_id)
    assert isinstance(gen, Generator) and isinstance(verifier, Verifier)
    assert gen.ID == gen_id and gen.__name__.endswith(f".generators.{gen_id.lower()}")
    assert set(gen.PRESETS) <= set(registry.info(name).presets)  # its presets are the set's


def _module(**members: Any) -> types.ModuleType:
    module = types.ModuleType("fake.generators.xx")
    module.__dict__.update(members)
    return module


@dataclasses.dataclass(frozen=True)
class _Config:
    size: int = 1

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("size must be positive")


@dataclasses.dataclass
class _Mutable:
    size: int = 1

    def __post_init__(self) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class _Unchecked:
    size: int = 1


def _generate(seed: int, index: int, config: _Config) -> None:
    return None


GOOD = {"ID": "XX", "Config": _Config, "PRESETS": {"a": _Config(), "b": _Config(2)}, "DEFAULT_ITEMS": 3}


@pytest.mark.parametrize(
    "change, attribute, message",
    [
        ({"ID": None}, "ID", "missing"),
        ({"ID": "YY"}, "ID", "looked up as 'XX'"),
        ({"Config": _Mutable}, "Config", "frozen dataclass"),
        ({"Config": _Unchecked}, "Config", "__post_init__"),
        ({"PRESETS": {"a": _Config()}}, "PRESETS", "('a', 'b')"),
        ({"PRESETS": {"a": _Config(), "b": {"size": 2}}}, "PRESETS['b']", "not a Config"),
        ({"DEFAULT_ITEMS": 0}, "DEFAULT_ITEMS", "positive int"),
        ({"DEFAULT_ITEMS": True}, "DEFAULT_ITEMS", "positive int"),
        ({"generate": lambda index, seed, config: None}, "generate", "('seed', 'index', 'config')"),
        ({"generate": None}, "generate", "missing"),
    ],
)
def test_contract_check_names_module_and_attribute(change: dict, attribute: str, message: str) -> None:
    members = {**GOOD, "generate": _generate, **change}
    module = _module(**{k: v for k, v in members.items() if v is not None})
    assert check_generator(_module(**GOOD, generate=_generate), "XX", ("a", "b")) is not None
    with pytest.raises(GeneratorContractError) as err:
        check_generator(module, "XX", ("a", "b"))
    assert (err.value.module, err.value.attribute) == ("fake.generators.xx", attribute)
    assert message in err.value.message and "fake.generators.xx" in str(err.value)


def test_verifier_check_names_module_and_attribute() -> None:
    with pytest.raises(GeneratorContractError, match="attribute verify: missing"):
        check_verifier(_module(solve=lambda item: 0))
    with pytest.raises(GeneratorContractError, match="attribute solve: must be a function of one item"):
        check_verifier(_module(solve=lambda item, extra: 0, verify=lambda item: None))


# ---------------------------------------------------------------- presets and configs


@pytest.mark.parametrize("name, gen_id", CASES)
def test_presets_are_valid_configs(name: str, gen_id: str) -> None:
    gen = _generator(name, gen_id)
    for preset in gen.PRESETS.values():
        assert gen.Config(**dataclasses.asdict(preset)) == preset  # re-validates, and the params rebuild it


def _bad_values(preset: Any) -> dict[str, Any]:
    """For every numeric field a value far below any range, for every name field an unknown name."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(preset):
        value = getattr(preset, f.name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[f.name] = -(10**6)
        elif isinstance(value, str):
            out[f.name] = UNKNOWN
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            out[f.name] = (UNKNOWN,)
    return out


@pytest.mark.parametrize("name, gen_id", CASES)
def test_invalid_configs_raise_naming_the_field(name: str, gen_id: str) -> None:
    preset = next(iter(_generator(name, gen_id).PRESETS.values()))
    bad = _bad_values(preset)
    assert bad, "no numeric or name field to check"
    for field, value in bad.items():
        with pytest.raises(ValueError, match=field):
            dataclasses.replace(preset, **{field: value})


# ---------------------------------------------------------------- determinism and metadata


@pytest.mark.parametrize("name, gen_id", CASES)
def test_items_are_pure_functions_of_seed_index_and_config(name: str, gen_id: str) -> None:
    gen = _generator(name, gen_id)
    made = _items(name, gen_id)  # items 0, 1 of each preset in turn
    (preset, first), (_, second) = made[:2]
    assert item_bytes(gen.generate(SEED, 0, gen.PRESETS[preset])) == item_bytes(first)  # again, after the others
    assert item_bytes(first) != item_bytes(second)  # another index
    other_seed = item_bytes(gen.generate(SEED + 1, 0, gen.PRESETS[preset]))
    assert other_seed != item_bytes(first) and other_seed != item_bytes(second)  # another seed, and not seed + index
    assert len({item_bytes(item) for _, item in made}) == len(made)  # the config is part of the item's seed


def test_items_are_byte_identical_across_processes() -> None:
    code = f"import json, sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import {Path(__file__).stem} as t; print(json.dumps(t.digests()))"
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    ]
    assert (
        json.loads(runs[0])
        == json.loads(runs[1])
        == {gen_id: item_bytes(_items(name, gen_id)[0][1]).hex() for name, gen_id in CASES}
    )


@pytest.mark.parametrize("name, gen_id", CASES)
def test_metadata_is_json_and_records_the_preset(name: str, gen_id: str) -> None:
    gen = _generator(name, gen_id)
    for preset, item in _items(name, gen_id):
        assert item.index in range(PER_PRESET) and item.id == gen_id and item.difficulty == preset
        if _family(name) == "visfactor":
            assert item.subtest == gen_id and len(item.rows) >= 1
            meta = json.loads(json.dumps(item.metadata))
            assert meta["difficulty"] == preset
            assert meta["params"] == json.loads(json.dumps(dataclasses.asdict(gen.PRESETS[preset])))
        else:
            assert item.task == gen_id
            assert json.loads(json.dumps(item.record))["difficulty"] == preset


def test_an_item_off_the_presets_records_custom() -> None:
    """Mind's Eye's make_item derives the difficulty from the config as VisFactor's does (CF1: test_gen_cf.py)."""
    gen = _generator("minds_eye_gen", "SS")
    item = gen.generate(SEED, 0, dataclasses.replace(gen.PRESETS["easy"], moved_vertices=2))
    assert item.difficulty == item.record["difficulty"] == "custom"


# ---------------------------------------------------------------- verifier


@pytest.mark.parametrize("name, gen_id", CASES)
def test_verifier_agrees(name: str, gen_id: str) -> None:
    verifier = _verifier(name, gen_id)
    for _, item in _items(name, gen_id):
        assert verifier.verify(item) is None


def _altered(item: Any) -> tuple[Any, Any]:
    """The item with its stored answer changed, and the answer it now states."""
    if hasattr(item, "rows"):
        first = item.rows[0]
        other = {"T": "F", "F": "T"}.get(first.answer, first.answer + "x")
        rows = (dataclasses.replace(first, answer=other), *item.rows[1:])
        return dataclasses.replace(item, rows=rows), [r.answer for r in rows]
    spec = me_base.BY_ID[item.task]
    other = (item.answer_index + 1) % spec.options
    record = {**item.record, spec.answer_field: me_base.release_letter(item.task, other)}
    return dataclasses.replace(item, record=record), other


@pytest.mark.parametrize("name, gen_id", CASES)
def test_verifier_rejects_an_altered_answer(name: str, gen_id: str) -> None:
    verifier = _verifier(name, gen_id)
    _, item = _items(name, gen_id)[-1]
    derived = verifier.solve(item)
    altered, stated = _altered(item)
    with pytest.raises(VerificationError) as err:
        verifier.verify(altered)
    assert (err.value.generator, err.value.index, err.value.stored, err.value.derived) == (
        gen_id,
        item.index,
        stated,
        derived,
    )
    assert str(err.value).startswith(f"generator {gen_id}, item {item.index}: stored answer {stated!r}")


def test_a_scene_the_verifier_rejects_is_a_verification_error() -> None:
    """A verifier's own ValueError (here: two DSC options show the t = 1 frame) reaches the caller as the one error."""
    _, item = _items("minds_eye_gen", "DSC")[0]
    record = copy.deepcopy(item.record)
    wrong = (item.answer_index + 1) % 4
    record["scene"]["options"][wrong] = record["scene"]["options"][item.answer_index]
    with pytest.raises(VerificationError, match=r"re-derived None \(2 options show the t=1 frame") as err:
        _verifier("minds_eye_gen", "DSC").verify(dataclasses.replace(item, record=record))
    assert (err.value.generator, err.value.stored) == ("DSC", item.answer_index)
